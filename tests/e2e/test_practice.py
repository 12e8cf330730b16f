"""Practice against the computer in Chromium: a real practice table (the computer's moves
made by a Celery worker on the ``bots`` queue), Hint and Take back answered by the site,
and a spectator who sees neither."""

import pytest
from celery.contrib.testing.worker import start_worker
from playwright.sync_api import expect

from config.celery import app
from games import services, timing
from games.colors import COLOR_NAMES
from games.engine import PALETTE
from tests.e2e.conftest import off_the_loop
from tests.e2e.playing import current_state

pytestmark = pytest.mark.django_db(transaction=True)


def current_version(match) -> int:
    match.refresh_from_db()
    return match.version


@pytest.fixture
def bots_worker():
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["bots"]):
        yield


def test_hint_and_take_back_at_a_practice_table(
    browser, site, login, make_member, screenshot, bots_worker
):
    alice = make_member("alice")
    match = off_the_loop(
        services.practice_start,
        member=alice,
        board="fast",
        level=1,
        member_starts=True,
        clock="",
        now=timing.now(),
    )
    url = f"{site.url}/match/{match.pk}/"
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(url)
    expect(page.locator("#table[data-practice='1']")).to_have_count(1)

    # Her turn, nothing played yet: a hint, but nothing to take back.
    hint = page.get_by_role("button", name="Hint")
    take_back = page.get_by_role("button", name="Take back")
    expect(hint).to_be_enabled()
    expect(take_back).to_be_disabled()

    # The site's hint: the strongest level's colour and the cells it takes, as the worker
    # works it out for this position (the page's request then gets the same).
    version = current_version(match)
    expected = off_the_loop(services.hint_work, match_id=match.pk, version=version)
    colour, gain = expected["color"], expected["gained"]
    page.keyboard.press("h")
    name = str(COLOR_NAMES[PALETTE[colour].key]).capitalize()
    cells = "1 cell" if gain == 1 else f"{gain} cells"
    denied = (expected.get("denies") or {}).get("cells", 0)
    if gain == 0 and denied:  # a block: what it keeps from the opponent
        kept = "1 cell" if denied == 1 else f"{denied} cells"
        said = (
            f"Hint: {name} takes nothing now but keeps it from your opponent,"
            f" who would take {kept} with it"
        )
    else:
        said = f"Hint: {name} takes {cells}"
    expect(page.locator("#hint-text")).to_have_text(said)
    expect(page.locator(f'#colours .colour.hinted[data-color="{colour}"]')).to_have_count(1)
    expect(page.locator(".board polygon.hint")).to_have_count(gain)
    screenshot(page, "practice-hint")

    # She plays it (a tap shows it, a second tap plays it); the hint goes with the
    # position it was for, and the computer answers.
    page.locator(f'#colours .colour[data-color="{colour}"]').tap()
    page.locator(f'#colours .colour[data-color="{colour}"]').tap()
    expect(page.locator("#hint-text")).to_be_hidden()
    expect(page.locator(".board polygon.hint")).to_have_count(0)
    expect(page.locator('#table[data-ply="2"]')).to_have_count(1)
    state = current_state(match)
    assert state.current.moves[0] == colour and state.current.ply == 2
    expect(hint).to_be_enabled()  # her turn again

    # Take back: her move and the computer's answer are undone.
    expect(take_back).to_be_enabled()
    take_back.tap()
    expect(page.locator('#table[data-ply="0"]')).to_have_count(1)
    assert current_state(match).current.ply == 0
    expect(take_back).to_be_disabled()

    # A spectator sees neither, and "h" asks for nothing.
    spectator = browser.new_page()
    spectator.goto(url)
    expect(spectator.locator("#table[data-practice='1']")).to_have_count(1)
    expect(spectator.locator("#practice")).to_be_hidden()
    spectator.keyboard.press("h")
    expect(spectator.locator("#hint-text")).to_be_hidden()
    spectator.close()
    assert not errors
    context.close()


