"""The end of a game is an event (issue 13.4): players and spectators see who won the game
and why, the scores, the match points and the countdown to the next game (from the
server's next_game_at), with Ready for the players; the end of the match says its result.
Spectators follow a rematch live (issue 13.5)."""

import re

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.models import Match
from tests import timeshift
from tests.e2e.conftest import off_the_loop
from tests.e2e.playing import caught_up, current_state, play_greedy, play_match

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 46  # greedy players: bob wins game 1, alice game 2 (tests/e2e/test_table.py)


def test_the_end_of_each_game_for_players_and_a_spectator(
    browser, site, login, make_member, screenshot
):
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=SEED
    )
    url = f"{site.url}/match/{match.pk}/"
    desk = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    watcher = browser.new_context(
        viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True
    )
    login(desk, alice)
    login(phone, bob)
    a, b, v = desk.new_page(), phone.new_page(), watcher.new_page()
    errors = []
    for page in (a, b, v):
        page.on("pageerror", lambda error: errors.append(error))
        page.goto(url)
        expect(page.locator("#game-end")).to_be_hidden()
    expect(a.locator("#spectators")).to_have_text("1 spectator")

    state = play_greedy(match, [alice, bob])
    assert state.status == "between_games"
    game = state.games[0]
    assert [["alice", "bob"][s] for s in game.winners] == ["bob"]
    scores = game.position.scores
    match.refresh_from_db()
    next_game_at = timing.ms(match.deadline)
    for page in (a, b, v):
        card = page.locator("#game-end")
        expect(card).to_be_visible()
        expect(page.locator("#game-end-title")).to_have_text("Game 1 is over")
        expect(page.locator("#game-end-result")).to_have_text(
            "bob won game 1: the rest of the board could no longer change the winner."
        )
        expect(page.locator("#game-end-scores-body tr")).to_have_text(
            [re.compile(rf"^alice\s*{scores[0]}\s*0$"), re.compile(rf"^bob\s*{scores[1]}\s*1$")]
        )
        expect(page.locator("#game-end-scores-body a.member").first).to_have_attribute(
            "href", "/@/alice/"
        )
        # A minute from the end of the game, as the server said.
        expect(page.locator("#game-end-next")).to_have_text(
            re.compile(r"^Game 2 starts in (1:00|0:59), or as soon as every player is ready\.$")
        )
        expect(page.locator(".countdown")).to_have_attribute("data-next-game-at", str(next_game_at))
        box = page.locator("#game-end .game-end-card").bounding_box()
        size = page.viewport_size
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5
    expect(a.get_by_role("button", name="Ready for the next game")).to_be_visible()
    expect(b.get_by_role("button", name="Ready for the next game")).to_be_visible()
    expect(v.locator("#ready")).to_be_hidden()
    screenshot(a, "game-end-desk")
    screenshot(b, "game-end-phone")
    screenshot(v, "game-end-spectator")

    # Twenty seconds later (the server's time) alice is ready: everyone's countdown
    # follows the server's clock, not the page's.
    timeshift.advance(20)
    a.get_by_role("button", name="Ready for the next game").click()
    for page in (b, v):
        expect(page.locator("#ready-info")).to_have_text("Ready: alice")
        expect(page.locator("#game-end-next")).to_have_text(re.compile(r" in 0:(40|39),"))
    expect(a.locator("#ready-info")).to_have_text("You are ready · Ready: alice")
    expect(a.locator("#ready")).to_be_disabled()

    # Folded, the board shows and Ready stays at hand.
    b.get_by_role("button", name="Show the board").tap()
    expect(b.locator("#game-end.folded")).to_have_count(1)
    expect(b.locator("#game-end-result")).to_be_hidden()
    screenshot(b, "game-end-phone-folded")
    b.get_by_role("button", name="Ready for the next game").tap()
    for page in (a, b, v):
        expect(page.locator('#table[data-game="2"][data-status="playing"]')).to_have_count(1)
        expect(page.locator("#game-end")).to_be_hidden()

    # The end of the match: its result in the card as in the panel's banner.
    state = play_greedy(match, [alice, bob])
    assert state.status == "finished"
    for page in (a, b, v):
        expect(page.locator("#game-end-title")).to_have_text("The match is over")
        expect(page.locator("#game-end-result")).to_have_text(
            "alice won game 2: the rest of the board could no longer change the winner."
        )
        expect(page.locator("#game-end-match")).to_have_text(page.locator("#result").inner_text())
        expect(page.locator("#game-end-next")).to_be_hidden()
    screenshot(v, "game-end-match-spectator")
    v.get_by_role("button", name="Close").tap()
    expect(v.locator("#game-end")).to_be_hidden()
    v.reload()  # a page opened after the end shows the replay, not the card
    expect(v.locator("#table[data-replay-game]")).to_have_count(1)
    expect(v.locator("#game-end")).to_be_hidden()

    # Every name on the page links to the member's page, in the page's language.
    off_the_loop(services.chat_post, match_id=match.pk, user=bob, text="gg", now=timing.now())
    v.goto(f"{site.url}/es/match/{match.pk}/")
    expect(v.locator(".chat-message")).to_have_count(1)
    for selector, name in (
        ('.player[data-seat="A"] .player-name a', "alice"),
        ('#moves .move[data-game="1"][data-ply="2"] a.member', "bob"),
        (".chat-message .chat-author a", "bob"),
        ("#game-results li a.member", "bob"),
        ("#match-score-body tr th a", "alice"),
        ("#replay-info a.member", "alice"),
    ):
        link = v.locator(selector).first
        expect(link).to_have_text(name)
        expect(link).to_have_attribute("href", f"/es/@/{name}/")
    assert not errors
    for context in (desk, phone, watcher):
        context.close()


