"""The table fits the screen (issue 13.3): for a player whose turn it is, the turn line,
every clock, the whole board and the whole colour bar are inside the viewport at page load
(after the page scrolled its play area into view by itself) on desktops, portrait phones
and landscape phones, for every board shape and seat count."""

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.engine import VARIANTS
from tests.e2e.conftest import ARTIFACTS, off_the_loop

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN = ("classic", "big", "rhombus", "three", "four")
SIZES = ((1280, 800), (1366, 768), (390, 844), (375, 667), (844, 390), (667, 375))
PARTS = ("#status-line", ".clock", "#board-wrap svg", "#colours")


def inside(box: dict, width: int, height: int) -> bool:
    slack = 0.5  # sub-pixel rounding
    return (
        box["x"] >= -slack
        and box["y"] >= -slack
        and box["x"] + box["width"] <= width + slack
        and box["y"] + box["height"] <= height + slack
    )


def test_turn_line_clocks_board_and_colours_fit_every_screen(browser, site, login, make_member):
    members = [make_member(name) for name in ("alice", "bob", "carol", "dave")]

    def fresh_table(variant: str) -> str:
        # A new match for every look: a match nobody moves in is aborted after its
        # first-move wait, and looking at every size takes longer than that.
        match = off_the_loop(
            services.match_create,
            variant=variant,
            members=members[: VARIANTS[variant].seats],
            now=timing.now(),
            clock="5+3",
            seed=7,
        )
        return f"{site.url}/match/{match.pk}/"

    ARTIFACTS.mkdir(exist_ok=True)
    misfits = []
    for width, height in SIZES:
        phone = width < 960
        context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone
        )
        login(context, members[0])
        page = context.new_page()
        for variant in SHOWN:
            # Off the table first: a page of the member's follows the "started" notice of
            # the next match by itself, which would race the test's own navigation.
            page.goto("about:blank")
            page.goto(fresh_table(variant))
            expect(page.locator("#status-line")).to_contain_text("Your turn")
            expect(page.locator('#colours .colour[aria-disabled="false"]').first).to_be_attached()
            expect(page.locator("#table[data-fitted]")).to_have_count(1)
            expect(page.locator('.player[data-seat="A"] .offline-badge')).to_have_count(0)
            clocks = page.locator(".clock")
            expect(clocks).to_have_count(VARIANTS[variant].seats)
            for selector in PARTS:
                for index, box in enumerate(
                    page.locator(selector).nth(i).bounding_box()
                    for i in range(page.locator(selector).count())
                ):
                    if box is None or not inside(box, width, height):
                        misfits.append((variant, width, height, selector, index, box))
            board = page.locator("#board-wrap svg").bounding_box()
            # Not only inside: the board takes most of what the screen can give it.
            assert min(board["width"], board["height"]) >= 0.45 * min(width, height), (
                variant,
                width,
                height,
                board,
            )
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(ARTIFACTS / f"layout-{variant}-{width}x{height}.png"))
        context.close()
    assert not misfits, misfits
