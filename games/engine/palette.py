"""The nine colours of Filler: an English key, a hue and a symbol for each (SPEC §2).

Hues start from the Okabe-Ito colour-blind-safe set plus a brown and a grey, darkened in
OKLCH (hue kept) until each has a contrast of at least 3:1 against white, so a cell reads
on a white page and a white symbol reads on the cell. Within that limit the lightness and
chroma were chosen to keep the colours apart under simulated protanopia, deuteranopia and
tritanopia (Machado 2009): the closest pair is about 0.054 apart in OKLab (red, orange and
yellow under deuteranopia), which is why every colour also has a symbol. All nine symbols
are in DejaVu Sans.

>>> PALETTE[1]
PaletteColor(key='red', hex='#B3510F', symbol='●')
>>> [entry.key for entry in PALETTE.values()][:3]
['red', 'orange', 'yellow']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class PaletteColor:
    key: str  # English name, used as an identifier (CSS classes, translations)
    hex: str  # "#RRGGBB"
    symbol: str  # drawn in white on the cell when colour symbols are on


PALETTE: Mapping[int, PaletteColor] = MappingProxyType(
    {
        1: PaletteColor("red", "#B3510F", "●"),
        2: PaletteColor("orange", "#A8792A", "▲"),
        3: PaletteColor("yellow", "#9F960B", "■"),
        4: PaletteColor("green", "#31916E", "◆"),
        5: PaletteColor("sky", "#3596CA", "★"),
        6: PaletteColor("blue", "#055D91", "✚"),
        7: PaletteColor("pink", "#D070A6", "♥"),
        8: PaletteColor("brown", "#704C2C", "⬟"),
        9: PaletteColor("grey", "#5D5D5D", "✖"),
    }
)
