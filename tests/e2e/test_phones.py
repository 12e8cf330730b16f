"""Phones: at a fresh table of every variant, on portrait and landscape phones, the turn
line, every clock, the whole board and every colour button are on the screen as the page
opens, without the reader scrolling; a spectator, who has no colour to press, gets the
board as large as the screen below the clocks allows; at a table of two, both names show
whole, and at a table of four (on a desktop too) a name has most of its side's line and
"disconnected" shows as a whole word; the site header keeps to its rows on a phone (the
search box beside the brand, the menu on one line, in every language down to 320 px); and
no page of the site is wider than a 375 px phone (a table too wide for it scrolls inside
its own box), and the lists of the lobby, the arenas, a member's matches and the bots fit
a 360 px phone in every language, each row stacked."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.engine import VARIANTS
from lobby import services as lobby
from tests.e2e.conftest import ARTIFACTS, off_the_loop
from tests.e2e.playing import caught_up, new_match, play_greedy, play_match

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = ((375, 667), (390, 844), (844, 390), (667, 375))
LANGUAGES = ("bg", "el", "pt", "nl", "es")
# Every variant; practice on its largest board, with its hint and takeback bar.
PRACTICE_BOARD = "big"
# Names as long as the site allows, in the alphabets whose words run longest.
NAMES = ("alice", "Αλεξάνδρα_Παπαδοπούλου", "Богомила_Кръстева", "dave")
PARTS = {
    "turn line": "#status-line",
    "clock": ".clock",
    "board": "#board-wrap svg",
    "colour": "#colours .colour",
}
# Each part's box on the screen, and the screen: what the reader sees without scrolling.
BOXES = """parts => ({
  width: innerWidth, height: innerHeight, scrollY: scrollY,
  boxes: Object.fromEntries(Object.entries(parts).map(([name, selector]) => [name,
    [...document.querySelectorAll(selector)].map(node => {
      const r = node.getBoundingClientRect();
      return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
    })])),
})"""


def phone_context(browser, width: int, height: int, **options):
    return browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=True, **options
    )


@pytest.fixture(scope="module")
def phones(browser):
    """One browser context per screen size of ``PHONES``, opened before the module's first
    test and kept for its tests (each logs its own member in)."""
    contexts = {size: phone_context(browser, *size) for size in PHONES}
    yield lambda width, height: contexts[width, height]
    for context in contexts.values():
        context.close()


def fresh_table(variant: str, members):
    if variant == "practice":
        return off_the_loop(
            services.practice_start,
            member=members[0],
            board=PRACTICE_BOARD,
            level=1,
            member_starts=True,
            clock="5+3",
            now=timing.now(),
        )
    return new_match(variant, members[: VARIANTS[variant].seats], clock="5+3", seed=7)


def opened(page, url: str) -> None:
    """Open a table where it is the member's turn and wait for its first drawn state."""
    page.goto(url)
    expect(page.locator("#status-line")).to_contain_text("Your turn")
    expect(page.locator('#colours .colour[aria-disabled="false"]').first).to_be_attached()
    caught_up(page)
    expect(page.locator('.player[data-seat="A"] .offline-badge')).to_have_count(0)


def misfits(seen: dict) -> list:
    """The parts not wholly on the screen (or not shown at all)."""
    slack = 0.5  # sub-pixel rounding
    return [
        (name, index, box)
        for name, boxes in seen["boxes"].items()
        for index, box in enumerate(boxes)
        if box["bottom"] - box["top"] <= 0
        or box["right"] - box["left"] <= 0
        or box["top"] < -slack
        or box["left"] < -slack
        or box["bottom"] > seen["height"] + slack
        or box["right"] > seen["width"] + slack
    ]


@pytest.mark.parametrize("variant", tuple(VARIANTS))
@pytest.mark.parametrize("phone", PHONES, ids=lambda size: "{}x{}".format(*size))
def test_the_play_area_is_on_the_screen_without_scrolling(
    phones, site, login, make_member, phone, variant
):
    width, height = phone
    members = [make_member(name) for name in NAMES]
    match = fresh_table(variant, members)
    definition = VARIANTS[match.variant]
    context = phones(width, height)
    login(context, members[0])
    page = context.new_page()
    try:
        opened(page, f"{site.url}/match/{match.pk}/")
        seen = page.evaluate(BOXES, PARTS)
    finally:
        page.close()
    assert (seen["width"], seen["height"]) == (width, height)
    assert len(seen["boxes"]["clock"]) == definition.seats
    assert len(seen["boxes"]["colour"]) == definition.colors
    assert len(seen["boxes"]["board"]) == len(seen["boxes"]["turn line"]) == 1
    assert seen["scrollY"] == 0
    assert not misfits(seen), misfits(seen)
    # Not bought with a postage stamp: the board keeps a fair share of the screen.
    board = seen["boxes"]["board"][0]
    shorter = min(board["right"] - board["left"], board["bottom"] - board["top"])
    assert shorter >= 0.45 * min(width, height), board


