"""Practice tables and the computer's queue (SPEC §2 Practice, §3): at most two practice
tables in play, the computer's wait in the queue not charged to its clock, one computer
move worked out at a time per table, and a computer's move whose task was lost queued
again (a worker stopped while it held it, or the broker restarted)."""

from datetime import timedelta

import pytest

from games import services
from games.engine.clock import Clock
from games.engine.match import MatchState
from games.models import Match
from tests.conftest import needs_services
from tests.games.conftest import T0
from tests.games.table_sockets import fresh
from tests.moves import play_one

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_practice_tables_in_play_at_most(alice):
    from games.errors import TableError

    start = dict(member=alice, board="fast", level=1, member_starts=True, clock="", now=T0)
    first = services.practice_start(**start)
    services.practice_start(**start)
    with pytest.raises(TableError) as refused_:
        services.practice_start(**start)
    assert refused_.value.code == "limit"
    assert Match.objects.filter(practice=True).count() == 2
    services.match_resign(match_id=first.pk, user=alice, now=T0)  # one ends: room again
    services.practice_start(**start)
    assert Match.objects.filter(practice=True, status="playing").count() == 2


def test_the_computers_wait_in_the_queue_is_not_charged(alice):
    """The member moves at T0; the worker begins the computer's move 80 s later, after
    the computer's whole bank would have run out: no flag meanwhile, and its clock is
    charged only from when the worker began."""
    match = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="1+1", now=T0
    )

    def computer_plays(began, thought):
        state = MatchState.from_dict(fresh(match).state)
        position = state.current.position
        return services.bot_move(
            match_id=match.pk,
            seat=1,
            ply=state.current.ply,
            color=next(c for c, why in position.legal_colors().items() if why is None),
            now=began + thought,
            began_at=began,
        )

    play_one(match, [alice, None], now=T0)
    assert computer_plays(T0, timedelta(0))  # game 1 under way (no abort rule now)
    play_one(match, [alice, None], now=T0)
    bank = Clock.from_dict(fresh(match).clock_state).remaining_ms[1]
    queued = T0 + timedelta(seconds=80)  # more than the computer's bank
    assert not services.match_tick(match_id=match.pk, now=queued)  # not flagged
    assert fresh(match).status == "playing"
    assert computer_plays(queued, timedelta(milliseconds=500))
    clock = Clock.from_dict(fresh(match).clock_state)
    # Its bank less the half second it thought, plus its increment of 1 s.
    assert clock.remaining_ms[1] == bank - 500 + 1_000


def test_one_computer_move_in_flight_per_table(alice):
    from games.services.practice import bot_turn, bot_work_name
    from games.services.underway import work_begin, work_end

    match = services.practice_start(
        member=alice, board="fast", level=1, member_starts=False, clock="", now=T0
    )
    assert work_begin(bot_work_name(match.pk), now=T0, seconds=60)  # another worker is at it
    assert bot_turn(match_id=match.pk, game=1, ply=0, now=lambda: T0) is None
    assert MatchState.from_dict(fresh(match).state).current.ply == 0
    work_end(bot_work_name(match.pk))
    assert bot_turn(match_id=match.pk, game=1, ply=0, now=lambda: T0) is True
    assert MatchState.from_dict(fresh(match).state).current.ply == 1


@needs_services
def test_a_computer_move_whose_task_was_lost_is_queued_again(alice):
    from celery.contrib.testing.worker import start_worker

    from config.celery import app
    from games import timing
    from games.services.practice import COMPUTER_TURN_LOST_SECONDS, bot_work_name
    from games.services.underway import work_begin, work_end
    from tests.conftest import wait_for

    with app.connection_for_write() as connection:  # what earlier tests left there
        connection.default_channel.queue_declare(queue="bots", durable=True)
        connection.default_channel.queue_purge("bots")
    match = services.practice_start(
        member=alice, board="fast", level=1, member_starts=False, clock="", now=timing.now()
    )
    with app.connection_for_write() as connection:  # the computer's first move is lost
        assert connection.default_channel.queue_purge("bots") == 1
    turn = fresh(match).turn_started_at
    lost = turn + timedelta(seconds=COMPUTER_TURN_LOST_SECONDS + 5)  # beyond TV's pause too
    assert services.computer_turns_resume(now=turn + timedelta(seconds=5)) == 0  # not yet
    assert work_begin(bot_work_name(match.pk), now=lost, seconds=60)  # a worker is at it
    assert services.computer_turns_resume(now=lost) == 0
    work_end(bot_work_name(match.pk))

    assert services.computer_turns_resume(now=lost) == 1
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["bots"]):
        assert wait_for(lambda: MatchState.from_dict(fresh(match).state).current.ply == 1)
    # The member's turn now: nothing of the computer's is waiting.
    assert services.computer_turns_resume(now=lost + timedelta(minutes=5)) == 0
