"""A short clock (a test setting) runs out in Chromium: the running clock counts down and
warns, the server flags the player nobody waited for, and both players' screens show the
result and its reason at once."""

import re

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.engine.match import MatchState
from games.models import Match
from tests.e2e.conftest import off_the_loop

pytestmark = pytest.mark.django_db(transaction=True)


def first_moves(match, members):
    for _ in range(2):
        state = MatchState.from_dict(Match.objects.get(pk=match.pk).state)
        position = state.current.position
        legal = [c for c, why in position.legal_colors().items() if why is None]
        off_the_loop(
            services.move_play,
            match_id=match.pk,
            user=members[position.to_move],
            ply=state.current.ply,
            color=max(legal, key=lambda c: len(position.preview(c))),
            received_at=timing.now(),
        )


def test_a_clock_runs_out_and_both_screens_show_it(
    browser, site, login, make_member, settings, screenshot
):
    settings.GAME_CLOCK_SCALE = 0.2  # 1+1 → 12 s and 0.2 s
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create,
        variant="fast",
        members=[alice, bob],
        now=timing.now(),
        clock="1+1",
        rated=True,
    )
    pages = []
    for user in (alice, bob):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        login(context, user)
        page = context.new_page()
        page.goto(f"{site.url}/match/{match.pk}/")
        pages.append(page)
    a, b = pages
    first_moves(match, [alice, bob])  # both moved once: alice's clock runs, she never moves
    running = a.locator('.clock.running[data-clock-seat="A"]')
    expect(running).to_be_visible()
    expect(a.locator('.clock.warn[data-clock-seat="A"]')).to_be_visible(timeout=15000)
    screenshot(a, "clock-warning")
    for page in (a, b):
        expect(page.locator("#result")).to_have_text(
            re.compile("bob won the match: alice ran out of time"), timeout=15000
        )
        expect(page.locator('.clock[data-clock-seat="A"]')).to_have_text("0:00.0")
    screenshot(b, "clock-flagged")
    match.refresh_from_db()
    assert match.status == "finished" and match.result_reason == "flagged"
