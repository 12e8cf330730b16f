"""The arena's marks are inline SVG icons in Chromium, so they show on any system (no emoji
font needed): fire and berserk in the standings, medals on the podium, the berserk mark
beside a player at the table. Each is drawn (a box of non-zero size) and named for
screen readers in the page's language."""

from datetime import timedelta

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games import services, timing
from lobby import services as lobby
from tests import timeshift
from tests.e2e.conftest import off_the_loop
from tests.lobby.test_arena_play import enter, latest
from tests.moves import play_one

pytestmark = pytest.mark.django_db(transaction=True)

EMOJI = ("\U0001f525", "\U0001f947", "\U0001f948", "\U0001f949", "\u26a1", "\U0001f451")


def running_arena():
    arena = lobby.arena_create(
        name="Icons arena",
        variant="fast",
        clock="1+1",
        starts_at=timing.now() - timedelta(minutes=1),
        minutes=30,
    )
    lobby.arenas_advance(now=timing.now())
    return arena


def win(arena, winner, loser, *, berserk=False):
    """The next pairing, which ``winner`` wins: two moves each in game 1 (the match
    counts), then ``loser`` resigns the match."""
    lobby.arenas_pair(now=timing.now())
    match = latest(arena)
    seated = [s.member for s in match.seats.select_related("member").order_by("seat")]
    if berserk:
        services.match_berserk(match_id=match.pk, user=winner, now=timing.now())
    for _ in range(4):
        play_one(match, seated)
    services.match_resign(match_id=match.pk, user=loser, now=timing.now())
    timeshift.advance(settings.ARENA_PAIRING_SECONDS)


def won_twice_then_finished(alice, bob, cat, dan):
    """An arena that alice won with two wins over bob (she is on fire; she went berserk in
    the first), cat second with a win over dan; then it ends."""
    arena = running_arena()
    enter(arena, alice, bob)
    win(arena, alice, bob, berserk=True)
    win(arena, alice, bob)
    for member in (alice, bob):  # their points stay; cat and dan play each other
        lobby.arena_withdraw(arena_id=arena.pk, member=member, now=timing.now())
    enter(arena, cat, dan)
    win(arena, cat, dan)
    lobby.arenas_advance(now=timing.now() + timedelta(minutes=31))
    return arena


def drawn(locator):
    """The icon is on the page and has a box of its own: not an empty glyph or a 0×0. The
    arena page may draw its standings again meanwhile (``arena.js`` fetches them as its
    socket opens, and htmx swaps them in), so an icon found just before a swap can be read
    after it left the page: such a reading is taken again on the icon now in its place."""
    expect(locator).to_be_visible()
    for _ in range(50):
        width, height, connected = locator.evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " return [r.width, r.height, e.isConnected]; }"
        )
        if connected:
            break
    assert connected
    assert width >= 8 and height >= 8, (width, height)


def test_fire_berserk_and_the_podium_are_svg_icons(browser, site, make_member, screenshot):
    alice, bob, cat, dan = (make_member(name) for name in ("alice", "bob", "cat", "dan"))
    arena = off_the_loop(won_twice_then_finished, alice=alice, bob=bob, cat=cat, dan=dan)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{site.url}/arenas/{arena.pk}/")

    line = page.locator('#arena-standings tr[data-member="alice"]')
    fire = line.locator(".fire svg.icon-fire")
    drawn(fire)
    expect(line.get_by_role("img", name="on fire")).to_have_count(1)
    expect(page.locator('#arena-standings tr[data-member="bob"] svg.icon-fire')).to_have_count(0)
    berserk = line.locator(".berserk-mark svg.icon-berserk")
    expect(berserk).to_have_count(1)
    drawn(berserk)
    expect(line.get_by_role("img", name="berserk")).to_have_count(1)

    podium = page.locator(".podium")
    expect(podium.locator("li")).to_have_count(3)
    expect(podium.locator("li.podium-1")).to_contain_text("alice")
    expect(podium.locator("li.podium-2")).to_contain_text("cat")
    for place in (1, 2, 3):
        drawn(podium.locator(f"li.podium-{place} svg.icon-medal"))
        expect(podium.locator(f"li.podium-{place}").get_by_role("img")).to_have_accessible_name(
            f"place {place}"
        )
    # The sprite is there once, and no emoji is left as a fallback.
    expect(page.locator("svg symbol#icon-fire")).to_have_count(1)
    text = page.locator("main").inner_text()
    assert not [char for char in EMOJI if char in text]
    screenshot(page, "arena-icons")
    page.context.close()


def test_the_berserk_mark_beside_a_player_at_the_table(browser, site, make_member):
    alice, bob = make_member("alice"), make_member("bob")

    def paired_and_berserk():
        arena = running_arena()
        enter(arena, alice, bob)
        lobby.arenas_pair(now=timing.now())
        match = latest(arena)
        services.match_berserk(match_id=match.pk, user=alice, now=timing.now())
        return match

    match = off_the_loop(paired_and_berserk)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    mark = page.locator(".berserk-mark svg.icon-berserk")
    expect(mark).to_have_count(1)
    drawn(mark)
    expect(page.get_by_role("img", name="Berserk: half the time, no increment")).to_have_count(1)
    assert not errors