# Each name's box and whether its text shows whole (no ellipsis).
NAMES_SHOWN = """() => [...document.querySelectorAll("#sides .player-name")].map(n => ({
  text: n.textContent.trim(), whole: n.scrollWidth <= n.clientWidth,
}))"""


@pytest.mark.parametrize("phone", ((375, 667), (390, 844)), ids=lambda size: "{}x{}".format(*size))
def test_at_a_two_seat_table_on_a_phone_both_names_show_whole(
    browser, phones, site, login, make_member, phone
):
    # Two sides one above the other, each a line wide: a name of 17 letters shows whole
    # beside its seat letter, rating and clock (side by side it showed three letters).
    width, height = phone
    members = [make_member("alice"), make_member("Богомила_Кръстева")]
    match = fresh_table("classic", members)
    context, other = phones(width, height), phone_context(browser, width, height)
    login(context, members[0])
    login(other, members[1])
    page, opponent = context.new_page(), other.new_page()
    try:
        opponent.goto(f"{site.url}/match/{match.pk}/")  # she is at the table too
        opened(page, f"{site.url}/match/{match.pk}/")
        expect(page.locator(".offline-badge")).to_have_count(0)
        shown = page.evaluate(NAMES_SHOWN)
        seen = page.evaluate(BOXES, PARTS)
    finally:
        page.close()
        other.close()
    assert [name["text"] for name in shown] == ["alice", "Богомила_Кръстева"]
    assert all(name["whole"] for name in shown), shown
    assert seen["scrollY"] == 0 and not misfits(seen), misfits(seen)


# Each side's width, its names' and its "disconnected" badges' boxes and whether their text
# shows whole.
SIDES_SHOWN = """() => [...document.querySelectorAll("#sides .side")].map(side => ({
  width: side.clientWidth,
  names: [...side.querySelectorAll(".player-name")].map(n => ({
    width: n.clientWidth, whole: n.scrollWidth <= n.clientWidth})),
  badges: [...side.querySelectorAll(".offline-badge")].map(n => ({
    height: n.getBoundingClientRect().height, whole: n.scrollWidth <= n.clientWidth,
    line: parseFloat(getComputedStyle(n).lineHeight),
  })),
}))"""


@pytest.mark.parametrize(
    "screen",
    ((375, 667), (360, 780), (390, 844), (844, 390), (1280, 800)),
    ids=lambda size: "{}x{}".format(*size),
)
def test_at_a_four_seat_table_names_get_their_line_and_badges_whole_words(
    browser, site, login, make_member, screen
):
    # Two by two on a phone, a side is some 175 px wide; three across on a landscape
    # phone and four across on a desktop, as narrow. "disconnected" takes the side's second
    # line whole (it broke mid-word in the gap between name and clock); on a screen at
    # least 700 px tall the rating and the clock go to that line too, and the name has
    # most of the first line (it had two to four letters); a shorter screen keeps its
    # board's height instead.
    width, height = screen
    members = [make_member(name) for name in NAMES]
    match = fresh_table("four", members)
    if width > 1000:  # a desktop
        context = browser.new_context(viewport={"width": width, "height": height})
    else:
        context = phone_context(browser, width, height)
    login(context, members[0])
    page = context.new_page()
    try:
        opened(page, f"{site.url}/match/{match.pk}/")
        sides = page.evaluate(SIDES_SHOWN)
        seen = page.evaluate(BOXES, PARTS)
    finally:
        context.close()
    assert len(sides) == 4 and all(len(side["names"]) == 1 for side in sides)
    badges = [badge for side in sides for badge in side["badges"]]
    assert len(badges) == 3, sides  # alice's three opponents are not at the table
    assert all(badge["whole"] and badge["height"] < 1.5 * badge["line"] for badge in badges), badges
    if height >= 700:
        assert all(side["names"][0]["width"] >= 0.5 * side["width"] for side in sides), sides
    assert sides[0]["names"][0]["whole"], sides  # "alice", beside her turn mark
    assert seen["scrollY"] == 0 and not misfits(seen), misfits(seen)


