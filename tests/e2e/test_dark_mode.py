"""Dark mode in Chromium (issue 32.8), measured on what the browser computes: a table page on
a device set to dark has a dark page and board, every cell's colour far from them, its marks
readable on their cells and every visible text readable on what is behind it; a member's
choice of light wins over the device; a visitor's choice in the footer holds from page to
page; a member's choice is saved through the preferences."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import Theme
from games import services, timing
from games.engine import PALETTE, VARIANTS
from games.engine.colour_science import colour_difference, contrast_ratio
from tests.e2e.conftest import off_the_loop

pytestmark = pytest.mark.django_db(transaction=True)

BOARD_DISTANCE = 20  # ΔE00 of every cell colour from the dark page and board
MARK_CONTRAST = 3.0  # WCAG 1.4.11: outlines and marks against the cell they are drawn on
VARIANT = "three"  # eight colours (every colour a board uses) on a hexagon with gaps

LIGHT_BG, DARK_BG = "#F6F5F2", "#121417"  # --bg of each theme (static/css/site.css)

# Every element with text of its own that a person can see (not inside the board's SVG,
# not faded by an opacity below 1, as inactive parts are): its text colour and the colour
# behind it, every translucent background on the way down composed over the one below.
VISIBLE_TEXTS = """() => {
  const rgba = (css) => {
    const m = css.match(/rgba?\\(([^)]*)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, below) => [0, 1, 2].map((i) => top[3] * top[i] + (1 - top[3]) * below[i]);
  const found = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg, option, script, style, template")) continue;
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;
    const chain = [];
    let faded = false;
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (parseFloat(style.opacity) < 1) faded = true;
      chain.push(rgba(style.backgroundColor));
    }
    if (faded) continue;
    let behind = [255, 255, 255];
    for (const layer of chain.reverse()) behind = over(layer, behind);
    const style = getComputedStyle(el);
    found.push({
      text: el.textContent.trim().slice(0, 40),
      tag: el.tagName.toLowerCase() + "." + String(el.className).trim().split(/\\s+/).join("."),
      color: over(rgba(style.color), behind),
      behind: behind,
      size: parseFloat(style.fontSize),
      bold: parseInt(style.fontWeight, 10) >= 700,
    });
  }
  return found;
}"""


def hex_of(css: str | list) -> str:
    """``"#RRGGBB"`` of a computed ``rgb(…)`` (opaque) or of three channels."""
    if isinstance(css, str):
        channels = [float(x) for x in re.findall(r"[\d.]+", css)]
        assert len(channels) == 3 or channels[3] == 1, f"translucent: {css}"
        css = channels[:3]
    return "#" + "".join(f"{round(c):02X}" for c in css)


def text_misfits(page) -> list[tuple]:
    """The visible texts below WCAG AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold)."""
    misfits = []
    for item in page.evaluate(VISIBLE_TEXTS):
        large = item["size"] >= 24 or (item["bold"] and item["size"] >= 18.66)
        ratio = contrast_ratio(hex_of(item["color"]), hex_of(item["behind"]))
        if ratio < (3 if large else 4.5):
            misfits.append((item["tag"], item["text"], round(ratio, 2)))
    return misfits


def page_background(page) -> str:
    return hex_of(page.evaluate("getComputedStyle(document.documentElement).backgroundColor"))


@pytest.fixture
def table_url(site, make_member):
    members = [make_member(name) for name in ("alice", "bob", "carol")]
    match = off_the_loop(
        services.match_create,
        variant=VARIANT,
        members=members,
        now=timing.now(),
        clock="5+3",
        seed=7,
    )
    return members, f"{site.url}/match/{match.pk}/"


def test_a_table_on_a_dark_device_is_dark_and_readable(browser, login, table_url, screenshot):
    members, url = table_url
    context = browser.new_context(color_scheme="dark", viewport={"width": 1280, "height": 800})
    login(context, members[0])
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#status-line")).to_contain_text("Your turn")
    expect(page.locator("#table[data-fitted]")).to_have_count(1)
    assert page.evaluate("document.documentElement.dataset.theme") is None  # the device's

    page_bg = page_background(page)
    board_bg = hex_of(
        page.locator("#board-wrap").evaluate("e => getComputedStyle(e).backgroundColor")
    )
    assert page_bg == DARK_BG
    for background in (page_bg, board_bg):
        assert contrast_ratio(background, "#000000") < 1.5, background  # dark, not light

    # Every colour of the variant is on the board, in its palette colour, far from both.
    cells = page.eval_on_selector_all(
        "#board-wrap .cells polygon",
        """cells => cells.map(c => ({cls: c.getAttribute("class"),
            fill: getComputedStyle(c).fill, stroke: getComputedStyle(c).stroke,
            width: parseFloat(getComputedStyle(c).strokeWidth)}))""",
    )
    fills = {}
    for cell in cells:
        colour = re.search(r"\bc(\d)\b", cell["cls"])
        if colour:
            fills.setdefault(int(colour[1]), hex_of(cell["fill"]))
    assert set(fills) == set(range(1, VARIANTS[VARIANT].colors + 1))
    for colour, fill in fills.items():
        assert fill == PALETTE[colour].hex  # the rules pages name these colours: unchanged
        for background in (page_bg, board_bg):
            distance = colour_difference(fill, background)
            assert distance >= BOARD_DISTANCE, (PALETTE[colour].key, background, distance)

    # Territories keep an outline readable on their colour.
    owned = [cell for cell in cells if " owned " in f" {cell['cls']} "]
    assert owned
    for cell in owned:
        assert cell["width"] > 0
        ratio = contrast_ratio(hex_of(cell["stroke"]), hex_of(cell["fill"]))
        assert ratio >= MARK_CONTRAST, (cell["cls"], ratio)

    # A preview (pointing at a colour), a replayed move's gain and a hint: on free cells of
    # every colour, each mark is drawn and reads on its cell.
    marks = page.evaluate(
        """() => {
          const seen = [];
          for (const kind of ["hl", "gain", "hint"]) {
            for (let colour = 1; colour <= 9; colour++) {
              const free = `#board-wrap .cells polygon.c${colour}:not(.owned)`;
              const cell = document.querySelector(free);
              if (!cell) continue;
              const before = cell.getAttribute("class");
              cell.classList.add(kind);
              const style = getComputedStyle(cell);
              seen.push({kind, colour, stroke: style.stroke, fill: style.fill,
                         width: parseFloat(style.strokeWidth), dashes: style.strokeDasharray});
              cell.setAttribute("class", before);
            }
          }
          return seen;
        }"""
    )
    assert {(m["kind"], m["colour"]) for m in marks} >= {
        (kind, colour) for kind in ("hl", "gain", "hint") for colour in fills
    }
    for mark in marks:
        assert mark["width"] > 0 and mark["dashes"] != "none", mark
        ratio = contrast_ratio(hex_of(mark["stroke"]), hex_of(mark["fill"]))
        assert ratio >= MARK_CONTRAST, (mark, ratio)
    hint = next(m for m in marks if m["kind"] == "hint")
    preview = next(m for m in marks if m["kind"] == "hl" and m["colour"] == hint["colour"])
    assert hint["dashes"] != preview["dashes"]  # a hint is told from a preview

    # And the real preview: pointing at a colour marks the cells it would take.
    page.locator('#colours .colour[aria-disabled="false"]').first.hover()
    expect(page.locator("#board-wrap .cells polygon.hl").first).to_be_attached()
    for stroke, fill in page.eval_on_selector_all(
        "#board-wrap .cells polygon.hl",
        "cells => cells.map(c => [getComputedStyle(c).stroke, getComputedStyle(c).fill])",
    ):
        assert contrast_ratio(hex_of(stroke), hex_of(fill)) >= MARK_CONTRAST
    page.mouse.move(0, 0)

    # Every text the page shows: the panels, the sides, the clocks, links, buttons, footer.
    assert page.locator(".panel").count() and page.locator(".clock").count()
    assert not text_misfits(page)
    screenshot(page, "dark-table")

    # The same page on a light device is light, and as readable.
    light = browser.new_context(color_scheme="light", viewport={"width": 1280, "height": 800})
    login(light, members[1])
    page = light.new_page()
    page.goto(url)
    expect(page.locator("#table[data-fitted]")).to_have_count(1)
    assert page_background(page) == LIGHT_BG
    assert not text_misfits(page)
    light.close()
    context.close()


def test_a_member_who_chose_light_sees_light_on_a_dark_device(browser, site, login, make_member):
    member = make_member("lena", theme=Theme.LIGHT)
    context = browser.new_context(color_scheme="dark")
    login(context, member)
    page = context.new_page()
    page.goto(f"{site.url}/")
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert page_background(page) == LIGHT_BG
    assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "light"
    assert not text_misfits(page)
    context.close()


def test_a_visitors_choice_holds_from_page_to_page(browser, site, screenshot):
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto(f"{site.url}/rules/")
    assert page_background(page) == LIGHT_BG
    with page.expect_navigation():
        page.locator(".theme-switch").get_by_role("button", name="Dark").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.url == f"{site.url}/rules/"  # back on the page it was chosen on
    expect(page.locator('.theme-switch button[value="dark"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    for path in ("/", "/leaderboards/", "/accounts/login/", "/rules/walls/"):
        page.goto(f"{site.url}{path}")
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert page_background(page) == DARK_BG, path
        assert not text_misfits(page), path
    screenshot(page, "dark-rules-walls")
    with page.expect_navigation():  # the form's answer, loaded with its stylesheet
        page.locator(".theme-switch").get_by_role("button", name="Follow the device").click()
    expect(page.locator("html")).not_to_have_attribute("data-theme", re.compile(".*"))
    assert page_background(page) == LIGHT_BG  # the device is light
    context.close()


def test_a_members_choice_is_saved_through_the_preferences(
    browser, site, login, make_member, screenshot
):
    member = make_member("mira")
    context = browser.new_context(color_scheme="light")
    login(context, member)
    page = context.new_page()
    page.goto(f"{site.url}/account/preferences/")
    assert page_background(page) == LIGHT_BG
    expect(page.get_by_label("Follow the device")).to_be_checked()
    page.get_by_label("Dark").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    expect(page.locator(".message.success")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page_background(page) == DARK_BG
    expect(page.get_by_label("Dark")).to_be_checked()
    assert not text_misfits(page)
    screenshot(page, "dark-preferences")
    member.refresh_from_db()
    assert member.theme == Theme.DARK
    context.close()