def test_a_hint_that_takes_nothing_says_what_it_keeps_from_the_opponent(
    browser, site, login, make_member
):
    alice = make_member("alice")
    # A practice table as practice_start makes one, on a known board: after these four
    # moves the strongest level plays 6, which takes nothing but bars B's three cells.
    match = off_the_loop(
        services.match_create,
        variant="fast",
        members=[alice],
        bots={1: 1},
        now=timing.now(),
        seed=3,
        single_game=True,
        practice=True,
        created_by=alice,
    )
    for ply, colour in enumerate((2, 4, 1, 5)):
        if ply % 2 == 0:
            off_the_loop(
                services.move_play,
                match_id=match.pk,
                user=alice,
                ply=ply,
                color=colour,
                received_at=timing.now(),
            )
        else:
            off_the_loop(
                services.bot_move,
                match_id=match.pk,
                seat=1,
                ply=ply,
                color=colour,
                now=timing.now(),
            )
    assert current_state(match).current.ply == 4
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    expect(page.locator('.player[data-seat="A"] .offline-badge')).to_have_count(0)

    # The worker's hint for the position as the page has it (her arrival changed the
    # version): the page's request gets the same.
    version = current_version(match)
    expect(page.locator(f'#table[data-version="{version}"][data-ply="4"]')).to_have_count(1)
    hint = off_the_loop(services.hint_work, match_id=match.pk, version=version)
    assert hint["color"] == 6 and hint["gained"] == 0
    assert hint["denies"] == {"color": 6, "cells": 3}
    page.get_by_role("button", name="Hint").click()
    name = str(COLOR_NAMES[PALETTE[6].key]).capitalize()
    expect(page.locator("#hint-text")).to_have_text(
        f"Hint: {name} takes nothing now but keeps it from your opponent, who would take"
        " 3 cells with it"
    )
    expect(page.locator('#colours .colour.hinted[data-color="6"]')).to_have_count(1)
    assert not errors
    context.close()


def test_the_lobby_starts_a_game_against_the_computer(browser, site, login, make_member):
    alice = make_member("alice")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    page.goto(f"{site.url}/es/")
    page.locator("#practice summary").click()
    page.get_by_label("Tablero").select_option("classic")
    page.get_by_label("Nivel del ordenador").select_option("3")
    page.get_by_label("Quién empieza").select_option("computer")
    page.get_by_role("button", name="Empezar").click()
    expect(page.locator("#table[data-practice='1']")).to_have_count(1)
    match = alice.seats.get().match
    assert match.practice and match.variant == "classic" and not match.rated
    seats = {seat.seat: (seat.member_id, seat.bot_level) for seat in match.seats.all()}
    assert seats == {0: (None, 3), 1: (alice.pk, None)}
    context.close()


def test_a_practice_table_without_a_clock_waits_for_the_first_move(
    browser, site, login, make_member, screenshot
):
    """Issue 43.2: "Play the computer" without a clock, the rules read for 40 s, and the
    table is still there: no first-move countdown, no abort; it ends only as deserted
    (SPEC §3). The Abort button stays hers to press."""
    from django.conf import settings

    from games import tasks
    from tests import timeshift
    from tests.e2e.playing import caught_up, greedy

    alice = make_member("alice")
    match = off_the_loop(
        services.practice_start,
        member=alice,
        board="fast",
        level=1,
        member_starts=True,
        clock="",
        now=timing.now(),
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    caught_up(page, match)
    expect(page.locator("#abort")).to_be_visible()
    expect(page.locator("#abort-info")).to_be_hidden()
    expect(page.get_by_text("or the match is aborted")).to_have_count(0)

    # Forty seconds with the rules, and every sweep that could end it: still playing.
    timeshift.advance(settings.GAME_ABORT_SECONDS + 10)
    off_the_loop(tasks.clocks_sweep)
    off_the_loop(services.match_tick, match_id=match.pk, now=timing.now())
    assert current_state(match).status == "playing"
    caught_up(page, match)
    expect(page.locator("#table")).to_have_attribute("data-status", "playing")

    # Her first move is played.
    colour = greedy(current_state(match).current.position)
    page.locator(f'#colours .colour[data-color="{colour}"]').click()
    expect(page.locator("#table[data-ply='1'], #table[data-ply='2']")).to_have_count(1)
    assert current_state(match).current.moves[0] == colour
    screenshot(page, "practice-no-clock")
    assert not errors
    context.close()