def test_spectators_follow_a_rematch_live(browser, site, login, make_member):
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=SEED
    )
    play_greedy(match, [alice, bob], moves=4)
    off_the_loop(services.match_resign, match_id=match.pk, user=bob, now=timing.now())
    assert current_state(match).status == "finished"
    url = f"{site.url}/match/{match.pk}/"
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    follower = phone.new_page()  # a visitor on a phone
    desk = browser.new_context(viewport={"width": 1280, "height": 800})
    login(desk, carol)
    stepping = desk.new_page()  # a member in the middle of the replay
    for page in (follower, stepping):
        page.goto(url)
        expect(page.locator("#table[data-replay-game]")).to_have_count(1)
    stepping.keyboard.press("ArrowLeft")
    expect(stepping.locator("#table.replaying")).to_have_count(1)

    off_the_loop(services.rematch_offer, match_id=match.pk, user=alice, now=timing.now())
    for page in (follower, stepping):
        expect(page.locator("#rematch-info")).to_have_text("alice offered a rematch.")
    off_the_loop(services.rematch_offer, match_id=match.pk, user=bob, now=timing.now())
    match.refresh_from_db()
    assert match.rematch_id is not None
    rematch = Match.objects.get(pk=match.rematch_id)
    assert rematch.status == Match.Status.PLAYING

    expect(follower).to_have_url(f"{site.url}/match/{rematch.pk}/")
    expect(follower.locator("#status-line")).to_contain_text("alice to move")
    link = stepping.get_by_role("link", name="Go to the rematch")
    expect(link).to_have_attribute("href", f"/match/{rematch.pk}/")
    expect(stepping).to_have_url(url)  # not taken away from the replay
    link.click()
    expect(stepping).to_have_url(f"{site.url}/match/{rematch.pk}/")
    phone.close()
    desk.close()


def test_a_finished_match_shows_nobody_as_disconnected(browser, site, login, make_member):
    """Issue 43.3: presence is news while a match is played (bob, who never came, is
    "disconnected"); once it is over, no seat carries a presence badge, the player's own
    ("(you) disconnected") included, live or opened afterwards."""
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=SEED
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    caught_up(page, match)
    expect(page.locator('.player[data-seat="B"] .offline-badge')).to_have_text("disconnected")
    expect(page.locator('.player[data-seat="A"] .offline-badge')).to_have_count(0)

    state = play_match(match, [alice, bob])
    assert state.status == "finished"
    caught_up(page, match)
    expect(page.locator("#table")).to_have_attribute("data-status", "finished")
    for view in (page, context.new_page()):
        if view is not page:
            view.goto(f"{site.url}/match/{match.pk}/")  # opened after the end
            caught_up(view, match)
        expect(view.locator(".player")).to_have_count(2)
        expect(view.locator(".offline-badge")).to_have_count(0)
        expect(view.locator(".player.offline")).to_have_count(0)
        expect(view.locator("#sides")).not_to_contain_text("disconnected")
    assert not errors
    context.close()
