"""A move's two round trips (``games.pipeline``): BEGIN with the lock, COMMIT with the
save. Used only where the move's service owns its transaction, and a failure there
commits nothing and leaves the connection usable."""

import threading

import pytest
from django.db import IntegrityError, OperationalError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from psycopg import pq

from games import events, services
from games.errors import TableError
from games.models import Match, Move
from tests.conftest import needs_services
from tests.games.conftest import T0, legal_colour, position_of

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def play(match, user, ply, *, queries=None):
    colour = legal_colour(position_of(match))
    with CaptureQueriesContext(connection) as captured, events.capture() as box:
        services.move_play(match_id=match.pk, user=user, ply=ply, color=colour, received_at=T0)
    if queries is not None:
        queries.extend(q["sql"] for q in captured.captured_queries)
    match.refresh_from_db()
    return box


def our_statements() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements WHERE name LIKE 'vog\\_%%'")
        return {name for (name,) in cursor.fetchall()}


def test_a_move_sends_its_lock_and_its_save_as_prepared_statements(fast_table, alice, bob):
    sql = []
    play(fast_table, alice, 0, queries=sql)
    assert sql[0] == "BEGIN" and sql[-1] == "COMMIT"
    assert sql[1].startswith("SELECT * FROM games_table_locked($1, $2, $3, $4)")
    assert sql[2].startswith('WITH stored AS (INSERT INTO "games_move"')
    assert len(our_statements()) == 2  # kept on the connection for the next move
    play(fast_table, bob, 1)
    assert fast_table.version == 3 and Move.objects.filter(game__match=fast_table).count() == 2


def test_statements_dropped_by_psycopg_are_prepared_again(fast_table, alice, bob):
    play(fast_table, alice, 0)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # as psycopg does after a rollback
    assert our_statements() == set()
    play(fast_table, bob, 1)
    assert fast_table.version == 3 and position_of(fast_table).to_move == 0
    assert len(our_statements()) == 2


def test_inside_a_callers_transaction_nothing_commits_early(fast_table, alice):
    """Not the service's own transaction: the cursor path runs, and the caller's rollback
    undoes the move."""
    with pytest.raises(RuntimeError), transaction.atomic():
        services.move_play(
            match_id=fast_table.pk,
            user=alice,
            ply=0,
            color=legal_colour(position_of(fast_table)),
            received_at=T0,
        )
        raise RuntimeError("the caller changes its mind")
    fast_table.refresh_from_db()
    assert fast_table.version == 1 and not Move.objects.filter(game__match=fast_table).exists()


def test_a_save_that_fails_commits_nothing_and_the_connection_goes_on(fast_table, alice):
    game = fast_table.current_game
    Move.objects.create(game=game, ply=1, seat=0, color=0, gained=0, played_at=T0)
    before = Match.objects.values().get(pk=fast_table.pk)
    with pytest.raises(IntegrityError):  # the move's row exists: the WITH statement fails
        play(fast_table, alice, 0)
    assert Match.objects.values().get(pk=fast_table.pk) == before
    assert (
        not connection.in_atomic_block
        and connection.connection.pgconn.transaction_status == pq.TransactionStatus.IDLE
    )
    Move.objects.filter(game=game).delete()
    play(fast_table, alice, 0)  # the same connection plays the move now
    assert fast_table.version == 2


def test_without_prepared_statements_a_move_still_plays(fast_table, alice, bob):
    """Behind a pooler in transaction mode (DB_PREPARE_THRESHOLD empty) nothing is named."""
    connection.ensure_connection()
    raw = connection.connection
    threshold, raw.prepare_threshold = raw.prepare_threshold, None
    try:
        play(fast_table, alice, 0)
        play(fast_table, bob, 1)
        assert our_statements() == set()
    finally:
        raw.prepare_threshold = threshold
    assert fast_table.version == 3


def test_a_lock_that_times_out_is_an_error_and_the_next_move_plays(fast_table, alice):
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=fast_table.pk)
                holding.set()
                release.wait(10)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 50")
        with pytest.raises(OperationalError, match="lock timeout"):
            play(fast_table, alice, 0)
    finally:
        release.set()
        holder.join()
    with connection.cursor() as cursor:
        cursor.execute("RESET lock_timeout")
    play(fast_table, alice, 0)
    assert fast_table.version == 2


