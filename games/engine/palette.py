"""The nine colours of Filler: an English key, a hue, a symbol and an ink for each (SPEC §2).

A variant with k colours uses the first k (6, 7 or 8). The hues were chosen so that each looks
like its name (a red that is red, a yellow that is light and yellow) and so that, among the first
6, 7, 8 and 9, any two stay apart with normal colour vision and under simulated protanopia,
deuteranopia and tritanopia: the CIEDE2000 distances and the minimums the tests hold them to are
in docs/palette.md. Where two colours still come close for someone, the symbol tells them apart.

``ink`` is the colour of a number or symbol drawn on the colour: black on light colours, white on
dark ones, whichever reaches a WCAG contrast of at least 4.5:1. All nine symbols are in DejaVu Sans.

>>> PALETTE[1]
PaletteColor(key='red', hex='#CE1511', symbol='●', ink='#FFFFFF')
>>> [entry.key for entry in PALETTE.values()][:3]
['red', 'orange', 'yellow']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

DARK_INK = "#000000"
LIGHT_INK = "#FFFFFF"


@dataclass(frozen=True)
class PaletteColor:
    key: str  # English name, used as an identifier (CSS classes, translations)
    hex: str  # "#RRGGBB"
    symbol: str  # drawn in ``ink`` on the cell when colour symbols are on
    ink: str  # DARK_INK or LIGHT_INK: text and symbols drawn on this colour


PALETTE: Mapping[int, PaletteColor] = MappingProxyType(
    {
        1: PaletteColor("red", "#CE1511", "●", LIGHT_INK),
        2: PaletteColor("orange", "#F28500", "▲", DARK_INK),
        3: PaletteColor("yellow", "#FFDD33", "■", DARK_INK),
        4: PaletteColor("green", "#3F9960", "◆", DARK_INK),
        5: PaletteColor("sky", "#46C2F6", "★", DARK_INK),
        6: PaletteColor("blue", "#0652A7", "✚", LIGHT_INK),
        7: PaletteColor("pink", "#FD9EC0", "♥", DARK_INK),
        8: PaletteColor("purple", "#9871C5", "⬟", DARK_INK),
        9: PaletteColor("grey", "#8A8A8A", "✖", DARK_INK),
    }
)
