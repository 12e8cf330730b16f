"""Two moves for the same ply at the same moment: the match row lock lets exactly one in."""

import threading

import pytest
from django.db import connection

from games import services
from games.errors import TableError
from games.models import Move
from tests.conftest import needs_services
from tests.games.conftest import T0, legal_colour, position_of

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


@pytest.mark.parametrize("attempt", range(5))
def test_same_ply_twice_applies_exactly_one(fast_table, alice, attempt):
    position = position_of(fast_table)
    legal = [c for c, reason in position.legal_colors().items() if reason is None]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def play(colour: int) -> None:
        from django.db import connections

        barrier.wait()
        try:
            services.move_play(
                match_id=fast_table.pk,
                user=alice,
                ply=0,
                color=colour,
                received_at=T0,
            )
            outcomes.append("applied")
        except TableError as failure:
            outcomes.append(failure.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=play, args=(colour,)) for colour in legal[:2]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["applied", "stale"]
    assert Move.objects.filter(game__match=fast_table).count() == 1
    fast_table.refresh_from_db()
    assert fast_table.version == 2
    assert position_of(fast_table).to_move == 1
    assert legal_colour(position_of(fast_table))


@pytest.mark.postgres  # a lock wait watched in pg_stat_activity
def test_the_lock_reads_seats_as_the_previous_holder_committed_them(fast_table, bob):
    """A move waiting for the match's lock reads the seats after it got it: a seat that
    the lock's holder changed meanwhile is read as committed, not as it was before."""
    from django.db import connections, transaction

    from games import access
    from games.models import Seat

    Seat.objects.filter(match=fast_table, seat=1).update(connected=True)
    holder = connections.create_connection("default")
    holder.set_autocommit(False)
    found: list = []

    def lock() -> None:
        try:
            with transaction.atomic():
                found.append(access.locked_table(fast_table.pk)[1])
        finally:
            connections.close_all()

    waiter = threading.Thread(target=lock)
    try:
        with holder.cursor() as cursor:
            cursor.execute("SELECT 1 FROM games_match WHERE id = %s FOR UPDATE", [fast_table.pk])
            cursor.execute(
                "UPDATE games_seat SET connected = FALSE WHERE match_id = %s AND seat = 1",
                [fast_table.pk],
            )
            waiter.start()
        # until the waiter's statement waits for the lock (a wait, not a timing)
        with connection.cursor() as watch:
            while waiter.is_alive():
                watch.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE wait_event_type = 'Lock' AND datname = current_database()"
                )
                if watch.fetchone()[0]:
                    break
        holder.commit()
    finally:
        holder.close()
        waiter.join()
    [seats] = found
    assert [row.connected for row in seats] == [False, False]
    assert [row.username for row in seats] == ["alice", bob.username]
