"""A move worked out from the version this process committed last (``store.kept_table``):
no lock, the guarded save, stored only while the row is still at that version and the
mover may act; anything else goes the lock's way, and nothing is lost or applied twice
(two such moves racing for one ply: ``tests/games/test_concurrency.py``). What a process
only heard on the channel layer is never a start."""

import pytest
from asgiref.sync import sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import events, selectors, services, store
from games.engine.match import MatchState
from games.errors import Revoked, TableError
from games.models import Match, Move
from tests.conftest import needs_services
from tests.games.conftest import T0

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def postgres() -> bool:
    return connection.vendor == "postgresql"


def kept() -> list[str]:
    """A move from the kept version: on PostgreSQL one statement, a transaction by itself
    (the match's guarded update with the move's row); on SQLite the two in a transaction."""
    return ["WITH"] if postgres() else ["BEGIN", "UPDATE", "INSERT", "COMMIT"]


def kept_refused() -> list[str]:
    """The guarded save that found the row moved on: it stored nothing."""
    return ["WITH"] if postgres() else ["BEGIN", "UPDATE", "ROLLBACK"]


def lock() -> list[str]:
    """A move under the lock: the lock reads the match and its seats (one statement on
    PostgreSQL, two on SQLite), then the save (one statement on PostgreSQL, two on SQLite)."""
    if postgres():
        return ["BEGIN", "SELECT", "WITH", "COMMIT"]
    return ["BEGIN", "SELECT", "SELECT", "UPDATE", "INSERT", "COMMIT"]


def _greedy(position) -> int:
    legal = [c for c, reason in position.legal_colors().items() if reason is None]
    return max(legal, key=lambda c: (len(position.preview(c)), -c))


def current(match) -> MatchState:
    return MatchState.from_dict(Match.objects.get(pk=match.pk).state)


def play(match, user, *, version, session_key=None):
    """One move (the greedy colour) at the match's current ply; the statements it ran and
    the events."""
    game = current(match).current
    ply, colour = game.ply, _greedy(game.position)
    with CaptureQueriesContext(connection) as queries, events.capture() as box:
        services.move_play(
            match_id=match.pk,
            user=user,
            ply=ply,
            color=colour,
            received_at=T0,
            session_key=session_key,
            version=version,
        )
    return [q["sql"].split()[0] for q in queries.captured_queries], box


def sent_state(box) -> dict:
    [event] = [event for _, event in box if event["type"] == "table.state"]
    return event


@pytest.mark.parametrize("variant", ["fast", "four"])
def test_moves_from_the_kept_version_are_one_round_trip_and_equal_sync(
    new_table, make_member, variant
):
    members = [make_member(name) for name in ("ann", "ben", "cat", "dan")]
    seats = 4 if variant == "four" else 2
    match = new_table(variant, members[:seats], clock="3+2")
    version = Match.objects.get(pk=match.pk).version  # the start, committed here
    for ply in range(6):
        statements, box = play(match, members[ply % seats], version=version)
        assert statements == kept()
        event = sent_state(box)
        assert event == selectors.table_event(match.pk, now=T0)  # what sync reads
        assert event["version"] == version + 1
        version = event["version"]
    assert Move.objects.filter(game__match=match).count() == 6
    assert [m.ply for m in Move.objects.filter(game__match=match).order_by("ply")] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]


def test_a_version_the_mover_did_not_see_takes_the_lock(fast_table, alice, bob):
    version = Match.objects.get(pk=fast_table.pk).version
    statements, _ = play(fast_table, alice, version=version - 1)  # an older page
    assert statements == lock()
    statements, _ = play(fast_table, bob, version=None)  # no version: as before
    assert statements == lock()
    assert Match.objects.get(pk=fast_table.pk).version == version + 2


