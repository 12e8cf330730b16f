"""An arena in Chromium (SPEC §12): two members join from the arena's page, are sent to
their table together when the arena pairs them, play, one resigns, and the standings
change on the arena's page without a reload."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.models import Match
from lobby import services as lobby
from tests.e2e.conftest import off_the_loop
from tests.e2e.playing import caught_up, current_state, greedy

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_members_join_play_and_the_standings_follow(browser, site, login, make_member):
    alice, bob = make_member("alice"), make_member("bob")
    arena = off_the_loop(
        lobby.arena_create,
        name="Browser arena",
        variant="fast",
        clock="3+2",
        starts_at=timing.now() - timedelta(minutes=1),
        minutes=30,
    )
    off_the_loop(lobby.arenas_advance, now=timing.now())
    url = f"{site.url}/arenas/{arena.pk}/"

    watching = browser.new_context(viewport={"width": 1280, "height": 900})
    watcher = watching.new_page()  # a visitor keeps the arena's page open throughout
    watcher.goto(url)
    expect(watcher.locator("#arena[data-live]")).to_have_count(1)
    watcher.evaluate("window.notReloaded = true")
    expect(watcher.locator(".arena-clock")).to_contain_text("Ends in")

    pages = {}
    for member in (alice, bob):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        login(context, member)
        page = context.new_page()
        page.goto(url)
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.get_by_role("button", name="Withdraw")).to_be_visible()
        expect(page.locator("#arena[data-live]")).to_have_count(1)  # present on the site
        pages[member.username] = page
    expect(watcher.locator("#arena-standings tbody tr")).to_have_count(2)

    # The arena pairs them: both pages go to the same table at once.
    assert off_the_loop(lobby.arenas_pair, now=timing.now()) == 1
    match = Match.objects.get(arena_id=arena.pk)
    for page in pages.values():
        expect(page).to_have_url(f"{site.url}/match/{match.pk}/")
        caught_up(page, match)
        expect(page.locator("#berserk")).to_be_visible()  # before their first move

    # Two moves each (a match counts from there, SPEC §12), then alice resigns the match.
    members = {s.seat: s.member for s in match.seats.select_related("member")}
    for ply in (1, 2, 3, 4):
        position = current_state(match).current.position
        page = pages[members[position.to_move].username]
        expect(page.locator(f'#table[data-ply="{ply - 1}"]')).to_have_count(1)  # its turn shown
        page.keyboard.press(str(greedy(position)))
        expect(page.locator(f'#table[data-ply="{ply}"]')).to_have_count(1)
    assert current_state(match).current.ply == 4
    off_the_loop(services.match_resign, match_id=match.pk, user=alice, now=timing.now())

    # The watcher's page shows the result without a reload: bob 2, alice 0.
    expect(watcher.locator('tr[data-member="bob"] td').last).to_have_text("2")
    expect(watcher.locator('tr[data-member="alice"] td').last).to_have_text("0")
    expect(watcher.locator('tr[data-member="bob"] .arena-result.win')).to_have_count(1)
    assert watcher.evaluate("window.notReloaded") is True
    expect(watcher.locator("#arena-standings tbody tr").first).to_have_attribute(
        "data-member", "bob"
    )

    # Back on the arena's page, alice sees the same table and can play on.
    alices = pages["alice"]
    alices.goto(url)
    expect(alices.locator('tr[data-member="bob"] .arena-result.win')).to_have_attribute(
        "href", re.compile(rf"/match/{match.pk}/$")
    )
    expect(alices.get_by_role("button", name="Withdraw")).to_be_visible()
    watching.close()
    for page in pages.values():
        page.context.close()


def test_a_pairing_made_between_two_pages_is_reached_from_the_arena_page(
    browser, site, login, make_member
):
    """Once in about five, a member whose join came with a pairing round was never taken
    to their table (no page of theirs heard the notice), and the match aborted without
    them. The arena's page now takes them there as it loads."""
    alice, bob = make_member("alice"), make_member("bob")
    arena = off_the_loop(
        lobby.arena_create,
        name="Between pages",
        variant="fast",
        clock="3+2",
        starts_at=timing.now() - timedelta(minutes=1),
        minutes=30,
    )
    off_the_loop(lobby.arenas_advance, now=timing.now())
    url = f"{site.url}/arenas/{arena.pk}/"
    for member in (alice, bob):
        off_the_loop(lobby.arena_join, arena_id=arena.pk, member=member, now=timing.now())
    # alice between two pages: the socket of the one she left still counts for a moment,
    # and no page of hers is there to hear the notice.
    off_the_loop(
        services.socket_open,
        channel_name="alice-leaving",
        member=alice,
        match_id=None,
        now=timing.now(),
    )
    contexts = {}
    for member in (alice, bob):
        contexts[member.username] = browser.new_context(viewport={"width": 1280, "height": 900})
        login(contexts[member.username], member)
    bobs = contexts["bob"].new_page()
    bobs.goto(url)
    expect(bobs.locator("#arena[data-live]")).to_have_count(1)
    assert off_the_loop(lobby.arenas_pair, now=timing.now()) == 1
    match = Match.objects.get(arena_id=arena.pk)
    table = f"{site.url}/match/{match.pk}/"
    expect(bobs).to_have_url(table)  # the notice, as always

    alices = contexts["alice"].new_page()
    alices.goto(url)  # the next page she opens
    expect(alices).to_have_url(table)
    caught_up(alices, match)
    expect(alices.locator("#berserk")).to_be_visible()  # before her first move: in time
    # Having seen the table, she may look at the arena's page: it stays, and links it.
    alices.goto(url)
    expect(alices.locator("#arena[data-live]")).to_have_count(1)
    expect(alices.locator(".arena-pairing a")).to_have_attribute(
        "href", re.compile(rf"/match/{match.pk}/$")
    )
    assert alices.url == url
    for context in contexts.values():
        context.close()


def test_the_standings_are_swapped_by_htmx_as_entrants_join(browser, site, make_member):
    """A visitor's arena page is told of each change over its socket and htmx fetches and
    swaps the standings (``hx-get`` on ``#arena-live``, a request htmx marks ``HX-Request``):
    no script draws them from a string."""
    carol, dave = make_member("carol"), make_member("dave")
    arena = off_the_loop(
        lobby.arena_create,
        name="Swapped",
        variant="fast",
        clock="3+2",
        starts_at=timing.now() - timedelta(minutes=1),
        minutes=30,
    )
    off_the_loop(lobby.arenas_advance, now=timing.now())
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    fetched = []
    page.on(
        "request",
        lambda request: (
            fetched.append(request.headers.get("hx-request"))
            if request.url.endswith(f"/arenas/{arena.pk}/standings/")
            else None
        ),
    )
    page.goto(f"{site.url}/arenas/{arena.pk}/")
    expect(page.locator("#arena[data-live]")).to_have_count(1)
    page.evaluate(
        """() => { window.swaps = 0; document.getElementById("arena-live")
               .addEventListener("htmx:afterSwap", () => { window.swaps += 1; }); }"""
    )
    for member in (carol, dave):
        off_the_loop(lobby.arena_join, arena_id=arena.pk, member=member, now=timing.now())
    expect(page.locator("#arena-standings tbody tr")).to_have_count(2)
    expect(page.locator('#arena-standings tr[data-member="dave"]')).to_have_count(1)
    assert page.evaluate("window.swaps") >= 1
    assert fetched and all(header == "true" for header in fetched), fetched
