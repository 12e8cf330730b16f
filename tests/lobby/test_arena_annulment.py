"""An annulment reaches the arenas (SPEC §4, §12): when a moderator annuls a member's rated
arena matches, the recalculation of the scale works out every affected arena's stored
results again in its transaction (opponents' ratings before each match, points,
streaks and fire, performance), so the stored table is the one recomputed from the
matches; an annulled match counts for nothing in the arena, as an aborted one."""

from datetime import timedelta

import pytest

from accounts.models import User
from config.celery import app
from games import services, timing
from lobby import services as lobby
from lobby.models import Arena, ArenaResult
from lobby.standings import arena_recomputed, arena_standings
from ratings import services as ratings
from ratings.models import RatedMatch
from tests import timeshift
from tests.moves import play_least, play_opening

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager():
    """Queued tasks run at once, in this thread: the annulment's recalculation."""
    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was


@pytest.fixture
def arena():
    now = timing.now()
    arena = lobby.arena_create(
        name="Annulled",
        variant="fast",
        clock="1+1",
        starts_at=now - timedelta(minutes=1),
        minutes=60,
    )
    lobby.arenas_advance(now=now)
    return Arena.objects.get(pk=arena.pk)


def won(arena, winner, loser):
    """A match of the arena that counts (both seats made two moves of game 1), won by
    ``winner`` when ``loser`` resigns it, then rated as the rating task does."""
    timeshift.advance(60)
    members = [winner, loser]
    match = services.match_create(
        variant="fast", members=members, now=timing.now(), rated=True, clock="1+1", arena=arena.pk
    )
    play_opening(match, members, now=timing.now())
    for _ in range(2):
        play_least(match, members, now=timing.now())
    services.match_resign(match_id=match.pk, user=loser, now=timing.now())
    assert RatedMatch.objects.filter(pk=match.pk).exists()
    ratings.match_rating_update(match_id=match.pk)
    return match


def stored(arena) -> dict[tuple[int, int], tuple]:
    return {
        (r.member_id, r.match_id): (r.opponent_rating, r.points, r.on_fire, r.annulled)
        for r in ArenaResult.objects.filter(arena=arena)
    }


def points(arena) -> dict[int, int]:
    return {s.member: s.points for s in arena_standings(arena)}


def test_annulling_a_members_matches_recomputes_the_arenas_stored_results(
    arena, make_member, eager, django_capture_on_commit_callbacks
):
    alice, erin, frank, gina = (make_member(n) for n in ("alice", "erin", "frank", "gina"))
    for member in (alice, erin, frank, gina):
        lobby.arena_join(arena_id=arena.pk, member=member, now=timing.now())
    won(arena, erin, frank)
    by_alice = [won(arena, alice, erin)]  # breaks erin's streak
    won(arena, erin, gina)
    fourth = won(arena, erin, frank)  # not on fire: her last two are a loss and a win
    by_alice.append(won(arena, alice, gina))
    sixth = won(arena, frank, gina)
    assert arena_standings(arena) == arena_recomputed(arena)
    before, table_before = stored(arena), arena_standings(arena)
    assert points(arena) == {alice.pk: 4, erin.pk: 6, frank.pk: 2, gina.pk: 0}
    version = Arena.objects.get(pk=arena.pk).version

    # The moderator annuls alice's matches; the recalculation runs after commit.
    with django_capture_on_commit_callbacks(execute=True):
        for match in by_alice:
            ratings.match_annul(match_id=match.pk, by=None, reason="engine use")

    after = stored(arena)
    assert arena_standings(arena) == arena_recomputed(arena)
    assert arena_standings(arena) != table_before
    # alice's matches count for nothing; erin's streak was never broken: her fourth
    # match is a win on fire.
    assert points(arena) == {alice.pk: 0, erin.pk: 8, frank.pk: 2, gina.pk: 0}
    assert {key for key, value in after.items() if value[3]} == {
        (member.pk, match.pk)
        for match, opponent in zip(by_alice, (erin, gina), strict=True)
        for member in (alice, opponent)
    }
    assert after[(erin.pk, fourth.pk)][1:3] == (4, True)
    # The ratings before each later match moved with the annulment, and so did the
    # opponents' ratings stored: erin's before her fourth match, gina's before the sixth.
    assert after[(frank.pk, fourth.pk)][0] != before[(frank.pk, fourth.pk)][0]
    assert after[(frank.pk, sixth.pk)][0] != before[(frank.pk, sixth.pk)][0]
    assert Arena.objects.get(pk=arena.pk).version > version  # the arena's pages look again


def test_the_api_and_the_arena_page_mark_annulled_results(
    arena, make_member, eager, django_capture_on_commit_callbacks, client
):
    alice, erin = make_member("alice"), make_member("erin")
    for member in (alice, erin):
        lobby.arena_join(arena_id=arena.pk, member=member, now=timing.now())
    cheat = won(arena, alice, erin)
    with django_capture_on_commit_callbacks(execute=True):
        ratings.match_annul(match_id=cheat.pk, by=None, reason="engine use")
    standings = client.get(f"/api/arenas/{arena.pk}/").json()["standings"]
    results = {row["username"]: row["results"] for row in standings}
    assert results["alice"] == [
        {
            "match": cheat.pk,
            "opponent": "erin",
            "outcome": "win",
            "points": 0,
            "berserk": False,
            "annulled": True,
        }
    ]
    assert results["erin"][0]["annulled"] is True
    page = client.get(f"/arenas/{arena.pk}/standings/").content.decode()
    assert page.count("arena-result win annulled") == 1
    assert page.count("arena-result loss annulled") == 1


def test_a_finished_arenas_podium_and_places_follow_the_annulment(
    arena, make_member, eager, django_capture_on_commit_callbacks
):
    alice, erin, frank = (make_member(n) for n in ("alice", "erin", "frank"))
    for member in (alice, erin, frank):
        lobby.arena_join(arena_id=arena.pk, member=member, now=timing.now())
    cheat = won(arena, alice, erin)
    won(arena, alice, frank)
    won(arena, erin, frank)
    timeshift.advance(timedelta(hours=2).total_seconds())
    lobby.arenas_advance(now=timing.now())
    finished = Arena.objects.get(pk=arena.pk)
    assert finished.status == Arena.Status.FINISHED
    assert [p["username"] for p in finished.podium] == ["alice", "erin", "frank"]

    with django_capture_on_commit_callbacks(execute=True):
        ratings.match_annul(match_id=cheat.pk, by=None, reason="boosting")

    finished.refresh_from_db()
    table = arena_recomputed(finished)
    names = dict(User.objects.values_list("pk", "username"))
    assert [p["points"] for p in finished.podium] == [2, 2, 0]
    assert finished.podium == [{"username": names[s.member], "points": s.points} for s in table]
    places = dict(finished.entries.values_list("member_id", "rank"))
    assert places == {s.member: rank for rank, s in enumerate(table, start=1)}
