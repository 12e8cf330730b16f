"""The palette: names that say what people see, colours that stay apart with normal colour
vision and under simulated protanopia, deuteranopia and tritanopia, and readable text on each.

The colour science is checked first against published figures (Sharma's CIEDE2000 test pairs,
the WCAG contrast definition), then used to hold the palette to the minimums in docs/palette.md.
"""

import doctest
import math

import pytest

import games.engine.colour_science
from games.engine import PALETTE, VARIANTS
from games.engine.colour_science import (
    MACHADO_2009,
    VISIONS,
    ciede2000,
    closest_pair,
    colour_difference,
    contrast_ratio,
    hex_to_linear,
    perceived_lab,
    simulate,
)
from games.engine.palette import DARK_INK, LIGHT_INK

# Sharma, Wu & Dalal (2005), table 1: L1 a1 b1, L2 a2 b2, published CIEDE2000. The rows chosen
# catch the usual slips: hue means across 0/360 (9-16), a grey against a colour, dark colours.
SHARMA_PAIRS = [
    (1, (50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    (7, (50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    (9, (50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    (11, (50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    (13, (50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    (15, (50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    (16, (50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    (17, (50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    (18, (50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    (19, (50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    (20, (50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    (25, (60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    (34, (2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]

# The minimum CIEDE2000 distance between any two of a variant's k colours, per vision.
# Variants use 6, 7 or 8 colours; the ninth exists for completeness. Measured figures are in
# docs/palette.md.
MINIMUMS = {
    6: {"normal": 25, "protanopia": 12, "deuteranopia": 12, "tritanopia": 12},
    7: {"normal": 25, "protanopia": 12, "deuteranopia": 12, "tritanopia": 12},
    8: {"normal": 25, "protanopia": 12, "deuteranopia": 12, "tritanopia": 12},
    9: {"normal": 24, "protanopia": 12, "deuteranopia": 12, "tritanopia": 12},
}

# CSS named colours (CSS Color 4) grouped by what people call them. Each palette colour must be
# nearer a colour of its own family than any other: the old "red" (#B3510F) was nearest sienna,
# the old "orange" (#A8792A) dark goldenrod and the old "yellow" (#9F960B) olive.
NAMED = {
    "red": ["#FF0000", "#DC143C", "#B22222", "#8B0000"],  # red crimson firebrick darkred
    "orange": ["#FFA500", "#FF8C00"],  # orange darkorange
    "yellow": ["#FFFF00", "#FFD700"],  # yellow gold
    "green": ["#008000", "#228B22", "#2E8B57", "#3CB371", "#32CD32"],
    "sky": ["#87CEEB", "#00BFFF", "#87CEFA"],  # skyblue deepskyblue lightskyblue
    "blue": ["#0000FF", "#0000CD", "#4169E1", "#000080", "#00008B"],
    "pink": ["#FFC0CB", "#FF69B4", "#FFB6C1", "#DB7093"],  # pink hotpink lightpink palevioletred
    "purple": ["#800080", "#9370DB", "#663399", "#9932CC", "#8A2BE2"],
    "grey": ["#808080", "#A9A9A9", "#696969"],  # grey darkgrey dimgrey
    # families no palette colour may be taken for
    "brown": ["#A52A2A", "#8B4513", "#A0522D", "#D2691E", "#CD853F", "#B8860B"],
    "olive": ["#808000", "#6B8E23", "#BDB76B"],  # olive olivedrab darkkhaki
    "teal": ["#008080", "#008B8B", "#20B2AA"],  # teal darkcyan lightseagreen
}


def test_colour_science_docstring_examples():
    result = doctest.testmod(games.engine.colour_science)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(("row", "first", "second", "published"), SHARMA_PAIRS)
def test_ciede2000_matches_sharmas_test_data(row, first, second, published):
    assert ciede2000(first, second) == pytest.approx(published, abs=1e-4)
    assert ciede2000(second, first) == pytest.approx(published, abs=1e-4)


def test_contrast_follows_the_wcag_definition():
    assert contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast_ratio("#FFFFFF", "#000000") == pytest.approx(21.0)
    assert contrast_ratio("#3F9960", "#3F9960") == pytest.approx(1.0)
    # the darkest grey that passes 4.5:1 on white, and the one just lighter that fails
    assert contrast_ratio("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.005)
    assert contrast_ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.005)


def test_srgb_and_lab_conversions():
    assert hex_to_linear("#000000") == (0.0, 0.0, 0.0)
    assert hex_to_linear("#808080")[0] == pytest.approx(0.2158605, abs=1e-6)
    white = perceived_lab("#FFFFFF")
    assert white == pytest.approx((100.0, 0.0, 0.0), abs=1e-3)
    red = perceived_lab("#FF0000")  # the sRGB red primary in CIELAB (D65)
    assert red == pytest.approx((53.24, 80.09, 67.20), abs=0.01)
    with pytest.raises(ValueError):
        hex_to_linear("red")


def test_machado_simulations_keep_greys_and_merge_the_confused_colours():
    for name, matrix in MACHADO_2009.items():
        for row in matrix:
            assert sum(row) == pytest.approx(1.0, abs=1e-3), name  # white stays white
        assert simulate((0.2, 0.2, 0.2), name) == pytest.approx((0.2, 0.2, 0.2), abs=1e-3)
    assert simulate((1.0, 0.0, 0.0), "protanopia") == pytest.approx((0.152286, 0.114503, 0.0))
    # red and green become hard to tell apart for red-green dichromats, not for tritanopes
    normal = colour_difference("#FF0000", "#00A000")
    for vision in ("protanopia", "deuteranopia"):
        assert colour_difference("#FF0000", "#00A000", vision=vision) < normal / 2
    # blue and green become hard to tell apart for tritanopes
    assert (
        colour_difference("#00A0A0", "#40A040", vision="tritanopia")
        < colour_difference("#00A0A0", "#40A040") / 2
    )
    with pytest.raises(ValueError):
        simulate((0.5, 0.5, 0.5), "achromatopsia")


def test_the_palette_has_nine_keyed_colours_with_distinct_symbols():
    assert list(PALETTE) == list(range(1, 10))
    keys = [entry.key for entry in PALETTE.values()]
    assert keys == ["red", "orange", "yellow", "green", "sky", "blue", "pink", "purple", "grey"]
    symbols = [entry.symbol for entry in PALETTE.values()]
    assert len(set(symbols)) == 9 and all(len(symbol) == 1 for symbol in symbols)
    hexes = [entry.hex for entry in PALETTE.values()]
    assert len(set(hexes)) == 9
    assert all(len(h) == 7 and h[0] == "#" and h == h.upper() for h in hexes)
    assert max(variant.colors for variant in VARIANTS.values()) <= 8


@pytest.mark.parametrize("index", list(PALETTE))
def test_each_colour_is_nearest_a_colour_of_its_own_name(index):
    entry = PALETTE[index]
    lab = perceived_lab(entry.hex)
    nearest = {
        family: min(ciede2000(lab, perceived_lab(named)) for named in colours)
        for family, colours in NAMED.items()
    }
    others = min(distance for family, distance in nearest.items() if family != entry.key)
    assert nearest[entry.key] < others, (entry, nearest)


def test_light_and_dark_colours_are_where_their_names_put_them():
    lightness = {entry.key: perceived_lab(entry.hex)[0] for entry in PALETTE.values()}
    chroma = {entry.key: math.hypot(*perceived_lab(entry.hex)[1:]) for entry in PALETTE.values()}
    assert lightness["yellow"] > 85  # a yellow is light; a darker one reads as olive
    assert lightness["yellow"] > lightness["orange"] > lightness["red"]
    assert lightness["sky"] > lightness["blue"] + 25
    assert lightness["pink"] > lightness["red"] + 20
    assert chroma["grey"] < 1
    assert min(c for key, c in chroma.items() if key != "grey") > 35


@pytest.mark.parametrize("index", list(PALETTE))
def test_each_colour_has_an_ink_readable_on_it(index):
    entry = PALETTE[index]
    assert entry.ink in (DARK_INK, LIGHT_INK)
    assert contrast_ratio(entry.ink, entry.hex) >= 4.5, entry
    # the ink is the better of the two: dark on light colours, light on dark ones
    other = LIGHT_INK if entry.ink == DARK_INK else DARK_INK
    assert contrast_ratio(entry.ink, entry.hex) > contrast_ratio(other, entry.hex)


def test_light_colours_get_dark_ink():
    assert PALETTE[3].ink == DARK_INK  # yellow
    assert PALETTE[6].ink == LIGHT_INK  # blue


@pytest.mark.parametrize("k", sorted(MINIMUMS))
@pytest.mark.parametrize("vision", VISIONS)
def test_the_first_k_colours_stay_apart(k, vision):
    hexes = [PALETTE[index].hex for index in range(1, k + 1)]
    distance, i, j = closest_pair(hexes, vision=vision)
    pair = (PALETTE[i + 1].key, PALETTE[j + 1].key)
    assert distance >= MINIMUMS[k][vision], (k, vision, pair, round(distance, 2))