@pytest.mark.parametrize("phone", ((375, 667), (390, 844)), ids=lambda size: "{}x{}".format(*size))
def test_a_spectator_on_a_phone_gets_the_board_as_wide_as_the_screen(
    phones, site, make_member, phone
):
    # A spectator has no colour to press: the board takes the screen below the clocks (up
    # to the page's width) and stays whole on it; the colours may scroll below it.
    width, height = phone
    members = [make_member(name) for name in NAMES[:2]]
    match = fresh_table("classic", members)
    context = phones(width, height)
    context.clear_cookies()  # a visitor
    page = context.new_page()
    try:
        page.goto(f"{site.url}/match/{match.pk}/")
        expect(page.locator("#status-line")).to_contain_text("You are watching")
        caught_up(page)
        seen = page.evaluate(BOXES, {"board": PARTS["board"], "wrap": "#board-wrap"})
    finally:
        page.close()
    (board,), (wrap,) = seen["boxes"]["board"], seen["boxes"]["wrap"]
    assert seen["scrollY"] == 0
    assert not misfits({**seen, "boxes": {"board": [board]}}), board
    # As large as the screen allows: it reaches the page's width or the screen's bottom.
    wide = board["right"] - board["left"] >= 0.95 * (wrap["right"] - wrap["left"])
    assert wide or board["bottom"] >= height - 16, (board, wrap)
    assert board["right"] - board["left"] >= 0.8 * width, board


# The header's parts and the rows they make: parts whose boxes overlap vertically share one.
HEADER_ROWS = """() => {
  const box = s => document.querySelector(s).getBoundingClientRect();
  const parts = [...document.querySelector(".site-header").children]
    .map(n => n.getBoundingClientRect()).filter(r => r.height > 0);
  const rows = [];
  for (const r of parts.sort((a, b) => a.top - b.top)) {
    const row = rows.find(row => r.top < row.bottom && r.bottom > row.top);
    if (row) row.bottom = Math.max(row.bottom, r.bottom);
    else rows.push({top: r.top, bottom: r.bottom});
  }
  const link = box(".main-nav a");
  return {rows: rows.length, brand: box(".brand"), search: box(".member-search input"),
          nav: box(".main-nav").height, link: link.height};
}"""


@pytest.mark.parametrize(
    ("phone", "rows"),
    (((375, 667), 3), ((390, 844), 3), ((844, 390), 1)),
    ids=lambda value: "{}x{}".format(*value) if isinstance(value, tuple) else str(value),
)
def test_the_header_on_a_phone_keeps_its_rows_with_the_search_box(
    browser, site, login, make_member, phone, rows
):
    """No taller than before it had a search box and TV: on a portrait phone the box
    shares the brand's row, no higher than the logo, the menu with TV is one line, and the
    language and the member are the third row; a landscape phone has one row (a long name
    ends in an ellipsis). The box still finds members."""
    width, height = phone
    member = make_member("Αλεξάνδρα_Παπαδοπούλου")
    make_member("alfred")
    context = phone_context(browser, width, height)
    login(context, member)
    page = context.new_page()
    page.goto(f"{site.url}/rules/")
    seen = page.evaluate(HEADER_ROWS)
    assert seen["rows"] == rows, seen
    assert seen["nav"] < 1.5 * seen["link"], seen  # one line of links
    brand, search = seen["brand"], seen["search"]
    assert search["top"] < brand["bottom"] and search["bottom"] > brand["top"], seen  # its row
    # No higher than what else is in its row: the logo, or the menu's links beside it.
    tallest = seen["link"] if rows == 1 else brand["height"]
    assert search["height"] <= tallest + 0.5, seen
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    expect(page.locator(".user-menu summary")).to_have_text(member.username)
    box = page.locator("header").get_by_role("searchbox", name="Find a member")
    expect(box).to_be_visible()
    box.fill("alf")
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"/members/\?q=alf$"))
    expect(page.locator("#member-results a.member")).to_have_text(["alfred"])
    context.close()


