"""Replays (issue 14.2): a finished match's page steps through both games with the arrow
keys, the buttons and the slider, draws each position, marks the cells each move took,
and copies the shown position's FPN; a spectator or a player of a running match steps
back while the live states keep arriving, and returns to live."""

import re

import pytest
from playwright.sync_api import expect

from games import services, timing
from tests.e2e.conftest import off_the_loop
from tests.e2e.playing import (
    after_moves,
    cell_classes,
    current_state,
    drawn,
    play_greedy,
    play_match,
)

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 46


def shown(page, game: int, ply: int):
    return page.locator(f'#table[data-replay-game="{game}"][data-replay-ply="{ply}"]')


def test_a_finished_fast_match_step_by_step(browser, site, login, make_member, screenshot):
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=SEED
    )
    state = play_match(match, [alice, bob])
    assert state.status == "finished"
    last = state.games[1]

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")

    # It opens at the end of game 2: the final position, nothing marked.
    expect(shown(page, 2, last.ply)).to_have_count(1)
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#colours")).to_be_hidden()
    assert cell_classes(page) == drawn(last.position)
    expect(page.locator(".board polygon.gain")).to_have_count(0)

    # Game 1 from its start, with the keys.
    page.get_by_role("button", name="Game 1", exact=True).click()
    expect(shown(page, 1, state.games[0].ply)).to_have_count(1)
    page.keyboard.press("Home")
    expect(shown(page, 1, 0)).to_have_count(1)
    expect(page.locator("#replay-info")).to_have_text("Game 1: the start")
    assert cell_classes(page) == drawn(state.games[0].start)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(shown(page, 1, 3)).to_have_count(1)
    third = after_moves(state, 1, 3)
    assert cell_classes(page) == drawn(third)
    page.keyboard.press("ArrowLeft")
    expect(shown(page, 1, 2)).to_have_count(1)

    # Then the slider, to ply 5: the position, its scores, the cells the move took.
    page.locator("#replay-slider").fill("5")
    expect(shown(page, 1, 5)).to_have_count(1)
    fifth = after_moves(state, 1, 5)
    assert cell_classes(page) == drawn(fifth)
    before = after_moves(state, 1, 4)
    mover = before.to_move
    gained = fifth.territory(mover) - before.territory(mover)
    expect(page.locator(".board polygon.gain")).to_have_count(len(gained))
    expect(page.locator("#replay-info")).to_have_text(
        re.compile(rf"^Move 5 of {state.games[0].ply} · (alice|bob) played \w+, \+{len(gained)}$")
    )
    expect(page.locator("#replay-scores")).to_have_text(
        re.compile(rf"alice\D*{fifth.scores[0]}\D*bob\D*{fifth.scores[1]}")
    )
    expect(page.locator('#moves .move.current[data-game="1"][data-ply="5"]')).to_have_count(1)
    expect(page.locator("#replay-scores a.member").first).to_have_attribute("href", "/@/alice/")

    page.get_by_role("button", name="Copy position").click()
    expect(page.locator("#replay-copied")).to_have_text("Position copied")
    assert page.evaluate("navigator.clipboard.readText()") == fifth.to_text()
    screenshot(page, "replay-fast-desk")

    # The moves list jumps too; past the end of game 1 the replay goes on into game 2.
    page.locator('#moves .ply-jump[data-game="1"][data-ply="1"]').click()
    expect(shown(page, 1, 1)).to_have_count(1)
    page.keyboard.press("End")
    expect(shown(page, 1, state.games[0].ply)).to_have_count(1)
    page.keyboard.press("ArrowRight")
    expect(shown(page, 2, 0)).to_have_count(1)
    assert cell_classes(page) == drawn(state.games[1].start)
    assert not errors
    context.close()


def test_a_four_player_match_on_a_phone(browser, site, login, make_member, screenshot):
    members = [make_member(name) for name in ("alice", "bob", "carol", "dave")]
    match = off_the_loop(
        services.match_create, variant="four", members=members, now=timing.now(), seed=7
    )
    play_greedy(match, members, moves=6)
    for member in members[1:]:  # everyone but alice leaves the match: she wins it
        off_the_loop(services.match_resign, match_id=match.pk, user=member, now=timing.now())
    state = current_state(match)
    assert state.status == "finished"

    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    # No clipboard here: the page shows the position in a field, selected, instead.
    context.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page = context.new_page()  # a visitor
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    expect(page.locator("#table[data-replay-game]")).to_have_count(1)
    expect(page.locator("#replay-games")).to_be_hidden()  # one game only

    # The last steps are the resignations.
    expect(page.locator("#replay-info")).to_have_text(
        re.compile(r"^Move 6 of 6 · dave resigned the match$")
    )
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-info")).to_have_text(
        re.compile(r"^Move 6 of 6 · carol resigned the match$")
    )
    page.keyboard.press("Home")
    expect(shown(page, 1, 0)).to_have_count(1)
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    expect(shown(page, 1, 2)).to_have_count(1)
    page.locator("#replay-next").tap()
    expect(shown(page, 1, 3)).to_have_count(1)
    page.locator("#replay-slider").fill("5")
    expect(shown(page, 1, 5)).to_have_count(1)
    fifth = after_moves(state, 1, 5)
    assert cell_classes(page) == drawn(fifth)

    page.locator("#replay-copy").tap()
    field = page.locator("#replay-fpn")
    expect(field).to_be_visible()
    expect(field).to_have_value(fifth.to_text())
    selected = field.evaluate(
        "f => [f.selectionStart, f.selectionEnd, document.activeElement === f]"
    )
    assert selected == [0, len(fifth.to_text()), True]
    expect(page.locator("#replay-copied")).to_be_hidden()
    for selector in ("#board-wrap svg", "#replay-slider", "#replay-copy"):
        box = page.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "replay-four-phone")
    assert not errors
    context.close()


