"""The table as a regular expects it: premoves (sent the moment the turn comes, dropped
with a word when no longer legal, cancelled by a second press or Escape), looking back
during play while live moves keep arriving, keys that work after chatting, buttons that
look refused whenever a press would be, and a muted member's chat box. The tests wait on
the page's hooks: ``main[data-drawn-version]``, ``#colour-bar[data-premove]`` and
``aria-disabled``."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from accounts import services as members
from games import services, timing
from games.engine import Position
from games.models import Match, Move
from tests.e2e.conftest import off_the_loop
from tests.e2e.playing import (
    after_moves,
    caught_up,
    cell_classes,
    current_state,
    drawn,
    new_match,
    play_greedy,
)

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 46


def button(page, colour: int):
    return page.locator(f'#colours .colour[data-color="{colour}"]')


def free_after(position, played: int) -> list[int]:
    """The colours the second seat may play once the first has played ``played``."""
    after = position.play(played)
    return [c for c, reason in after.legal_colors().items() if reason is None]


def play(match: Match, member, colour: int) -> None:
    state = current_state(match)
    off_the_loop(
        services.move_play,
        match_id=match.pk,
        user=member,
        ply=state.current.ply,
        color=colour,
        received_at=timing.now(),
    )


@pytest.fixture
def table(browser, site, login, make_member):
    """A Fast match, alice (A) to move, with bob's page open on a desktop."""
    alice, bob = make_member("alice"), make_member("bob")
    match = new_match("fast", [alice, bob], seed=SEED, clock="5+3")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    login(context, bob)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    expect(page.locator("#table[data-synced]")).to_have_count(1)  # its socket hears the table
    caught_up(page, match)
    yield match, alice, bob, page
    assert not errors
    context.close()


def test_a_premove_is_sent_the_moment_the_turn_comes(table):
    match, alice, _bob, page = table
    position = current_state(match).current.position
    mine, theirs = position.seat_colors[1], position.seat_colors[0]
    alices = next(c for c in range(1, 8) if position.legal_colors()[c] is None)
    fields = position.to_text().split(" ")
    fields[5] = "B"  # the same board with bob to move: what each colour would take him now
    as_bob = Position.from_text(" ".join(fields))
    wanted = next(c for c in free_after(position, alices) if as_bob.preview(c))

    # Off turn: bob's own colour is refused, the others queue.
    expect(button(page, mine)).to_have_attribute("aria-disabled", "true")
    expect(button(page, theirs)).to_have_attribute("aria-disabled", "false")
    page.keyboard.press(str(wanted))
    bar = page.locator("#colour-bar")
    expect(bar).to_have_attribute("data-premove", str(wanted))
    expect(button(page, wanted)).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".board polygon.hl")).to_have_count(len(as_bob.preview(wanted)))

    play(match, alice, alices)
    expect(page.locator('#table[data-ply="2"]')).to_have_count(1)
    expect(bar).not_to_have_attribute("data-premove", re.compile(".*"))
    moves = list(Move.objects.filter(game__match=match).order_by("ply"))
    assert [(m.ply, m.color) for m in moves] == [(1, alices), (2, wanted)]


def test_a_premove_no_longer_legal_is_dropped_with_the_reason(table):
    match, alice, _bob, page = table
    position = current_state(match).current.position
    alices = next(c for c in range(1, 8) if position.legal_colors()[c] is None)

    # Bob queues the colour alice is about to take: once she has it, he cannot play it.
    button(page, alices).click()
    expect(page.locator("#colour-bar")).to_have_attribute("data-premove", str(alices))
    play(match, alice, alices)
    expect(page.locator("#table-error")).to_have_text(
        re.compile(r"^Your premove was not played: .*alice's current colour\.$")
    )
    expect(page.locator("#colour-bar")).not_to_have_attribute("data-premove", re.compile(".*"))
    expect(page.locator("#status-line")).to_contain_text("Your turn")
    assert Move.objects.filter(game__match=match).count() == 1


def test_a_second_press_or_escape_cancels_a_premove(table):
    match, alice, _bob, page = table
    position = current_state(match).current.position
    colour = position.seat_colors[0]  # alice's: free for bob once she moves
    bar = page.locator("#colour-bar")
    page.keyboard.press(str(colour))
    expect(bar).to_have_attribute("data-premove", str(colour))
    page.keyboard.press(str(colour))
    expect(bar).not_to_have_attribute("data-premove", re.compile(".*"))
    button(page, colour).click()
    expect(bar).to_have_attribute("data-premove", str(colour))
    page.keyboard.press("Escape")
    expect(bar).not_to_have_attribute("data-premove", re.compile(".*"))
    alices = next(c for c in range(1, 8) if position.legal_colors()[c] is None)
    play(match, alice, alices)
    expect(page.locator('#table[data-ply="1"]')).to_have_count(1)
    expect(page.locator("#status-line")).to_contain_text("Your turn")
    assert Move.objects.filter(game__match=match).count() == 1


