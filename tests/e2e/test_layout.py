"""The table fits the screen: for a player whose turn it is, the turn line, every clock,
the whole board and the whole colour bar are inside the viewport once the page has drawn
its first state on desktops, portrait phones and landscape phones, for every board shape
and seat count (tests/e2e/test_phones.py: every variant on phones, without scrolling); on
a wide screen the board sits in the middle; long names end in an ellipsis instead of
breaking."""

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.engine import VARIANTS
from tests.e2e.conftest import ARTIFACTS, off_the_loop
from tests.e2e.playing import caught_up

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN = ("classic", "big", "rhombus", "three", "four")
SIZES = (
    (1280, 800),
    (1366, 768),
    (1920, 1080),
    (390, 844),
    (375, 667),
    (844, 390),
    (667, 375),
)
# A name's box is one line high: it ends in an ellipsis rather than wrapping.
ONE_LINE = """n => {
  const style = getComputedStyle(n);
  const line = parseFloat(style.lineHeight) || 1.3 * parseFloat(style.fontSize);
  return n.getBoundingClientRect().height < 1.6 * line;
}"""
# The on-screen width of an owned cell's outline: its stroke in board units times the
# board's scale.
OUTLINE_PX = """() => {
  const svg = document.querySelector("#board-wrap svg");
  const cell = svg.querySelector(".cells polygon.owned");
  return parseFloat(getComputedStyle(cell).strokeWidth) * svg.getScreenCTM().a;
}"""
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
    # Greek and Bulgarian names as long as the site allows break nowhere.
    names = ("alice", "Αλεξάνδρα_Παπαδοπούλου", "Богомила_Кръстева", "dave")
    members = [make_member(name) for name in names]

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
            caught_up(page)  # drawn and laid out
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
            if width >= 1500:  # the board in the middle of a wide screen
                centre = board["x"] + board["width"] / 2
                assert abs(centre - width / 2) <= 0.02 * width, (variant, width, board)
            # Territory stays outlined however small the cells: at least 2 px on screen.
            outline = page.evaluate(OUTLINE_PX)
            assert outline >= 2, (variant, width, outline)
            for name in page.locator(".player-name").all():
                # One line each: an ellipsis, never a word broken over two lines.
                assert name.evaluate(ONE_LINE), (variant, width, name.inner_text())
            page.screenshot(path=str(ARTIFACTS / f"layout-{variant}-{width}x{height}.png"))
        context.close()
    assert not misfits, misfits


@pytest.mark.parametrize("width", (1024, 1280))
def test_the_match_score_table_gives_the_names_the_width(browser, site, login, make_member, width):
    """In Greek at 1024 px the score table's "Παρτίδα 1", "Παρτίδα 2", "Βαθμοί" and "Σύνολο"
    headings took all but a letter of each name ("Α…"). The two games stand under one
    heading ("Παρτίδες"), each column headed by its number and named in full for screen
    readers and as its title."""
    members = [make_member(name) for name in ("Αλεξάνδρα_Παπαδοπούλου", "Богомила_Кръстева")]
    match = off_the_loop(
        services.match_create,
        variant="classic",
        members=members,
        now=timing.now(),
        clock="5+3",
        seed=7,
    )
    context = browser.new_context(viewport={"width": width, "height": 768}, locale="el")
    login(context, members[0])
    page = context.new_page()
    page.goto(f"{site.url}/el/match/{match.pk}/")
    expect(page.locator("#match-score-body th[scope=row]")).to_have_count(2)
    table = page.locator("#match-score").bounding_box()
    names = [cell.bounding_box() for cell in page.locator("#match-score-body th").all()]
    assert all(name["width"] >= table["width"] / 3 for name in names), (names, table)
    expect(page.locator("#match-score thead th.games")).to_have_text("Παρτίδες")
    numbers = page.locator("#match-score thead th.game-number")
    expect(numbers).to_have_text(["1Παρτίδα 1", "2Παρτίδα 2"])  # the number, the hidden name
    assert [numbers.nth(i).get_attribute("title") for i in (0, 1)] == ["Παρτίδα 1", "Παρτίδα 2"]
    context.close()