def test_a_stale_move_rolls_back_and_the_next_one_plays(fast_table, alice, bob):
    play(fast_table, alice, 0)
    with pytest.raises(TableError) as refused:
        play(fast_table, bob, 0)
    assert refused.value.code == "stale" and fast_table.version == 2
    play(fast_table, bob, 1)
    assert fast_table.version == 3


def ends_with_the_folded_save(call) -> list[str]:
    """Run ``call`` and return its statements; assert the save that carried COMMIT was its
    last (Django logs its own COMMIT as the block closes)."""
    with CaptureQueriesContext(connection) as captured, events.capture():
        call()
    sql = [q["sql"] for q in captured.captured_queries]
    assert sql[0] == "BEGIN" and sql[1].startswith("SELECT * FROM games_table_locked($1")
    assert sql[-1] == "COMMIT" and sql[-2].startswith('UPDATE "games_match" SET')
    assert "$1" in sql[-2]  # sent with COMMIT, not through a cursor
    return sql


def test_every_service_that_folds_its_commit_ends_with_the_save(fast_table, alice, bob):
    """ready, resign, rematch (the second offer creates the new match first) and the
    presence refresh: nothing runs after the statement that carried COMMIT."""
    from games.models import Presence

    def resign_game():
        services.game_resign(match_id=fast_table.pk, user=alice, now=T0)

    def ready(user):
        return lambda: services.match_ready(match_id=fast_table.pk, user=user, now=T0)

    ends_with_the_folded_save(resign_game)
    ends_with_the_folded_save(ready(alice))
    ends_with_the_folded_save(ready(bob))
    fast_table.refresh_from_db()
    assert fast_table.status == Match.Status.PLAYING and fast_table.state["games"][1]
    ends_with_the_folded_save(
        lambda: services.match_resign(match_id=fast_table.pk, user=bob, now=T0)
    )
    ends_with_the_folded_save(
        lambda: services.rematch_offer(match_id=fast_table.pk, user=alice, now=T0)
    )
    sql = ends_with_the_folded_save(
        lambda: services.rematch_offer(match_id=fast_table.pk, user=bob, now=T0)
    )
    assert any(statement.startswith('INSERT INTO "games_match"') for statement in sql)
    fast_table.refresh_from_db()
    assert fast_table.rematch is not None and fast_table.version == 7

    Presence.objects.create(
        channel_name="watcher", match=fast_table, seat=None, last_seen=T0, opened_at=T0
    )
    ends_with_the_folded_save(lambda: services.presence_refresh(match_id=fast_table.pk, now=T0))
    fast_table.refresh_from_db()
    assert fast_table.spectators == 1 and fast_table.version == 8


def test_a_lock_after_other_statements_goes_through_a_cursor(fast_table):
    """BEGIN was sent already: the lock goes alone, as a cursor sends it."""
    from games import rows

    with transaction.atomic():
        assert Match.objects.filter(pk=fast_table.pk).exists()
        with CaptureQueriesContext(connection) as captured:
            match, seats = rows.match_and_seats_locked(fast_table.pk, session_key=None, now=T0)
    assert match.pk == fast_table.pk and [row.seat for row in seats] == [0, 1]
    [lock] = [q["sql"] for q in captured.captured_queries]
    assert lock.startswith("SELECT * FROM games_table_locked(") and "$1" not in lock


def test_a_connection_lost_mid_move_is_an_error_and_a_new_one_plays(fast_table, alice):
    colour = legal_colour(position_of(fast_table))
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        [pid] = cursor.fetchone()
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    with pytest.raises(OperationalError), events.capture():  # the lock's round trip fails
        services.move_play(match_id=fast_table.pk, user=alice, ply=0, color=colour, received_at=T0)
    connection.close_if_unusable_or_obsolete()  # as every database thread does after a call
    fast_table.refresh_from_db()
    assert fast_table.version == 1  # nothing was played
    play(fast_table, alice, 0)
    assert fast_table.version == 2