def test_buttons_look_refused_whenever_a_press_would_be(browser, site, table, login):
    match, alice, bob, page = table
    colours = page.locator("#colours .colour")
    position = current_state(match).current.position

    # A spectator: every button refused, with the reason.
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    spectator = context.new_page()
    spectator.goto(f"{site.url}/match/{match.pk}/")
    caught_up(spectator, match)
    refused = spectator.locator('#colours .colour[aria-disabled="true"]')
    expect(refused).to_have_count(colours.count())
    first = spectator.locator("#colours .colour").first
    assert "you are watching" in first.get_attribute("data-tooltip")
    assert float(first.evaluate("b => getComputedStyle(b).opacity")) < 0.6
    context.close()

    # The player to move: only the current colours refused.
    ahead = browser.new_context(viewport={"width": 1280, "height": 800})
    login(ahead, alice)
    a = ahead.new_page()
    a.goto(f"{site.url}/match/{match.pk}/")
    caught_up(a, match)
    expect(a.locator('#colours .colour[aria-disabled="true"]')).to_have_count(2)

    # Between games: every button refused for both players.
    play_greedy(match, [alice, bob])
    match.refresh_from_db()
    assert match.status == Match.Status.BETWEEN_GAMES
    for seen in (a, page):
        caught_up(seen, match)
        expect(seen.locator('#colours .colour[aria-disabled="true"]')).to_have_count(
            colours.count()
        )
    tip = page.locator("#colours .colour").first.get_attribute("data-tooltip")
    assert "the next game has not started" in tip
    # A key pressed meanwhile says why and sends nothing.
    page.keyboard.press(str(position.seat_colors[0]))
    expect(page.locator("#colour-tip")).to_contain_text("the next game has not started")
    expect(page.locator("#colour-bar")).not_to_have_attribute("data-premove", re.compile(".*"))
    ahead.close()


def test_looking_back_during_play_while_moves_arrive(table):
    match, alice, bob, page = table
    state = play_greedy(match, [alice, bob], moves=4)
    caught_up(page, match)

    # A player opens the earlier moves from above the board, or with the arrow key.
    expect(page.locator("#replay")).to_be_hidden()
    page.locator("#browse-back").click()
    shown = page.locator('#table.replaying[data-replay-game="1"][data-replay-ply="3"]')
    expect(shown).to_have_count(1)
    expect(page.locator("#replay-live")).to_be_visible()
    assert cell_classes(page) == drawn(after_moves(state, 1, 3))
    page.keyboard.press("ArrowLeft")
    expect(page.locator('#table[data-replay-ply="2"]')).to_have_count(1)

    # Live moves keep arriving: the list and the slider grow, the board stays on move 2.
    state = play_greedy(match, [alice, bob], moves=2)
    caught_up(page, match)
    expect(page.locator("#moves .move")).to_have_count(6)
    expect(page.locator("#replay-slider")).to_have_attribute("max", "6")
    expect(page.locator('#table[data-replay-ply="2"]')).to_have_count(1)
    assert cell_classes(page) == drawn(after_moves(state, 1, 2))

    # The move list is clickable; the newest appended step is the real position.
    page.locator('#moves .ply-jump[data-game="1"][data-ply="6"]').click()
    expect(page.locator("#table.replaying")).to_have_count(0)
    assert cell_classes(page) == drawn(state.current.position)
    page.locator('#moves .ply-jump[data-game="1"][data-ply="5"]').click()
    expect(page.locator('#table[data-replay-ply="5"]')).to_have_count(1)
    assert cell_classes(page) == drawn(after_moves(state, 1, 5))

    # Back to live on the board; a colour key on one's turn plays on the live board too.
    page.locator("#replay-live").click()
    expect(page.locator("#table.replaying")).to_have_count(0)
    expect(page.locator("#replay")).to_be_hidden()
    assert cell_classes(page) == drawn(state.current.position)


def test_a_spectators_slider_is_right_from_the_start(browser, site, make_member):
    alice, bob = make_member("alice"), make_member("bob")
    match = new_match("fast", [alice, bob], seed=SEED)
    play_greedy(match, [alice, bob], moves=4)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{site.url}/match/{match.pk}/")
    slider = page.locator("#replay-slider")
    expect(slider).to_have_attribute("max", "4")
    expect(slider).to_have_value("4")
    expect(page.locator("#replay-info")).to_contain_text("Move 4 of 4")
    play_greedy(match, [alice, bob], moves=1)
    expect(slider).to_have_attribute("max", "5")
    expect(slider).to_have_value("5")
    context.close()


