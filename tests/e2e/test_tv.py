"""VOG TV and the front door in Chromium: a visitor's home page shows a live board that
follows the match on TV; /tv/ shows the highest-rated public match in play with names and
clocks, and moves on to the next when it ends; a fresh site has a match of two computers
on TV once beat's task ran; the demo's computer-hosted table keeps waiting in the lobby."""

import re

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.models import Match, Seat
from tests.conftest import wait_for
from tests.e2e.conftest import ARTIFACTS, off_the_loop
from tests.e2e.playing import caught_up, current_state, drawn, new_match, play_greedy

pytestmark = pytest.mark.django_db(transaction=True)


def visitor_page(browser, site, path, width=1280, height=800):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(site.url + path)
    return page, errors


def live_cells(page) -> list[str]:
    return page.eval_on_selector_all(
        "#live-board .cells polygon", "cells => cells.map(c => c.getAttribute('class'))"
    )


def tv_started(settings) -> Match:
    """Beat's task run once, as on a fresh site: the match of two computers on TV."""
    from games.tasks import tv_match_keep

    settings.TV_HOUSE_MATCH = True
    off_the_loop(tv_match_keep)
    return Match.objects.get(house=Match.House.TV, status=Match.Status.PLAYING)


def computer_moves(match: Match, count: int) -> None:
    """The computer's next moves, as the ``bots`` worker plays them (without the pause)."""
    for _ in range(count):
        game = current_state(match).current
        off_the_loop(
            services.bot_turn, match_id=match.pk, game=game.number, ply=game.ply, now=timing.now
        )


def test_a_fresh_site_has_a_match_on_tv_once_beat_ran(browser, site, settings):
    from games.tasks import tv_match_keep

    assert not Match.objects.exists()  # a freshly migrated database
    tv = tv_started(settings)
    off_the_loop(tv_match_keep)  # beat again: the same match, never a second one
    assert Match.objects.filter(house=Match.House.TV).count() == 1
    seats = Seat.objects.filter(match=tv)
    assert all(seat.member_id is None and 1 <= seat.bot_level <= 2 for seat in seats)

    page, errors = visitor_page(browser, site, "/tv/")
    table = page.locator("#table")
    expect(table).to_have_attribute("data-match", str(tv.pk))
    expect(page.locator("#sides")).to_contain_text(f"Computer (level {seats[0].bot_level})")
    expect(page.locator('[data-clock-seat="A"]')).to_have_text(re.compile(r"^\d+:\d\d$"))
    computer_moves(tv, 2)
    caught_up(page, tv)
    expect(table).to_have_attribute("data-ply", "2")
    assert not errors


def test_tv_shows_the_best_match_with_names_and_clocks_and_moves_on(
    browser, site, login, make_member, settings, screenshot
):
    alice, bob, carol, dave = (make_member(n) for n in ("alice", "bob", "carol", "dave"))
    tv_started(settings)  # the computers' match is on only while no member's match is
    lower = new_match("fast", [alice, bob], clock="3+2")
    best = new_match("fast", [carol, dave], clock="5+3")
    Seat.objects.filter(match=lower).update(rating=1600)
    for member in (alice, bob):  # at their table for real: beat's presence sweep agrees
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        login(context, member)
        player = context.new_page()
        player.goto(f"{site.url}/match/{lower.pk}/")
        caught_up(player, lower)
    assert wait_for(
        lambda: set(Seat.objects.filter(match=lower).values_list("connected", flat=True)) == {True}
    )
    Seat.objects.filter(match=best).update(rating=1900, connected=True)
    left = new_match("fast", [make_member("frank"), make_member("gina")])
    Seat.objects.filter(match=left).update(rating=2400)  # nobody at that table: not on TV
    practice = new_match("fast", [make_member("erin")], bots={1: 2}, practice=True)
    Seat.objects.filter(match=practice, member__isnull=False).update(rating=2500, connected=True)

    page, errors = visitor_page(browser, site, "/tv/")
    table = page.locator("#table")
    expect(table).to_have_attribute("data-match", str(best.pk))
    expect(page.locator("h1")).to_contain_text("VOG TV")
    expect(page.locator("#sides")).to_contain_text("carol")
    expect(page.locator("#sides")).to_contain_text("dave")
    expect(page.locator('[data-clock-seat="A"]')).to_have_text("5:00")
    expect(page.locator('[data-clock-seat="B"]')).to_have_text("5:00")
    expect(page.locator("#colours .colour").first).to_have_attribute("aria-disabled", "true")

    play_greedy(best, [carol, dave], moves=3)  # live: the visitor's page follows
    caught_up(page, best)
    assert page.locator("#table").get_attribute("data-ply") == "3"
    screenshot(page, "tv")
    off_the_loop(services.match_resign, match_id=best.pk, user=carol, now=timing.now())
    # The match is over: the page moves on to the next match on TV by itself.
    expect(table).to_have_attribute("data-match", str(lower.pk), timeout=20000)
    expect(page.locator("#sides")).to_contain_text("alice")
    expect(page.locator('[data-clock-seat="A"]')).to_have_text("3:00")
    assert not errors


