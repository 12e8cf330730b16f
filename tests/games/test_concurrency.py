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
    assert connection.vendor == "postgresql"
    position = position_of(fast_table)
    legal = [c for c, reason in position.legal_colors().items() if reason is None]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def play(colour: int) -> None:
        from django.db import connections

        barrier.wait()
        try:
            services.move_play(
                match_id=fast_table.pk, user=alice, ply=0, color=colour, received_at=T0
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