# The menu's height and its first link's (one row: about the same), the tallest of the
# visitor's "log in" and "sign up" buttons, and the page's width.
MENU_AND_WIDTH = """() => ({
  nav: document.querySelector(".main-nav").getBoundingClientRect().height,
  link: document.querySelector(".main-nav a").getBoundingClientRect().height,
  button: Math.max(...[...document.querySelectorAll(".header-end .button")].map(
    n => n.getBoundingClientRect().height)),
  width: document.documentElement.scrollWidth,
})"""


@pytest.mark.parametrize("width", (320, 360))
def test_the_menu_keeps_to_one_row_and_pages_to_the_screen_in_every_language(browser, site, width):
    """Greek's "Πίνακες κατάταξης" wrapped the menu onto a second row on every phone (the
    menu says "Κατάταξη"), every language's did on a 320 px phone; the members page's search
    box made the page 376 px wide in Greek, and on a 320 px phone the facts table of a
    variant's rules 327 px in Dutch ("obstakelvakjes" beside a 9 rem column) and the
    visitor's "Iniciar sesión" took two lines."""
    context = phone_context(browser, width, 640)
    page = context.new_page()
    seen = {}
    for language in ("en", *LANGUAGES):
        for path in ("/members/", "/rules/walls/"):
            page.goto(f"{site.url}{'' if language == 'en' else '/' + language}{path}")
            seen[language, path] = page.evaluate(MENU_AND_WIDTH)
    context.close()
    rows = {
        key: s
        for key, s in seen.items()
        if s["nav"] >= 1.5 * s["link"] or s["button"] >= 1.5 * s["link"]
    }
    wide = {key: s for key, s in seen.items() if s["width"] > width}
    assert not rows and not wide, (rows, wide)


@pytest.mark.parametrize("theme", ("light", "dark"))
def test_the_table_on_a_phone_as_the_readme_shows_it(browser, site, login, make_member, theme):
    """The README's pictures of a table on phones (copied to docs/screenshots/ from
    test-artifacts/): a Classic match a few moves in, both players at the table."""
    members = [make_member(name) for name in ("alice", "bob")]
    match = new_match("classic", members, clock="5+3", seed=7)
    play_greedy(match, members, moves=6)
    ARTIFACTS.mkdir(exist_ok=True)
    contexts = []
    for width, height in ((375, 667), (390, 844)):
        pages = []
        for member in reversed(members):  # bob first: alice's page shows him connected
            context = phone_context(browser, width, height, color_scheme=theme)
            contexts.append(context)
            login(context, member)
            pages.append(context.new_page())
            pages[-1].goto(f"{site.url}/match/{match.pk}/")
        page = pages[-1]
        expect(page.locator("#status-line")).to_contain_text("Your turn")
        caught_up(page, match)
        expect(page.locator(".offline-badge")).to_have_count(0)
        seen = page.evaluate(BOXES, PARTS)
        assert seen["scrollY"] == 0 and not misfits(seen), misfits(seen)
        page.screenshot(path=str(ARTIFACTS / f"table-{theme}-{width}x{height}.png"))
    for context in contexts:
        context.close()


@pytest.fixture
def a_season(make_member):
    """Members with a history: finished matches (rated and not), an arena with standings,
    a table waiting, a match in play."""
    alice, bob, carol = (make_member(name) for name in ("alice", "Богомила_Кръстева", "carol"))
    finished = []
    for variant, rated, pair in (
        ("fast", True, (alice, bob)),
        ("hex", True, (bob, alice)),
        ("classic", False, (alice, carol)),
    ):
        match = new_match(variant, list(pair), clock="3+2", rated=rated, seed=11)
        play_match(match, list(pair))
        finished.append(match)
    arena = off_the_loop(
        lobby.arena_create,
        name="Αρένα της Κυριακής με πολύ μεγάλο όνομα",
        variant="fast",
        clock="3+2",
        starts_at=timing.now() - timedelta(minutes=1),
        minutes=60,
    )
    off_the_loop(lobby.arenas_advance, now=timing.now())
    for member in (alice, carol):
        off_the_loop(lobby.arena_join, arena_id=arena.pk, member=member, now=timing.now())
    off_the_loop(
        lobby.arena_create,
        name="Hourly Fast",
        variant="fast",
        clock="1+1",
        starts_at=timing.now() + timedelta(hours=1),
        minutes=30,
    )
    new_match("pairs", [alice, bob, make_member("dave"), make_member("erin")], clock="5+3")
    waiting = off_the_loop(
        lobby.table_open,
        host=carol,
        variant="four",
        clock="5+3",
        single_game=False,
        rated=True,
        private=False,
        now=timing.now(),
    )
    return {
        "member": alice,
        "arena": arena,
        "finished": finished[0],
        "opponent": bob,
        "waiting": waiting,
    }


