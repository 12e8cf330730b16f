"""The one path of a move (``games.services.move_play``: the match row locked, the engine
once, the save, events after commit), on PostgreSQL and, in the SQLite pass of ``make
test``, on SQLite. A failed or refused move commits nothing and the connection goes on; a
move inside a caller's transaction commits with it."""

import threading

import pytest
from django.db import IntegrityError, OperationalError, connection, connections, transaction

from games import events, services
from games.errors import TableError
from games.models import Match, Move
from tests.conftest import needs_services
from tests.games.conftest import T0, legal_colour, position_of

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def play(match, user, ply):
    colour = legal_colour(position_of(match))
    with events.capture() as box:
        services.move_play(match_id=match.pk, user=user, ply=ply, color=colour, received_at=T0)
    match.refresh_from_db()
    return box


def test_inside_a_callers_transaction_nothing_commits_early(fast_table, alice):
    """The caller's rollback undoes the move, and nothing was sent."""
    with pytest.raises(RuntimeError), transaction.atomic(), events.capture() as box:
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
    assert box == []


def test_a_save_that_fails_commits_nothing_and_the_connection_goes_on(fast_table, alice):
    game = fast_table.current_game
    Move.objects.create(game=game, ply=1, seat=0, color=0, gained=0, played_at=T0)
    before = Match.objects.values().get(pk=fast_table.pk)
    with pytest.raises(IntegrityError):  # the move's row exists
        play(fast_table, alice, 0)
    assert Match.objects.values().get(pk=fast_table.pk) == before
    assert not connection.in_atomic_block
    Move.objects.filter(game=game).delete()
    play(fast_table, alice, 0)  # the same connection plays the move now
    assert fast_table.version == 2


def test_a_stale_move_rolls_back_and_the_next_one_plays(fast_table, alice, bob):
    play(fast_table, alice, 0)
    with pytest.raises(TableError) as refused:
        play(fast_table, bob, 0)
    assert refused.value.code == "stale" and fast_table.version == 2
    play(fast_table, bob, 1)
    assert fast_table.version == 3


@pytest.mark.postgres  # lock_timeout is PostgreSQL's
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


@pytest.mark.postgres  # pg_terminate_backend
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
    with pytest.raises(OperationalError), events.capture():  # the lock's statement fails
        services.move_play(match_id=fast_table.pk, user=alice, ply=0, color=colour, received_at=T0)
    connection.close_if_unusable_or_obsolete()  # as every database thread does after a call
    fast_table.refresh_from_db()
    assert fast_table.version == 1  # nothing was played
    play(fast_table, alice, 0)
    assert fast_table.version == 2


@pytest.mark.postgres
def test_the_lock_function_of_old_is_gone_and_migrating_back_restores_it():
    """Migration games 0016 drops the stored function that once repeated the match's
    columns; migrating back brings it back, and forward drops it again."""
    from django.core.management import call_command

    def functions() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_proc WHERE proname = %s", ["games_table_locked"]
            )
            return cursor.fetchone()[0]

    assert functions() == 0
    call_command("migrate", "games", "0015", verbosity=0)
    try:
        assert functions() == 1
    finally:
        call_command("migrate", "games", verbosity=0)
    assert functions() == 0
