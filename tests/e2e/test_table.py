"""The table page in Chromium: two members play a whole Fast match over the websocket
(one with the mouse and keys, the other on a touch phone with taps and keys) while a
visitor watches; then they chat and take a rematch."""

import json
import re

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.board_svg import render_board
from games.colors import COLOR_NAMES
from games.engine import PALETTE, Position
from games.engine.match import MatchState
from games.models import Match
from tests.e2e.conftest import off_the_loop

pytestmark = pytest.mark.django_db(transaction=True)

# With this board, both greedy in game 1 (B wins it) and a careless B in game 2 (A wins
# it), the match is 1–1 and A wins on total score; A's first move can gain 5 cells.
SEED = 46


# Whether the Ready button is wholly inside the end-of-game card as shown (not scrolled
# out of it) and on the screen.
READY_IN_SIGHT = """() => {
  const card = document.querySelector("#game-end .game-end-card").getBoundingClientRect();
  const ready = document.querySelector("#ready").getBoundingClientRect();
  return ready.height > 0 && ready.top >= card.top - 0.5 && ready.bottom <= card.bottom + 0.5
    && ready.bottom <= innerHeight + 0.5;
}"""


def current_state(match: Match) -> MatchState:
    match.refresh_from_db()
    return MatchState.from_dict(match.state)


def legal(position: Position) -> list[int]:
    return [c for c, reason in position.legal_colors().items() if reason is None]


def greedy(position: Position) -> int:
    return max(legal(position), key=lambda c: (len(position.preview(c)), -c))


def careless(position: Position) -> int:
    return min(legal(position), key=lambda c: (len(position.preview(c)), c))


def cell_classes(page) -> list[str]:
    return page.eval_on_selector_all(
        ".board .cells polygon", "cells => cells.map(c => c.getAttribute('class'))"
    )


def button(page, colour: int):
    return page.locator(f'#colours .colour[data-color="{colour}"]')


def at(page, game: int, ply: int):
    return page.locator(f'#table[data-game="{game}"][data-ply="{ply}"]')