def test_a_spectator_steps_back_while_the_match_goes_on(
    browser, site, login, make_member, screenshot
):
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=SEED
    )
    play_greedy(match, [alice, bob], moves=4)
    url = f"{site.url}/match/{match.pk}/"
    watching = browser.new_context(viewport={"width": 1280, "height": 800})
    login(watching, carol)
    v = watching.new_page()
    playing = browser.new_context(viewport={"width": 1280, "height": 800})
    login(playing, alice)
    a = playing.new_page()
    errors = []
    for page in (v, a):
        page.on("pageerror", lambda error: errors.append(error))
        page.goto(url)
        expect(page.locator('#table[data-ply="4"]')).to_have_count(1)

    # A player's replay bar stays folded until they look back; then it opens.
    expect(a.locator("#replay")).to_be_hidden()
    a.keyboard.press("ArrowLeft")
    expect(shown(a, 1, 3)).to_have_count(1)
    expect(a.locator("#replay")).to_be_visible()
    a.locator("#replay-live").click()
    expect(a.locator("#table.replaying")).to_have_count(0)
    expect(a.locator("#replay")).to_be_hidden()

    expect(v.locator("#replay")).to_be_visible()
    expect(v.locator("#replay-live")).to_be_hidden()
    v.keyboard.press("ArrowLeft")
    expect(shown(v, 1, 3)).to_have_count(1)
    expect(v.locator("#replay-live")).to_be_visible()
    state = current_state(match)
    assert cell_classes(v) == drawn(after_moves(state, 1, 3))

    # Moves go on meanwhile: the page keeps them, and keeps showing move 3.
    state = play_greedy(match, [alice, bob], moves=2)
    expect(v.locator('#table[data-ply="6"]')).to_have_count(1)
    expect(v.locator("#moves .move")).to_have_count(6)
    expect(shown(v, 1, 3)).to_have_count(1)
    assert cell_classes(v) == drawn(after_moves(state, 1, 3))
    screenshot(v, "replay-spectator-stepping-back")

    # Forward to the newest move: it fetches the moves played since, and is live again.
    v.keyboard.press("End")
    expect(shown(v, 1, 6)).to_have_count(1)
    expect(v.locator("#table.replaying")).to_have_count(0)
    assert cell_classes(v) == drawn(state.current.position)

    v.keyboard.press("ArrowLeft")
    expect(shown(v, 1, 5)).to_have_count(1)
    v.get_by_role("button", name="Back to live").click()
    expect(v.locator("#table.replaying")).to_have_count(0)
    expect(v.locator("#replay-live")).to_be_hidden()
    assert cell_classes(v) == drawn(state.current.position)
    assert not errors
    watching.close()
    playing.close()


@pytest.mark.parametrize("variant", ["vinco", "pairs"])
def test_every_step_of_the_swap_and_of_pairs(browser, site, make_member, variant):
    members = [make_member(name) for name in ("alice", "bob", "carol", "dave")]
    seats = 2 if variant == "vinco" else 4
    match = off_the_loop(
        services.match_create,
        variant=variant,
        members=members[:seats],
        now=timing.now(),
        seed=SEED,
    )
    play_greedy(match, members, moves=1)
    if variant == "vinco":  # bob takes alice's position (pie rule)
        off_the_loop(
            services.move_play,
            match_id=match.pk,
            user=members[1],
            ply=1,
            color="swap",
            received_at=timing.now(),
        )
    play_greedy(match, members, moves=4)
    off_the_loop(services.match_resign, match_id=match.pk, user=members[1], now=timing.now())
    state = current_state(match)
    assert state.status == "finished"
    game = state.games[0]

    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    expect(page.locator("#table[data-replay-game]")).to_have_count(1)
    page.keyboard.press("Home")
    for ply in range(game.ply + 1):
        expect(shown(page, 1, ply)).to_have_count(1)
        assert cell_classes(page) == drawn(after_moves(state, 1, ply)), ply
        if variant == "vinco" and ply == 2:
            expect(page.locator("#replay-info")).to_have_text(
                f"Move 2 of {game.ply} · bob swapped (pie rule)"
            )
            expect(page.locator(".board polygon.gain")).to_have_count(0)
        page.keyboard.press("ArrowRight")
    # The last step: bob's resignation; in Pairs the team's scores are added up.
    expect(page.locator("#replay-info")).to_have_text(
        re.compile(rf"^Move {game.ply} of {game.ply} · bob resigned the match$")
    )
    if variant == "pairs":
        scores = game.position.scores
        expect(page.locator("#replay-scores .replay-score")).to_have_text(
            [
                re.compile(rf"alice\D*carol\D*{scores[0] + scores[2]}$"),
                re.compile(rf"bob\D*dave\D*{scores[1] + scores[3]}$"),
            ]
        )
    assert not errors
    page.close()
