"""Results and four players in words (issue 32, items 5 and 6): the banner of a rated match
lists each player's new rating and change, games end in plain sentences, and at tables of
three or four seats every name carries its seat's letter and colour, with the moves in a
column per seat."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games import selectors, services, timing
from games.engine.bots import choose
from games.models import Match
from ratings import tasks as rating_tasks
from tests.e2e.conftest import off_the_loop
from tests.e2e.playing import current_state, greedy, new_match, play_greedy, play_match

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 46  # greedy players: bob wins game 1, alice game 2 (tests/e2e/test_table.py)
DECIDED = "the rest of the board could no longer change the winner."


def rated_match(make_member, seed: int) -> tuple[Match, list]:
    members = [make_member("alice"), make_member("bob")]
    match = new_match("fast", members, seed=seed, clock="3+2", rated=True)
    return match, members


def rated_now(match: Match) -> dict:
    """The worker rates the match and the table hears it: the changes per seat."""
    off_the_loop(rating_tasks.rating_update, match_id=match.pk)
    off_the_loop(services.table_refresh, match_id=match.pk, now=timing.now())
    return {c["seat"]: c for c in selectors.table_state(match.pk)["match"]["rating_changes"]}


def expect_rating_items(page, changes: dict, signs: dict) -> None:
    """One item per player in the banner: name, new rating and the signed change."""
    items = page.locator("#result ul.rating-changes > li.rating-change")
    expect(items).to_have_count(2)
    for index, (letter, name) in enumerate((("A", "alice"), ("B", "bob"))):
        item = items.nth(index)
        expect(item).to_have_attribute("data-seat", letter)
        expect(item).to_have_text(f"{name} {changes[letter]['after']} ({signs[letter]})")
        expect(item.locator("a.member")).to_have_text(name)
        expect(item.locator(".rating-delta")).to_have_text(signs[letter])


def test_the_banner_of_a_rated_match_lists_each_players_new_rating(
    browser, site, login, make_member, screenshot
):
    match, (alice, bob) = rated_match(make_member, SEED)
    assert play_greedy(match, [alice, bob]).status == "between_games"  # bob won game 1
    for member in (alice, bob):
        off_the_loop(services.match_ready, match_id=match.pk, user=member, now=timing.now())
    play_greedy(match, [alice, bob], moves=2)
    off_the_loop(services.match_resign, match_id=match.pk, user=bob, now=timing.now())
    assert current_state(match).status == "finished"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    expect(page.locator("#game-results li")).to_have_text(
        [f"bob won game 1: {DECIDED}", "alice won game 2 by resignation."]
    )
    expect(page.locator("#result .result-text")).to_have_text("alice won the match: bob resigned.")
    expect(page.locator("#result .rating-change")).to_have_count(0)  # not rated yet

    changes = rated_now(match)
    won, lost = changes["A"]["change"], changes["B"]["change"]
    assert won > 0 > lost
    expect_rating_items(page, changes, {"A": f"+{won}", "B": f"\u2212{-lost}"})
    screenshot(page, "result-rated")
    assert not errors
    context.close()


def test_a_drawn_rated_match_changes_nobodys_rating(browser, site, login, make_member):
    match, members = rated_match(make_member, 1)  # greedy players: both games drawn
    state = play_match(match, members)
    assert state.status == "finished" and state.reason == "drawn"
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    drawn = "is drawn: the board is full and the best scores are equal."
    expect(page.locator("#game-results li")).to_have_text([f"Game 1 {drawn}", f"Game 2 {drawn}"])
    changes = rated_now(match)
    assert changes["A"]["change"] == changes["B"]["change"] == 0
    expect(page.locator("#result .result-text")).to_have_text(
        "The match is drawn: 1–1 in games and equal total scores."
    )
    expect_rating_items(page, changes, {"A": "\u00b10", "B": "\u00b10"})
    assert not errors
    page.close()


def test_games_won_by_resignation_and_on_time_say_so(browser, site, make_member):
    alice, bob = make_member("alice"), make_member("bob")
    match = new_match("fast", [alice, bob], seed=SEED, clock="3+2")
    page = browser.new_page()  # a visitor
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    play_greedy(match, [alice, bob], moves=4)
    off_the_loop(services.game_resign, match_id=match.pk, user=bob, now=timing.now())
    expect(page.locator("#game-end-result")).to_have_text("alice won game 1 by resignation.")
    for member in (alice, bob):
        off_the_loop(services.match_ready, match_id=match.pk, user=member, now=timing.now())
    play_greedy(match, [alice, bob], moves=2)
    # Game 2: bob is to move again, and his clock runs out long before ten minutes.
    assert current_state(match).current.position.to_move == 1
    later = timing.now() + timedelta(minutes=10)
    off_the_loop(services.match_tick, match_id=match.pk, now=later)
    assert current_state(match).status == "finished"
    expect(page.locator("#game-results li")).to_have_text(
        ["alice won game 1 by resignation.", "alice won game 2 on time."]
    )
    expect(page.locator("#result")).to_have_text("alice won the match: bob ran out of time.")
    assert not errors
    page.close()


def test_four_players_have_a_column_each_and_their_letters(browser, site, make_member, screenshot):
    members = [make_member(name) for name in ("alice", "bob", "carol", "dave")]
    match = new_match("four", members, seed=7)
    play_greedy(match, members, moves=6)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()  # a visitor: the moves can be stepped through
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    grid = page.locator('#moves table.move-table[data-game="1"]')
    expect(grid.locator("thead th")).to_have_count(4)
    expect(grid.locator("thead th .seat-letter")).to_have_text(["A", "B", "C", "D"])
    expect(grid.locator("thead th a.member")).to_have_text(["alice", "bob", "carol", "dave"])
    expect(grid.locator("thead th .seat-mark .swatch")).to_have_count(4)
    # A row per round: four moves, then alice's and bob's fifth and sixth.
    rows = grid.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td.move")).to_have_count(4)
    cells = rows.nth(1).locator("td.move")
    expect(cells).to_have_count(2)
    for column, (ply, letter) in enumerate(((5, "A"), (6, "B"))):
        cell = cells.nth(column)
        expect(cell).to_have_attribute("data-ply", str(ply))
        expect(cell).to_have_attribute("data-seat", letter)
        assert cell.evaluate("td => td.cellIndex") == column
    # The ply numbers jump to that move (replay.js) and mark it.
    page.locator('#moves .ply-jump[data-game="1"][data-ply="3"]').click()
    expect(page.locator('#table[data-replay-ply="3"]')).to_have_count(1)
    expect(page.locator('#moves td.move.current[data-game="1"][data-ply="3"]')).to_have_count(1)
    # The score table names each player with the seat's letter and colour.
    expect(page.locator("#match-score-body th .seat-mark .seat-letter")).to_have_text(
        ["A", "B", "C", "D"]
    )
    screenshot(page, "moves-four")

    # Everyone but alice leaves: the result and the game's end name the seats too.
    for member in members[1:]:
        off_the_loop(services.match_resign, match_id=match.pk, user=member, now=timing.now())
    expect(page.locator("#result .seat-letter")).to_have_text(["A", "B", "C", "D"])
    expect(page.locator("#result")).to_have_text(
        "A alice won the match: B bob and C carol and D dave resigned.", use_inner_text=True
    )
    expect(page.locator("#game-results li .seat-letter")).to_have_text(["A"])
    expect(page.locator("#game-results li")).to_have_text(
        "A alice won game 1: every other player was out of it.", use_inner_text=True
    )
    assert not errors
    context.close()


def test_three_computers_are_told_apart_by_their_seats(
    browser, site, login, make_member, screenshot
):
    alice = make_member("alice")
    match = new_match("four", [alice], bots={1: 2, 2: 2, 3: 2}, seed=3)
    # A round and a half: alice, the three computers (played here, as the worker would),
    # alice again; then B's computer is to move.
    for _ in range(5):
        state = current_state(match)
        position = state.current.position
        seat = position.to_move
        if seat == 0:
            off_the_loop(
                services.move_play,
                match_id=match.pk,
                user=alice,
                ply=state.current.ply,
                color=greedy(position),
                received_at=timing.now(),
            )
        else:
            off_the_loop(
                services.bot_move,
                match_id=match.pk,
                seat=seat,
                ply=state.current.ply,
                color=choose(position, 2),
                now=timing.now(),
            )
    assert current_state(match).current.position.to_move == 1
    assert Match.objects.get(pk=match.pk).status == "playing"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    computer = "Computer (level 2)"
    # The same name thrice, each with its own letter: in the score table, the move
    # list's columns and the status line.
    names = ["A alice", f"B {computer}", f"C {computer}", f"D {computer}"]
    expect(page.locator("#match-score-body th")).to_have_text(names, use_inner_text=True)
    expect(page.locator("#moves thead th")).to_have_text(names, use_inner_text=True)
    expect(page.locator("#moves thead th").nth(2)).to_have_attribute(
        "title", f"{computer} in seat C"
    )
    expect(page.locator("#status-line")).to_contain_text(
        f"B {computer} to move", use_inner_text=True
    )
    # Each mark's swatch is the colour its seat has now, as the sides above the board.
    for letter in "BCD":
        side = page.locator(f'.player[data-seat="{letter}"] .swatch')
        mark = page.locator(f'#match-score-body .seat-mark[data-seat="{letter}"] .swatch')
        expect(mark).to_have_attribute("class", side.get_attribute("class"))
    screenshot(page, "three-computers")
    assert not errors
    context.close()