def test_no_page_is_wider_than_a_phone(browser, site, login, a_season):
    member, arena = a_season["member"], a_season["arena"]
    # The pages whose width depends on what they list, in every language (words run
    # longer in some); the others in English.
    listing = [
        "/",
        "/arenas/",
        f"/arenas/{arena.pk}/",
        f"/@/{member.username}/",
        f"/@/{a_season['opponent'].username}/",
        f"/match/{a_season['finished'].pk}/",
    ]
    waiting = f"/match/{a_season['waiting'].pk}/"  # a table waiting for players
    common = [
        *(f"/{language}{path}" for language in LANGUAGES for path in listing),
        *listing,
        waiting,
        "/rules/",
        *(f"/rules/{topic}/" for topic in VARIANTS),
        "/el/rules/big/",
        "/leaderboards/",
        *(f"/leaderboard/{scale}/" for scale in ("fast", "classic", "hex", "four", "pairs")),
    ]
    as_member = [
        *common,
        "/account/preferences/",
        "/account/delete/",
        "/accounts/email/",
        "/accounts/password/change/",
    ]
    as_visitor = [*common, "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    wide = []
    for logged_in, paths in ((True, as_member), (False, as_visitor)):
        context = phone_context(browser, 375, 667)
        if logged_in:
            login(context, member)
        page = context.new_page()
        for path in paths:
            response = page.goto(site.url + path)
            assert response.ok, (path, response.status)
            if "/match/" in path and path != waiting:
                caught_up(page)  # the replay drawn with its names and figures
            # A phone widens its layout viewport to a page wider than the screen: both
            # must stay at the screen's 375 px.
            width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            if width > 375 or inner > 375:
                wide.append((path, logged_in, width, inner))
        context.close()
    assert not wide, "\n".join(map(str, wide))


def test_the_lists_fit_a_phone_in_every_language(browser, site, login, a_season, make_member):
    """The lobby's lists, the arenas', a member's matches and the bots stack each row on a
    phone: in no language does a list reach beyond the screen's edge (its own box would
    scroll sideways), so a waiting table's Join, an arena's players and a match's Open
    are in reach without scrolling."""
    robo = make_member("robo")
    robo.is_bot = True
    robo.save(update_fields=["is_bot"])
    member = a_season["member"]
    # The opponent's page gives the member's record against them above the list.
    opponent = f"/@/{a_season['opponent'].username}/"
    paths = ["/", "/arenas/", f"/@/{member.username}/", opponent, "/bots/"]
    context = phone_context(browser, 360, 740)
    login(context, member)
    page = context.new_page()
    beyond = []
    for language in ("", *LANGUAGES):
        for path in paths:
            page.goto(f"{site.url}{'/' + language if language else ''}{path}")
            lists = page.evaluate(
                """() => [...document.querySelectorAll('table.list.stack')].map(t => ({
                  name: t.id || t.className, over: t.scrollWidth - t.parentElement.clientWidth,
                  right: Math.max(...[...t.querySelectorAll('td')].map(
                    c => c.getBoundingClientRect().right)),
                }))"""
            )
            assert lists, (language, path)  # each of these pages has its list
            beyond += [(language, path, x) for x in lists if x["over"] > 1 or x["right"] > 360]
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 360:  # nor anything else on the page
                beyond.append((language, path, width))
    assert not beyond, "\n".join(map(str, beyond))
    # The list's button itself, in the language whose words run longest.
    page.goto(f"{site.url}/el/")
    join = page.locator("#waiting-list .row-action").get_by_role("button", name="Συμμετοχή")
    box = join.bounding_box()
    assert box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    # Stacked, it is still a table to a screen reader: its header row is read out.
    waiting = page.locator("#waiting-list")
    expect(page.get_by_role("table").and_(waiting)).to_have_count(1)
    expect(waiting.get_by_role("columnheader", name="Ρολόι")).to_have_count(1)
    expect(waiting.get_by_role("row")).to_have_count(2)  # the header and the one table
    context.close()
