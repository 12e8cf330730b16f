"""The dark theme's colours (issue 32.8), read from static/css/site.css: every board colour
stays far from the dark backgrounds, and every text colour reads on the backgrounds it is
drawn on, in both themes.

Distances are CIEDE2000 and contrasts WCAG 2, from ``games.engine.colour_science`` (checked
against Sharma's published CIEDE2000 pairs in tests/engine/test_palette.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from games.engine import PALETTE, VARIANTS
from games.engine.colour_science import colour_difference, contrast_ratio

SITE_CSS = Path(settings.BASE_DIR) / "static" / "css" / "site.css"

#: how far (ΔE00) every board colour stays from a dark background the board is drawn on
BOARD_DISTANCE = 20
#: obstacles are cells, not holes: they stay apart from the board's background too
OBSTACLE_DISTANCE = 10
#: WCAG AA for normal text; every pair below is normal text (none is large and bold)
AA_TEXT = 4.5

#: (text, background, where): every text colour on every background it is drawn on
TEXT_PAIRS = [
    ("ink", "bg", "body text"),
    ("ink", "panel", "cards, panels, the table's sides"),
    ("ink", "field", "form fields"),
    ("ink", "chip", "replay steps"),
    ("ink", "tint", "menus' hover, the move shown, notices"),
    ("ink", "error-bg", "error notices"),
    ("ink", "success-bg", "success notices, a won match's banner"),
    ("ink", "warn-bg", "the reconnecting line"),
    ("muted", "bg", "muted text, the footer"),
    ("muted", "panel", "panel headings, figures' labels"),
    ("muted", "chip", "badges, idle clocks"),
    ("muted", "tint", "the move shown's number"),
    ("accent", "bg", "links"),
    ("accent", "panel", "links in panels, the player's own row"),
    ("accent", "tint", "links in notices"),
    ("accent-ink", "accent", "buttons"),
    ("accent-ink", "danger", "danger buttons, a low running clock"),
    ("accent-ink", "ok", "a done button"),
    ("on-ink", "ink", "a running clock, tooltips, the chosen theme"),
    ("danger", "bg", "form errors"),
    ("danger", "panel", "chat errors, a side behind"),
    ("danger", "error-bg", "the table's error, offline badges"),
    ("ok", "bg", "a won match in a member's list"),
    ("ok", "panel", "a side ahead, a won game"),
]


def _declarations(block: str) -> dict[str, str]:
    return {
        name: value.strip()
        for name, value in re.findall(r"--([\w-]+)\s*:\s*([^;]+);", block, flags=re.S)
    }


def _block(css: str, selector: str) -> str:
    """The body of the first rule with exactly this selector (no nested braces inside)."""
    match = re.search(re.escape(selector) + r"\s*\{([^{}]*)\}", css)
    assert match, f"no rule {selector!r} in site.css"
    return match.group(1)


def theme_variables(css: str) -> dict[str, dict[str, str]]:
    """The custom properties of each theme as site.css sets them: ``light`` from ``:root``,
    ``dark`` from ``:root[data-theme="dark"]`` over the light ones, and ``device dark`` from
    the ``prefers-color-scheme: dark`` block over the light ones."""
    light = _declarations(_block(css, ":root"))
    media = re.search(
        r"@media \(prefers-color-scheme: dark\)\s*\{\s*"
        r':root:not\(\[data-theme="light"\]\)\s*\{([^{}]*)\}\s*\}',
        css,
    )
    assert media, "no dark block for devices set to dark in site.css"
    return {
        "light": light,
        "dark": {**light, **_declarations(_block(css, ':root[data-theme="dark"]'))},
        "device dark": {**light, **_declarations(media.group(1))},
    }


def _colour(variables: dict[str, str], name: str) -> str:
    value = variables[name]
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", value), f"--{name} is {value!r}, not #RRGGBB"
    return value


@pytest.fixture(scope="module")
def themes() -> dict[str, dict[str, str]]:
    return theme_variables(SITE_CSS.read_text())


def board_colours() -> dict[str, str]:
    """Every colour a board of any variant is drawn in: its first k colours of the palette."""
    used = {c for variant in VARIANTS.values() for c in range(1, variant.colors + 1)}
    assert used <= set(PALETTE), "a variant uses a colour the palette does not have"
    return {PALETTE[c].key: PALETTE[c].hex for c in sorted(used)}


def test_both_dark_blocks_set_the_same_colours(themes):
    """A device set to dark and a member who chose dark see the same theme, and the dark
    theme sets every colour the light one does (none stays light by being forgotten)."""
    assert themes["dark"] == themes["device dark"]
    dark = _declarations(_block(SITE_CSS.read_text(), ':root[data-theme="dark"]'))
    colours = {name for name, value in themes["light"].items() if value.startswith("#")}
    assert colours <= set(dark), colours - set(dark)
    assert all(themes["dark"][name] != themes["light"][name] for name in ("bg", "panel", "ink"))


def test_the_theme_tells_form_controls():
    css = SITE_CSS.read_text()
    assert "color-scheme: light dark" in _block(css, ":root")
    assert "color-scheme: dark" in _block(css, ':root[data-theme="dark"]')
    assert "color-scheme: light" in _block(css, ':root[data-theme="light"]')


@pytest.mark.parametrize("background", ["bg", "panel"])
def test_every_board_colour_stands_out_on_the_dark_backgrounds(themes, background):
    """Boards sit on the page (rules diagrams) and on panels (the table, the lobby's cards)."""
    behind = _colour(themes["dark"], background)
    distances = {
        key: round(colour_difference(hex_colour, behind), 1)
        for key, hex_colour in board_colours().items()
    }
    assert min(distances.values()) >= BOARD_DISTANCE, distances


def test_obstacles_stay_cells_on_the_dark_board(themes):
    dark = themes["dark"]
    for background in ("bg", "panel"):
        distance = colour_difference(_colour(dark, "board-obstacle"), _colour(dark, background))
        assert distance >= OBSTACLE_DISTANCE, (background, distance)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("text", "background", "where"), TEXT_PAIRS)
def test_text_reads_on_its_background(themes, theme, text, background, where):
    variables = themes[theme]
    ratio = contrast_ratio(_colour(variables, text), _colour(variables, background))
    assert ratio >= AA_TEXT, f"{where}: --{text} on --{background} is {ratio:.2f}:1 ({theme})"


def test_the_board_draws_marks_in_each_colours_ink():
    """Previews, replayed gains and hints are drawn in ``--cell-ink``: the colour's ink,
    which reads on the colour (tests/engine/test_palette.py) whatever the theme."""
    from games.board_svg import palette_css

    css = palette_css()
    for index, entry in PALETTE.items():
        assert f".board .c{index}{{fill:{entry.hex};--cell-ink:{entry.ink}}}" in css