def test_a_whole_fast_match_at_the_table(browser, site, login, make_member, screenshot):
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create,
        variant="fast",
        members=[alice, bob],
        now=timing.now(),
        seed=SEED,
        clock="5+3",
    )
    url = f"{site.url}/match/{match.pk}/"
    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    phone = browser.new_context(viewport={"width": 360, "height": 780}, has_touch=True)
    watcher = browser.new_context(viewport={"width": 1280, "height": 900})
    login(desk, alice)
    login(phone, bob)
    a, b, v = desk.new_page(), phone.new_page(), watcher.new_page()
    errors = []
    for page in (a, b, v):
        page.on("pageerror", lambda error: errors.append(error))
        page.goto(url)
    expect(a.locator("#spectators")).to_have_text("1 spectator")
    expect(a.locator(".offline-badge")).to_have_count(0)
    expect(a.locator('[data-clock-seat="A"]')).to_have_text("5:00")
    expect(a.get_by_role("link", name="Rules: Fast 8×7")).to_have_attribute("href", "/rules/fast/")
    assert b.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling
    assert button(b, 1).bounding_box()["height"] >= 44  # big enough to tap

    # Pointing at a colour highlights exactly the cells it would take.
    position = current_state(match).current.position
    colour = greedy(position)
    gain = len(position.preview(colour))
    assert gain > 1
    button(a, colour).hover()
    expect(a.locator(".board polygon.hl")).to_have_count(gain)
    tip = a.locator("#colour-tip")
    expect(tip).to_be_visible()
    expect(tip).to_have_text(re.compile(rf"^\w[\w ]*: {gain} cells?$"))
    expect(button(a, colour)).to_have_attribute("data-tooltip", tip.inner_text())
    screenshot(a, "table-desk-preview")

    # Forbidden colours are dimmed and say why.
    own, theirs = position.seat_colors
    for forbidden, why in ((own, "your current colour"), (theirs, "bob's current colour")):
        forbidden_button = button(a, forbidden)
        expect(forbidden_button).to_have_attribute("aria-disabled", "true")
        expect(forbidden_button).to_have_class(re.compile(r"\bforbidden\b"))
        assert float(forbidden_button.evaluate("b => getComputedStyle(b).opacity")) < 0.5
        forbidden_button.hover()
        expect(tip).to_have_text(re.compile(f": {why}$"))
        expect(a.locator(".board polygon.hl")).to_have_count(0)
    expect(button(v, colour)).to_have_attribute("aria-disabled", "true")  # a spectator

    # Colour symbols: shown at once and saved for the member.
    symbol = a.locator(".board .sym").first
    expect(symbol).to_be_hidden()
    a.locator("#options summary").click()
    with a.expect_response(re.compile(r"/account/preference/$")) as response:
        a.get_by_label("Colour symbols").check()
    assert response.value.status == 204
    expect(symbol).to_be_visible()
    alice.refresh_from_db()
    assert alice.color_symbols is True
    a.locator("#options summary").click()

    pages = [a, b]
    turns = [0, 0]
    while True:
        state = current_state(match)
        if match.status == Match.Status.FINISHED:
            break
        if match.status == Match.Status.BETWEEN_GAMES:
            for page in (a, b, v):
                expect(page.locator("#table")).to_have_attribute("data-status", "between_games")
            expect(b.locator("#game-results")).to_contain_text("bob won game 1")
            # On the phone the card is taller than the board: its result scrolls, and the
            # Ready button stays whole in sight.
            assert b.evaluate(READY_IN_SIGHT), "the Ready button is cut off"
            screenshot(b, "table-phone-between-games")
            a.get_by_role("button", name="Ready for the next game").click()
            expect(b.locator("#ready-info")).to_have_text("Ready: alice")
            b.get_by_role("button", name="Ready for the next game").click()
            for page in (a, b, v):
                expect(at(page, 2, 0)).to_have_count(1)
            continue
        game = state.current
        position = game.position
        seat = position.to_move
        colour = greedy(position) if seat == 0 or game.number == 1 else careless(position)
        page, turn = pages[seat], turns[seat]
        turns[seat] += 1
        if turn % 2:
            page.keyboard.press(str(colour))
        elif seat == 0:
            button(page, colour).click()
        else:  # touch: the first tap previews, the second plays
            button(page, colour).tap()
            expect(button(page, colour)).to_have_class(re.compile(r"\barmed\b"))
            expect(page.locator(".board polygon.hl")).to_have_count(len(position.preview(colour)))
            expect(at(page, game.number, game.ply)).to_have_count(1)
            button(page, colour).tap()
        for watching in (a, b, v):
            expect(at(watching, game.number, game.ply + 1)).to_have_count(1)
        said = f"{['alice', 'bob'][seat]} played {COLOR_NAMES[PALETTE[colour].key]}, "
        said += f"+{len(position.preview(colour))}"
        expect(v.locator("#announcer")).to_have_text(re.compile("^" + re.escape(said)))
        if game.number == 1 and game.ply == 6:
            screenshot(b, "table-phone-game-1")
            screenshot(v, "table-spectator-game-1")
    assert min(turns) >= 4  # both players used both ways of choosing

    # The same result and the same final position for the players and the visitor.
    assert match.result_reason == "totals"
    banner = a.locator("#result")
    expect(banner).to_have_text(
        re.compile(
            r"^alice won the match: 1–1 in games, then the higher total score over both games"
            r" \(\d+–\d+\)\.$"
        )
    )
    text = banner.inner_text()
    expect(b.locator("#result")).to_have_text(text)
    expect(v.locator("#result")).to_have_text(text)
    finished = current_state(match).current
    final = finished.position
    expected = re.findall(r'<polygon class="([^"]*)"', render_board(final))
    assert cell_classes(a) == expected
    assert cell_classes(b) == expected
    assert cell_classes(v) == expected
    expect(v.locator("#game-results li")).to_have_text(
        [re.compile(r"^bob won game 1"), re.compile(r"^alice won game 2")]
    )
    # The last move, the game's and the match's results read out as sentences, each with
    # one full stop (a result's text has its own).
    said = v.locator("#announcer").inner_text()
    assert re.search(r"played \w+, \+\d+\. alice won game 2\b.*\. alice won the match", said), said
    assert ".." not in said and said.endswith(").")
    expect(v.get_by_role("link", name="Log in to chat")).to_be_visible()
    expect(v.locator("#resign-match")).to_be_hidden()

    # Chat is escaped text; players see each other's messages.
    a.locator("#chat-text").fill("gg <b>well played</b>")
    a.locator("#chat-text").press("Enter")
    for page in (b, v):
        expect(page.locator(".chat-message .chat-text").last).to_have_text("gg <b>well played</b>")
    screenshot(a, "table-desk-finished")
    screenshot(b, "table-phone-finished")
    screenshot(v, "table-spectator-finished")

    # A rematch takes every client to the new match, in the language each one reads.
    v.goto(f"{site.url}/es/match/{match.pk}/")
    expect(v.locator("html")).to_have_attribute("lang", "es")
    expect(at(v, 2, finished.ply)).to_have_count(1)
    a.get_by_role("button", name="Rematch").click()
    expect(b.locator("#rematch-info")).to_have_text("alice offered a rematch.")
    expect(a.locator("#rematch")).to_have_text("Rematch offered; waiting for your opponent")
    b.get_by_role("button", name="Accept rematch").click()
    expect(a).not_to_have_url(url)
    match.refresh_from_db()
    assert match.rematch_id is not None
    for page in (a, b):
        expect(page).to_have_url(f"{site.url}/match/{match.rematch_id}/")
    expect(v).to_have_url(f"{site.url}/es/match/{match.rematch_id}/")
    assert not errors
    for context in (desk, phone, watcher):
        context.close()


