"""An arena's entrant who waits (SPEC §12): the arena's page says why they are not paired
right now as the pairing round sees it (a table in play, practice tables too; no page of
the site open; the wait for a free opponent), the table of a pairing made while they were
between two pages is reached from the arena's page, and a first move missed by a member
who was never shown their table aborts the match without withdrawing them."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from games import services, timing
from games.models import Match
from lobby import services as lobby
from lobby.models import ArenaEntry, ArenaResult
from lobby.standings import arena_recomputed, arena_standings
from tests import timeshift
from tests.lobby.test_arena_pages import make_arena
from tests.lobby.test_arena_play import enter, latest, seated_members

pytestmark = pytest.mark.django_db


WAITING = re.compile(r'<p class="arena-waiting[^"]*"[^>]*data-reason="(\w+)">(.*?)</p>', re.S)


def said(client, member, arena) -> tuple[str | None, list[str]]:
    """Why the arena's page says ``member`` is not paired (``data-reason``), and the
    tables it links there; the fragment the page fetches again says the same."""
    client.force_login(member)
    found = []
    for name in ("arena", "arena_standings"):
        line = WAITING.search(client.get(reverse(name, args=[arena.pk])).content.decode())
        links = re.findall(r'href="([^"]+)"', line.group(2)) if line else []
        found.append((line.group(1) if line else None, links))
    assert found[0] == found[1]
    return found[0]


def test_the_page_says_why_an_entrant_is_not_paired_as_the_round_sees_it(client, make_member):
    """A member with a practice table in play was never paired while the page said "you
    are paired whenever you are free"."""
    arena = make_arena()
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    enter(arena, alice, bob)
    enter(arena, carol, present=False)  # no page of the site open
    practice = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=timing.now()
    )

    assert said(client, alice, arena) == ("playing", [f"/match/{practice.pk}/"])
    assert said(client, carol, arena) == ("away", [])
    assert said(client, bob, arena) == ("free", [])
    assert lobby.arenas_pair(now=timing.now()) == 0  # as the page says: nobody for bob

    # alice leaves her practice table: free, as the page says, and paired next round.
    services.match_resign(match_id=practice.pk, user=alice, now=timing.now())
    assert said(client, alice, arena) == ("free", [])
    timeshift.advance(settings.ARENA_PAIRING_SECONDS)
    assert lobby.arenas_pair(now=timing.now()) == 1
    match = latest(arena)
    assert {s.member_id for s in match.seats.all()} == {alice.pk, bob.pk}
    # Paired: the page shows the match (to go to), no reason; carol is still away.
    assert said(client, alice, arena) == (None, [])
    assert said(client, carol, arena) == ("away", [])


def test_a_table_in_play_elsewhere_is_named_with_its_link_private_ones_by_token(
    client, make_member
):
    arena = make_arena()
    alice, erin = make_member("alice"), make_member("erin")
    enter(arena, alice)
    private = services.match_create(
        variant="classic", members=[alice, erin], now=timing.now(), private=True
    )
    reason, links = said(client, alice, arena)
    assert reason == "playing" and links == [f"/t/{private.token}/"]


def test_a_pairing_made_between_two_pages_is_reached_from_the_arena_page(client, make_member):
    """Once in about five a member whose join came with a pairing round was not taken to
    their table: the notice found no page of theirs. The arena's page now sends them
    there (``data-go``) until they have seen the table."""
    arena = make_arena()
    alice, bob = make_member("alice"), make_member("bob")
    enter(arena, alice, bob)
    assert lobby.arenas_pair(now=timing.now()) == 1
    match = latest(arena)
    table = f"/match/{match.pk}/"
    client.force_login(alice)
    for name in ("arena", "arena_standings"):
        html = client.get(reverse(name, args=[arena.pk])).content.decode()
        assert f'data-go="{table}"' in html

    # At the table once: the arena's page links it and no longer sends her there.
    assert client.get(table).status_code == 200
    html = client.get(reverse("arena", args=[arena.pk])).content.decode()
    assert "data-go" not in html and f'href="{table}"' in html
    # bob's socket opened at the table: he has seen it too.
    services.socket_open(channel_name="bob-table", member=bob, match_id=match.pk, now=timing.now())
    client.force_login(bob)
    assert "data-go" not in client.get(reverse("arena", args=[arena.pk])).content.decode()


def first_move_missed(arena, make_member, *, told_first: bool):
    """A pairing whose first seat never moves: the second seat's member sees the table;
    the first seat's too when ``told_first``. The abort comes with the first-move time."""
    from django.test import Client

    alice, bob = make_member("alice"), make_member("bob")
    enter(arena, alice, bob)
    assert lobby.arenas_pair(now=timing.now()) == 1
    match = latest(arena)
    first, second = seated_members(match)
    for member in (first, second) if told_first else (second,):
        page = Client()
        page.force_login(member)
        assert page.get(f"/match/{match.pk}/").status_code == 200
    timeshift.advance(settings.GAME_ABORT_SECONDS)
    assert services.match_tick(match_id=match.pk, now=timing.now())
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABORTED
    active = dict(ArenaEntry.objects.filter(arena=arena).values_list("member_id", "active"))
    results = {r.member_id: r for r in ArenaResult.objects.filter(match=match)}
    stored, recomputed = arena_standings(arena), arena_recomputed(arena)
    assert [(s.member, s.points, s.fire, s.results) for s in stored] == [
        (s.member, s.points, s.fire, s.results) for s in recomputed
    ]
    return first, second, active, results


def test_a_first_move_missed_by_a_member_never_told_of_the_match_withdraws_nobody(make_member):
    """Paired while between two pages, never shown the table: the match aborts as always
    (nobody is kept waiting), but the member who was not told is not withdrawn and
    forfeits nothing; the other did nothing wrong either."""
    arena = make_arena()
    first, second, active, results = first_move_missed(arena, make_member, told_first=False)
    assert active == {first.pk: True, second.pk: True}
    assert {r.outcome for r in results.values()} == {"aborted"}
    assert {r.points for r in results.values()} == {0}


def test_a_member_told_of_the_match_who_does_not_come_is_withdrawn(make_member):
    arena = make_arena()
    first, second, active, results = first_move_missed(arena, make_member, told_first=True)
    assert active == {first.pk: False, second.pk: True}
    assert results[first.pk].outcome == "loss" and results[second.pk].outcome == "aborted"