def test_a_row_that_moved_on_elsewhere_is_not_overwritten(fast_table, alice, bob):
    """Another process changed the table after this one kept it: the guarded save stores
    nothing, and the move is made again under the lock, on the row as it is."""
    version = Match.objects.get(pk=fast_table.pk).version
    Match.objects.filter(pk=fast_table.pk).update(version=version + 1, spectators=3)
    statements, box = play(fast_table, alice, version=version)
    # On SQLite Django lists its own ROLLBACK as the block exits.
    # nothing, and there is nothing to roll back.
    assert statements == [*kept_refused(), *lock()]
    stored = Match.objects.get(pk=fast_table.pk)
    assert stored.version == version + 2 and stored.spectators == 3
    assert sent_state(box)["version"] == version + 2
    assert Move.objects.filter(game__match=fast_table).count() == 1


def test_an_ended_session_or_a_ban_stops_a_kept_move(fast_table, alice, bob):
    session = SessionStore()
    session.create()
    version = Match.objects.get(pk=fast_table.pk).version
    session.delete()  # logged out since the last move
    with pytest.raises(Revoked) as ended:
        play(fast_table, alice, version=version, session_key=session.session_key)
    assert ended.value.code == "session_ended" or ended.value.close_code == 4401
    alice.banned_at = T0
    alice.save(update_fields=["banned_at"])
    with pytest.raises(Revoked) as banned:
        play(fast_table, alice, version=version)
    assert banned.value.close_code == 4403
    assert not Move.objects.filter(game__match=fast_table).exists()
    assert Match.objects.get(pk=fast_table.pk).version == version


def test_a_refusal_from_the_kept_version_is_the_locks_answer(fast_table, alice, bob):
    version = Match.objects.get(pk=fast_table.pk).version
    with pytest.raises(TableError) as refused:
        play(fast_table, bob, version=version)  # not bob's turn
    assert refused.value.code == "not_your_turn"
    assert Match.objects.get(pk=fast_table.pk).version == version
    assert store.kept_table(fast_table.pk, version) is not None  # still kept: nothing moved


def test_a_move_that_ends_the_game_takes_the_lock(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2")
    version = Match.objects.get(pk=match.pk).version
    kinds = []
    while current(match).status == "playing":
        mover = [alice, bob][current(match).current.position.to_move]
        statements, box = play(match, mover, version=version)
        version = sent_state(box)["version"]
        kinds.append(statements)
    assert current(match).status == "between_games" and current(match).games[0].over
    # Game 1's last move: worked out, found to be more than a move before any statement
    # (Django lists the block it opened and rolled back), then made under the lock.
    abandoned = [] if postgres() else ["BEGIN", "ROLLBACK"]
    assert kinds[-1][: len(abandoned) + 2] == [*abandoned, "BEGIN", "SELECT"]
    assert all(statements == kept() for statements in kinds[:-1])
    assert Move.objects.filter(game__match=match).count() == len(kinds)


async def test_a_state_heard_from_another_process_is_never_a_start(
    connect, fast_table, alice, bob, monkeypatch
):
    """A move committed by another process (here: committed without this process keeping
    it) reaches this process's socket as a state event; the next move at the table is
    judged under the lock, against the row."""
    b = await connect(fast_table, bob)
    version = b.state["version"]
    monkeypatch.setattr(store, "remember", lambda *args, **kwargs: lambda: None)  # elsewhere
    position = await sync_to_async(lambda: current(fast_table).current.position)()
    await sync_to_async(services.move_play)(
        match_id=fast_table.pk, user=alice, ply=0, color=_greedy(position), received_at=T0
    )
    monkeypatch.undo()
    state = await b.state_where(lambda state: state["version"] == version + 1)
    assert await sync_to_async(store.kept_table)(fast_table.pk, version + 1) is None
    statements, _ = await sync_to_async(play)(fast_table, bob, version=state["version"])
    assert statements == lock()
    assert await sync_to_async(Move.objects.filter(game__match=fast_table).count)() == 2