class Relay:
    """Sits on the page's websocket (Playwright's ``route_web_socket``): forwards every
    frame, can drop the server's next ``state``, and can cut the connection."""

    def __init__(self, page):
        self.routes = []
        self.drop_next_state = False
        self.sent: list[dict] = []
        page.route_web_socket(re.compile(r"/ws/table/\d+/(\?.*)?$"), self.open)

    def open(self, route) -> None:
        server = route.connect_to_server()
        self.routes.append((route, server))

        def from_page(message) -> None:
            self.sent.append(json.loads(message))
            server.send(message)

        def from_server(message) -> None:
            if self.drop_next_state and json.loads(message)["type"] == "state":
                self.drop_next_state = False  # lost on the way, as the channel layer may
                return
            route.send(message)

        route.on_message(from_page)
        server.on_message(from_server)

    def cut(self) -> None:
        route, server = self.routes[-1]
        route.close()
        server.close()


def test_the_table_catches_up_after_lost_states_and_reconnects(browser, site, login, make_member):
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=SEED
    )
    url = f"{site.url}/match/{match.pk}/"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    relay = Relay(page)
    page.goto(url)
    expect(page.locator('.player[data-seat="A"] .offline-badge')).to_have_count(0)

    def play(user, ply):
        position = current_state(match).current.position
        off_the_loop(
            services.move_play,
            match_id=match.pk,
            user=user,
            ply=ply,
            color=greedy(position),
            received_at=timing.now(),
        )

    # Sound on: saved for the member; it beeps when her turn comes (no errors either way).
    page.locator("#options summary").click()
    with page.expect_response(re.compile(r"/account/preference/$")):
        page.get_by_label("Sound on my turn").check()
    alice.refresh_from_db()
    assert alice.sound is True
    page.locator("#options summary").click()

    # The state of Alice's move elsewhere is lost: her page still offers her the move,
    # the server answers "stale", and the page fetches the whole state.
    seen = current_state(match).current.position
    relay.drop_next_state = True
    play(alice, 0)
    button(page, greedy(seen)).click()
    expect(page.locator("#table-error")).to_have_text(
        "The board changed meanwhile: the game is at move 1."
    )
    expect(at(page, 1, 1)).to_have_count(1)
    assert {"type": "sync"} in relay.sent

    # A gap in the versions: the page shows the newer state and asks for a sync.
    relay.drop_next_state = True
    play(bob, 1)
    spectator = browser.new_page()
    spectator.goto(url)  # one more socket: a new version after the lost one
    expect(at(page, 1, 2)).to_have_count(1)
    expect(page.locator("#spectators")).to_have_text("1 spectator")

    # The connection drops: "Reconnecting…", then the table goes on.
    relay.cut()
    expect(page.locator("#reconnecting")).to_be_visible()
    expect(page.locator("#reconnecting")).to_be_hidden()
    assert len(relay.routes) == 2
    page.keyboard.press(str(greedy(current_state(match).current.position)))
    expect(at(page, 1, 3)).to_have_count(1)
    expect(at(spectator, 1, 3)).to_have_count(1)
    assert relay.sent.count({"type": "sync"}) == 2  # after the stale move and after the gap
    assert not errors
    context.close()
    spectator.close()


