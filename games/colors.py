"""Colour names in every language, keyed by the engine's palette keys."""

from django.utils.translation import gettext_lazy as _

COLOR_NAMES = {
    "red": _("red"),
    "orange": _("orange"),
    "yellow": _("yellow"),
    "green": _("green"),
    "sky": _("sky blue"),
    "blue": _("blue"),
    "pink": _("pink"),
    "purple": _("purple"),
    "grey": _("grey"),
}


def palette_for(colors: int) -> list[dict]:
    """The first ``colors`` palette entries as the table page needs them."""
    from games.engine import PALETTE

    return [
        {
            "index": index,
            "key": PALETTE[index].key,
            "name": str(COLOR_NAMES[PALETTE[index].key]),
            "hex": PALETTE[index].hex,
            "symbol": PALETTE[index].symbol,
            "ink": PALETTE[index].ink,
        }
        for index in range(1, colors + 1)
    ]
