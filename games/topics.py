"""The rules topics: the basics and one page per variant (SPEC §2), with their names
and one-line summaries in every language."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine import VARIANTS


@dataclass(frozen=True)
class Topic:
    key: str
    name: Promise
    summary: Promise


BASICS = Topic(
    "basics",
    _("Basics"),
    _("The board, the move, own regions, the equator, the match, the table, time and rating."),
)

VARIANT_TOPICS = [
    Topic(
        "fast", _("Fast 8×7"), _("A small board and six colours: a whole match in a few minutes.")
    ),
    Topic("classic", _("Classic 15×15"), _("The standard square board with seven colours.")),
    Topic("hex", _("Hexagons 13×11"), _("Six neighbours per cell instead of four.")),
    Topic("vinco", _("Vinco"), _("A point-symmetric board and the pie rule: one game, no luck.")),
    Topic(
        "rhombus", _("Rhombi"), _("Diamond cells as in the 1990 original, touching on their edges.")
    ),
    Topic("big", _("Big board 21×21"), _("Long chains and big regions on 441 cells.")),
    Topic(
        "walls",
        _("Obstacles and walls"),
        _("Cells nobody can take and walls that cut neighbours apart."),
    ),
    Topic(
        "values",
        _("Valuable cells and paints"),
        _("Cells worth 2 or 3, and paint cells that join any chain."),
    ),
    Topic("three", _("Three starts"), _("Three players on a hexagon-shaped board of hexagons.")),
    Topic("four", _("Four players"), _("Four corners, each player for themselves.")),
    Topic("pairs", _("Pairs"), _("Two teams of two, partners in opposite corners.")),
    Topic("practice", _("Practice"), _("Play the computer with hints and takebacks.")),
]

TOPICS = {topic.key: topic for topic in [BASICS, *VARIANT_TOPICS]}
assert [t.key for t in VARIANT_TOPICS] == list(VARIANTS), "one topic per variant, in order"


def variant_name(key: str) -> Promise:
    """The variant's name in the active language."""
    return TOPICS[key].name


def variant_choices(keys=None) -> list[tuple[str, Promise]]:
    """A model field's choices of variants (all, or ``keys``), named in the active language:
    ``get_variant_display`` speaks the page's language, as ``variant_name`` does."""
    return [(key, variant_name(key)) for key in (VARIANTS if keys is None else keys)]