def test_names_are_joined_in_their_order(browser, site, make_member):
    """Pairs and three or four seats name several members ("alice and carol")."""
    members = [make_member(name) for name in ("ann", "ben", "cat", "dan")]
    match = off_the_loop(
        services.match_create, variant="four", members=members, now=timing.now(), seed=1
    )
    for language, joined in (("", "ann and ben and cat"), ("/es", "ann y ben y cat")):
        page = browser.new_page()
        page.goto(f"{site.url}{language}/match/{match.pk}/")
        listed = page.evaluate(
            """async () => {
                const { readTexts } = await import("/static/js/texts.js");
                const { listOf } = readTexts("table-texts");
                return [listOf(["ann"]), listOf(["ann", "ben"]), listOf(["ann", "ben", "cat"])];
            }"""
        )
        assert listed[0] == "ann"
        assert listed[2] == joined
        assert listed[1] == joined.rsplit(" ", 2)[0]
        page.close()


def test_the_tab_title_says_your_turn_only_on_your_turn(browser, site, login, make_member):
    """The browser tab's title starts with "Your turn" while it is the member's turn at
    the table, and goes back to the table's name when it is not (for the member who
    waits, and for a visitor); the same in another language."""
    alice, bob = make_member("alice"), make_member("bob")
    bob.language = "es"
    bob.save(update_fields=["language"])
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=SEED
    )
    url = f"{site.url}/match/{match.pk}/"
    pages = {}
    for member, path in ((alice, url), (bob, f"{site.url}/es/match/{match.pk}/"), (None, url)):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        if member is not None:
            login(context, member)
        page = context.new_page()
        page.goto(path)
        pages[member.username if member else "visitor"] = page
    a, b, v = pages["alice"], pages["bob"], pages["visitor"]
    base = re.compile(r"^Fast 8×7 · alice – bob · VOG Filler$")
    expect(a).to_have_title(re.compile(r"^Your turn\b"))
    expect(b).to_have_title(re.compile(r"^Rápido 8×7 · alice – bob"))
    expect(v).to_have_title(base)

    position = current_state(match).current.position
    button(a, greedy(position)).click()
    expect(a).to_have_title(base)  # bob's turn now
    expect(b).to_have_title(re.compile(r"^Te toca\b"))
    expect(v).to_have_title(base)
    position = current_state(match).current.position
    button(b, greedy(position)).click()
    expect(a).to_have_title(re.compile(r"^Your turn\b"))
    expect(b).to_have_title(re.compile(r"^Rápido 8×7 · alice – bob"))
