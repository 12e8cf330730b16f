"""The site's icons are inline SVG drawn by the site (games/templatetags/icons.py), never an
emoji that a system without the font shows as a box: no fire, medal, lightning or crown
character is left in the templates, the static files or the template tags, not even as
fallback text; each icon is in the page's sprite and draws from it."""

import doctest
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template

import games.templatetags.icons
from games.templatetags.icons import ICONS

ROOT = Path(settings.BASE_DIR)
# 🔥 🥇 🥈 🥉 ⚡ 👑, written by their code points so this file does not hold them either.
EMOJI = {0x1F525: "fire", 0x1F947: "gold", 0x1F948: "silver", 0x1F949: "bronze"}
EMOJI |= {0x26A1: "lightning", 0x1F451: "crown"}
# The characters themselves, or escaped as a script, a style sheet or HTML would write them.
ESCAPES = "|".join(
    rf"\\u\{{?0*{code:x}\}}?|\\U0*{code:x}|\\0*{code:x}\b|&#x0*{code:x};|&#{code};"
    for code in EMOJI
)
PATTERN = re.compile("[" + "".join(map(chr, EMOJI)) + "]|" + ESCAPES, re.IGNORECASE)


def searched() -> list[Path]:
    files = [p for top in ("templates", "static") for p in (ROOT / top).rglob("*") if p.is_file()]
    files += list(ROOT.glob("*/templatetags/*.py"))
    return files


def test_no_emoji_icon_is_left_in_templates_static_files_or_template_tags():
    files = searched()
    assert any(p.name == "_arena_line.html" for p in files)  # the search reaches them
    assert any(p.name == "panel.js" for p in files) and any(p.name == "site.css" for p in files)
    left = [
        f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}"
        for path in files
        if path.suffix in {".html", ".js", ".css", ".py", ".txt", ".svg", ".json"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in PATTERN.finditer(line)
    ]
    assert not left, left


def test_the_search_finds_each_character_and_its_escapes():
    for code in EMOJI:
        for text in (chr(code), f"\\u{code:04x}", f"\\U{code:08X}", f"&#{code};", f"&#x{code:X};"):
            if code > 0xFFFF and text.startswith("\\u"):
                text = f"\\u{{{code:x}}}"  # a script's code point escape
            assert PATTERN.search(f"x {text} y"), text
    assert not PATTERN.search("🙂 ✓ ★ \\u2713")


def render(text: str, **context) -> str:
    return Template("{% load icons %}" + text).render(Context(context))


def test_an_icon_draws_from_the_sprite_named_or_as_decoration():
    sprite = render("{% icon_sprite %}")
    assert set(re.findall(r'<symbol id="icon-([a-z]+)"', sprite)) == set(ICONS)
    assert {"fire", "berserk", "medal", "crown"} <= set(ICONS)
    assert 'aria-hidden="true"' in sprite.split(">", 1)[0]
    named = render('{% icon "fire" "on fire" %}')
    assert '<use href="#icon-fire"></use>' in named
    assert 'role="img" aria-label="on fire"' in named and "aria-hidden" not in named
    plain = render('{% icon "berserk" %}')
    assert 'aria-hidden="true"' in plain and "aria-label" not in plain
    # A label is text, never markup.
    assert 'aria-label="&lt;b&gt;"' in render('{% icon "medal" label %}', label="<b>")
    with pytest.raises(ValueError, match="no icon 'star'"):
        render('{% icon "star" %}')
    assert doctest.testmod(games.templatetags.icons).failed == 0


@pytest.mark.django_db
def test_every_page_holds_the_sprite_once(client):
    page = client.get("/").content.decode()
    assert page.count('id="icon-fire"') == 1
