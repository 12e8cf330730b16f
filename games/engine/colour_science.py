"""How far apart two screen colours look, with normal colour vision and without.

The chain, for a ``"#RRGGBB"`` colour: sRGB -> linear RGB -> (optionally a colour-vision
deficiency simulated by a Machado, Oliveira & Fernandes 2009 matrix at full severity, applied
in linear RGB) -> CIE XYZ (D65) -> CIELAB -> CIEDE2000 difference between two colours. Also the
WCAG 2 contrast ratio, which decides the text colour drawn on each colour.

Pure Python and standard library only: the palette's tests and docs use it, the engine does not
need it at run time.

>>> round(contrast_ratio("#000000", "#FFFFFF"), 2)
21.0
>>> round(colour_difference("#FF0000", "#FF0000", vision="deuteranopia"), 6)
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

Triple = tuple[float, float, float]
Matrix = tuple[Triple, Triple, Triple]

VISIONS = ("normal", "protanopia", "deuteranopia", "tritanopia")

# Machado et al. 2009, severity 1.0; rows give the simulated linear R, G and B.
MACHADO_2009: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

# IEC 61966-2-1 (sRGB primaries, D65 white).
LINEAR_SRGB_TO_XYZ: Matrix = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
D65_WHITE: Triple = (0.95047, 1.0, 1.08883)


def _apply(matrix: Matrix, vector: Triple) -> Triple:
    return (
        sum(m * v for m, v in zip(matrix[0], vector, strict=True)),
        sum(m * v for m, v in zip(matrix[1], vector, strict=True)),
        sum(m * v for m, v in zip(matrix[2], vector, strict=True)),
    )


def hex_to_linear(hex_colour: str) -> Triple:
    """Linear-light RGB in [0, 1] of a ``"#RRGGBB"`` colour (the sRGB transfer undone).

    >>> hex_to_linear("#FFFFFF")
    (1.0, 1.0, 1.0)
    """
    if len(hex_colour) != 7 or hex_colour[0] != "#":
        raise ValueError(f"not a #RRGGBB colour: {hex_colour!r}")
    encoded = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in encoded]
    return linear[0], linear[1], linear[2]


def relative_luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance: 0 for black, 1 for white."""
    r, g, b = hex_to_linear(hex_colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def simulate(linear: Triple, vision: str) -> Triple:
    """Linear RGB as seen with ``vision`` (one of ``VISIONS``), clipped to the displayable range."""
    if vision == "normal":
        return linear
    if vision not in MACHADO_2009:
        raise ValueError(f"unknown vision: {vision!r}")
    # A dichromat's simulated colour can fall outside the screen's gamut; a screen clips it.
    seen = _apply(MACHADO_2009[vision], linear)
    return (min(1.0, max(0.0, seen[0])), min(1.0, max(0.0, seen[1])), min(1.0, max(0.0, seen[2])))


def linear_to_lab(linear: Triple) -> Triple:
    """CIELAB (L*, a*, b*) of a linear sRGB colour, through XYZ with the D65 white point."""

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    x, y, z = _apply(LINEAR_SRGB_TO_XYZ, linear)
    fx, fy, fz = f(x / D65_WHITE[0]), f(y / D65_WHITE[1]), f(z / D65_WHITE[2])
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(first: Triple, second: Triple) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (k_L = k_C = k_H = 1).

    Written from Sharma, Wu & Dalal (2005), "The CIEDE2000 colour-difference formula:
    implementation notes, supplementary test data, and mathematical observations".

    >>> round(ciede2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 4)
    2.0425
    """
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0

    delta_l = l2 - l1
    delta_c = c2p - c1p
    if c1p * c2p == 0:
        delta_h_angle = 0.0
    elif abs(h2p - h1p) <= 180:
        delta_h_angle = h2p - h1p
    elif h2p - h1p > 180:
        delta_h_angle = h2p - h1p - 360
    else:
        delta_h_angle = h2p - h1p + 360
    delta_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(delta_h_angle / 2))

    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_mean = (h1p + h2p + 360) / 2
    else:
        hp_mean = (h1p + h2p - 360) / 2

    t = (
        1
        - 0.17 * math.cos(math.radians(hp_mean - 30))
        + 0.24 * math.cos(math.radians(2 * hp_mean))
        + 0.32 * math.cos(math.radians(3 * hp_mean + 6))
        - 0.20 * math.cos(math.radians(4 * hp_mean - 63))
    )
    delta_theta = 30 * math.exp(-(((hp_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * delta_theta)) * r_c
    return math.sqrt(
        (delta_l / s_l) ** 2
        + (delta_c / s_c) ** 2
        + (delta_h / s_h) ** 2
        + r_t * (delta_c / s_c) * (delta_h / s_h)
    )


def perceived_lab(hex_colour: str, vision: str = "normal") -> Triple:
    """CIELAB of a ``"#RRGGBB"`` colour as seen with ``vision``."""
    return linear_to_lab(simulate(hex_to_linear(hex_colour), vision))


def colour_difference(first: str, second: str, *, vision: str = "normal") -> float:
    """CIEDE2000 difference between two ``"#RRGGBB"`` colours as seen with ``vision``."""
    return ciede2000(perceived_lab(first, vision), perceived_lab(second, vision))


def closest_pair(hex_colours: Sequence[str], *, vision: str = "normal") -> tuple[float, int, int]:
    """(difference, i, j) of the two colours of a set that look the most alike with ``vision``.

    >>> closest_pair(["#000000", "#FFFFFF", "#808080"])[1:]  # grey is nearer white than black
    (1, 2)
    """
    labs = [perceived_lab(h, vision) for h in hex_colours]
    return min((ciede2000(labs[i], labs[j]), i, j) for i, j in combinations(range(len(labs)), 2))
