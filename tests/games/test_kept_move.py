"""A move worked out from the version this process committed last (``rows.kept_table``):
one round trip, ``BEGIN``, the guarded save and ``COMMIT``, stored only while the row is
still at that version and the mover may act; anything else goes the lock's way, and
nothing is lost or applied twice (two such moves racing for one ply:
``tests/games/test_concurrency.py``)."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import events, rows, selectors, services
from games.diagrams import _greedy
from games.engine.match import MatchState
from games.errors import Revoked, TableError
from games.models import Match, Move
from tests.conftest import needs_services
from tests.games.conftest import T0

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]

LOCK = ["BEGIN", "SELECT", "WITH", "COMMIT"]
KEPT = ["BEGIN", "WITH", "COMMIT"]


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


def public(event) -> dict:
    """The event without the table it carries for other processes (``rows.heard``)."""
    return {key: value for key, value in event.items() if key != "kept"}


def as_heard(event) -> dict:
    """The event as another process receives it: through the channel layer's serializer."""
    layer = get_channel_layer()
    return layer.deserialize(layer.serialize(event))


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
        assert statements == KEPT
        event = sent_state(box)
        assert public(event) == selectors.table_event(match.pk, now=T0)  # what sync reads
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
    assert statements == LOCK
    statements, _ = play(fast_table, bob, version=None)  # no version: as before
    assert statements == LOCK
    assert Match.objects.get(pk=fast_table.pk).version == version + 2


def test_a_row_that_moved_on_elsewhere_is_not_overwritten(fast_table, alice, bob):
    """Another process changed the table after this one kept it: the guarded save stores
    nothing, and the move is made again under the lock, on the row as it is."""
    version = Match.objects.get(pk=fast_table.pk).version
    Match.objects.filter(pk=fast_table.pk).update(version=version + 1, spectators=3)
    statements, box = play(fast_table, alice, version=version)
    # Django lists its own ROLLBACK as the block exits: the round trip had committed
    # nothing, and there is nothing to roll back.
    assert statements == ["BEGIN", "WITH", "ROLLBACK", *LOCK]
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
    assert rows.kept_table(fast_table.pk, version) is not None  # still kept: nothing moved


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
    assert kinds[-1][:4] == ["BEGIN", "ROLLBACK", "BEGIN", "SELECT"]
    assert all(statements == KEPT for statements in kinds[:-1])
    assert Move.objects.filter(game__match=match).count() == len(kinds)


def test_a_move_after_another_processs_commit_starts_from_what_its_event_carried(
    fast_table, alice, bob
):
    """The previous move was committed by another process (its players' sockets on two
    processes): this one heard the state event, with the table it carries, and works the
    next move out from it, in one round trip."""
    version = Match.objects.get(pk=fast_table.pk).version
    _, box = play(fast_table, alice, version=version)
    event = as_heard(sent_state(box))
    assert event["version"] == version + 1
    rows._committed.pop(fast_table.pk)  # this process committed nothing at this table
    rows.heard(fast_table.pk, event)
    statements, box = play(fast_table, bob, version=version + 1)
    assert statements == KEPT
    assert public(sent_state(box)) == selectors.table_event(fast_table.pk, now=T0)
    assert [m.ply for m in Move.objects.filter(game__match=fast_table).order_by("ply")] == [1, 2]
    assert Match.objects.get(pk=fast_table.pk).version == version + 2


def test_a_heard_table_is_only_a_start(fast_table, alice, bob):
    """What a process heard never replaces what it knows of a later version, and a row
    that moved on since is not overwritten: the guarded save stores nothing and the lock
    decides."""
    version = Match.objects.get(pk=fast_table.pk).version
    _, box = play(fast_table, alice, version=version)
    first = as_heard(sent_state(box))
    _, box = play(fast_table, bob, version=version + 1)  # committed here: version + 2
    rows.heard(fast_table.pk, first)  # late: older than what this process committed
    assert rows.kept_table(fast_table.pk, version + 1) is None
    assert rows.kept_table(fast_table.pk, version + 2) is not None
    second = as_heard(sent_state(box))
    rows._committed.pop(fast_table.pk)
    rows.heard(fast_table.pk, second)
    Match.objects.filter(pk=fast_table.pk).update(version=version + 3, spectators=2)
    statements, box = play(fast_table, alice, version=version + 2)
    assert statements == ["BEGIN", "WITH", "ROLLBACK", *LOCK]
    stored = Match.objects.get(pk=fast_table.pk)
    assert stored.version == version + 4 and stored.spectators == 2
    assert Move.objects.filter(game__match=fast_table).count() == 3


async def test_a_tables_socket_keeps_what_the_state_event_carries(
    connect, fast_table, alice, bob, monkeypatch
):
    """The consumer hands every state event to ``rows.heard``: a move committed by
    another process (here: committed without this process remembering it) is kept from
    its event, and the next move at the table starts from it."""
    rows._heard.pop(fast_table.pk, None)
    b = await connect(fast_table, bob)
    version = b.state["version"]
    monkeypatch.setattr(rows, "remember", lambda *args, **kwargs: None)  # "elsewhere"
    await sync_to_async(services.move_play)(
        match_id=fast_table.pk,
        user=alice,
        ply=0,
        color=_greedy(await sync_to_async(lambda: current(fast_table).current.position)()),
        received_at=T0,
    )
    monkeypatch.undo()
    assert rows._committed.get(fast_table.pk, (None,))[0] != version + 1
    state = await b.state_where(lambda state: state["version"] == version + 1)
    assert rows._heard[fast_table.pk][0] == version + 1
    assert await sync_to_async(rows.kept_table)(fast_table.pk, version + 1) is not None
    await b.send({"type": "move", "color": _greedy_of(state), "ply": 1})
    after = await b.state_where(lambda state: state["game"]["ply"] == 2)
    assert after["version"] == version + 2
    assert await sync_to_async(Move.objects.filter(game__match=fast_table).count)() == 2


def _greedy_of(state) -> int:
    """A legal colour of the state's mover (the first one)."""
    return next(int(c) for c, reason in state["you"]["legal"].items() if reason is None)