def test_the_home_page_shows_the_tv_match_live(browser, site, settings):
    tv = tv_started(settings)
    page, errors = visitor_page(browser, site, "/")
    board = page.locator("#live-board")
    expect(board).to_be_visible()
    expect(board.locator(".board .cells polygon").first).to_be_visible()
    link = page.locator('a[href="/tv/"]').first
    expect(link).to_be_visible()
    expect(board.locator(".live-name")).to_have_text(
        [re.compile(r"Computer \(level \d\) \(A\)"), re.compile(r"Computer \(level \d\) \(B\)")]
    )
    expect(board.locator('[data-clock-seat="A"]')).to_have_text("3:00")
    expect(board).to_have_attribute("data-synced", "1")
    before = live_cells(page)
    assert before == drawn(current_state(tv).current.position)

    computer_moves(tv, 3)
    expect(board).to_have_attribute("data-ply", "3")
    after = live_cells(page)
    assert after != before
    assert after == drawn(current_state(tv).current.position)
    # docs/screenshots/home-light-1280x800.png is this picture.
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "home-light-1280x800.png"))
    link.click()
    expect(page).to_have_url(re.compile(r"/tv/$"))
    expect(page.locator("#table")).to_have_attribute("data-match", str(tv.pk))
    assert not errors


def test_the_demo_keeps_a_table_waiting_with_the_computer_as_host(
    browser, site, login, make_member, settings
):
    from lobby.tasks import house_table_keep

    settings.HOUSE_TABLE = True
    off_the_loop(house_table_keep)
    off_the_loop(house_table_keep)  # beat again: still one
    waiting = Match.objects.filter(status=Match.Status.WAITING)
    assert waiting.count() == 1 and waiting.get().created_by is None

    alice = make_member("alice")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(site.url + "/")
    row = page.locator("#waiting-list tr", has_text="Computer (level")
    expect(row).to_have_count(1)
    row.get_by_role("button", name="Join").click()
    expect(page).to_have_url(re.compile(r"/match/\d+/$"))
    expect(page.locator("#table")).to_have_attribute("data-status", "playing")
    expect(page.locator("#sides")).to_contain_text("Computer (level")
    expect(page.locator("#sides")).to_contain_text("alice")
    taken = Match.objects.get(pk=int(page.locator("#table").get_attribute("data-match")))
    assert taken.status == Match.Status.PLAYING and not taken.rated

    # The table was taken: beat opens another, and the lobby shows it without a reload.
    lobby, lobby_errors = visitor_page(browser, site, "/")
    expect(lobby.locator("#waiting-empty")).to_be_visible()
    off_the_loop(house_table_keep)
    expect(lobby.locator("#waiting-list tr", has_text="Computer (level")).to_have_count(1)
    assert Match.objects.filter(status=Match.Status.WAITING).count() == 1
    assert not errors and not lobby_errors