def test_keys_work_after_chatting_and_question_mark_lists_them(browser, site, login, table):
    match, alice, _bob, page = table
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    login(context, alice)
    a = context.new_page()
    a.goto(f"{site.url}/match/{match.pk}/")
    caught_up(a, match)
    position = current_state(match).current.position
    first, second = [c for c, reason in position.legal_colors().items() if reason is None][:2]

    # Enter sends the line and gives the keys back to the board.
    chat = a.locator("#chat-text")
    chat.fill("good luck")
    chat.press("Enter")
    expect(page.locator(".chat-message .chat-text").last).to_have_text("good luck")
    a.keyboard.press(str(first))
    expect(a.locator('#table[data-ply="1"]')).to_have_count(1)
    expect(chat).to_have_value("")
    assert Move.objects.get(game__match=match, ply=1).color == first

    # Escape leaves the chat box without sending what was typed.
    page.locator("#chat-text").fill("12")
    page.locator("#chat-text").press("Escape")
    assert page.evaluate("document.activeElement.id") != "chat-text"
    bobs = next(
        c
        for c, reason in current_state(match).current.position.legal_colors().items()
        if reason is None
    )
    page.keyboard.press(str(bobs))
    expect(page.locator('#table[data-ply="2"]')).to_have_count(1)
    expect(page.locator("#chat-text")).to_have_value("12")
    assert second  # two legal colours at the start

    # "?" lists the shortcuts; Escape closes the list.
    a.keyboard.press("?")
    expect(a.locator("#shortcuts")).to_have_attribute("open", "")
    expect(a.locator("#shortcuts")).to_contain_text("premove")
    a.keyboard.press("Escape")
    expect(a.locator("#shortcuts")).not_to_have_attribute("open", "")
    context.close()


def test_a_muted_member_sees_a_disabled_chat_box_with_the_end(table):
    match, _alice, bob, page = table
    chat = page.locator("#chat-text")
    expect(chat).to_be_enabled()

    # Muted while the page is open: the box closes at once and says until when.
    until = timing.now() + timedelta(hours=2)
    off_the_loop(members.member_mute, member=bob, until=until)
    expect(chat).to_be_disabled()
    note = page.locator("#chat-muted")
    expect(note).to_be_visible()
    # As the site writes a moment: the day first, a 24-hour clock ("7 Dec 2026, 18:05").
    expect(note).to_have_text(re.compile(r"until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\.$"))
    expect(note).to_contain_text(str(until.year))

    # And so it is when the page opens again; unmuted, the box works again.
    page.reload()
    caught_up(page, match)
    expect(chat).to_be_disabled()
    expect(note).to_contain_text("muted your chat until")
    off_the_loop(members.member_unmute, member=bob)
    expect(chat).to_be_enabled()
    expect(note).to_be_hidden()
    chat.fill("back")
    chat.press("Enter")
    expect(page.locator(".chat-message .chat-text").last).to_have_text("back")


def test_quick_messages_read_in_each_players_language(table, browser, site, login, make_member):
    """A player's quick message is stored as written in English (programs and moderators
    read it so) and each page shows it in its reader's language; a typed line stays as
    typed. A spectator has no quick messages, and a muted player's are disabled."""
    from games.models import ChatMessage

    match, alice, bob, page = table
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    login(context, alice)
    spanish = context.new_page()
    spanish.goto(f"{site.url}/es/match/{match.pk}/")
    caught_up(spanish, match)
    watcher = browser.new_context()
    login(watcher, make_member("carol"))
    spectator = watcher.new_page()
    spectator.goto(f"{site.url}/match/{match.pk}/")
    caught_up(spectator, match)
    expect(spectator.locator("#chat-text")).to_be_visible()
    expect(spectator.locator(".chat-preset")).to_have_count(0)

    page.get_by_role("button", name="Good game!").click()
    expect(page.locator(".chat-message .chat-text").last).to_have_text("Good game!")
    expect(spanish.locator(".chat-message .chat-text").last).to_have_text("¡Buena partida!")
    spanish.get_by_role("button", name="¡Gracias!").tap()
    expect(page.locator(".chat-message .chat-text").last).to_have_text("Thank you!")
    spanish.locator("#chat-text").fill("hola")
    spanish.locator("#chat-text").press("Enter")
    for reader in (page, spanish, spectator):
        expect(reader.locator(".chat-message .chat-text").last).to_have_text("hola")
    expect(spectator.locator(".chat-message .chat-text").first).to_have_text("Good game!")
    assert list(ChatMessage.objects.order_by("pk").values_list("text", flat=True)) == [
        "Good game!",
        "Thank you!",
        "hola",
    ]

    off_the_loop(members.member_mute, member=bob, until=None)
    expect(page.locator("#chat-text")).to_be_disabled()
    expect(page.get_by_role("button", name="Well played!")).to_be_disabled()
    context.close()
    watcher.close()
