"""Clocks enforced by the server (SPEC §3): flags with nobody connected, the deadline to the
millisecond, tasks that run late or twice, the sweep after a worker outage, aborts, the
ready timeout, abandonment claims, exact increments, and a move racing the flag.

Time is injected: services take it, the worker reads the shifted test clock, and short
clocks come from ``GAME_CLOCK_SCALE``."""

import threading
import time
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connections

from config.celery import app
from games import services, tasks
from games.engine.clock import Clock
from games.engine.match import MatchState
from games.errors import TableError
from games.models import Match, Move
from tests import timeshift
from tests.conftest import needs_services
from tests.games.conftest import T0, legal_colour
from tests.moves import play_opening

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


@pytest.fixture
def worker():
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["clocks", "default"]):
        yield


def wait_for(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)  # polls for the worker's result; no time is meant to pass
    return False


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def state_of(match) -> MatchState:
    return MatchState.from_dict(fresh(match).state)


def play(match, members, at):
    """The seat to move plays at ``at`` the colour that takes the most (so games end)."""
    state = state_of(match)
    position = state.current.position
    legal = [c for c, why in position.legal_colors().items() if why is None]
    return services.move_play(
        match_id=match.pk,
        user=members[position.to_move],
        ply=state.current.ply,
        color=max(legal, key=lambda c: (len(position.preview(c)), -c)),
        received_at=at,
    )


def deadline_of(match):
    clock = Clock.from_dict(fresh(match).clock_state)
    return clock.running, T0 + timedelta(milliseconds=clock.deadline_ms() - timeshift_ms(T0))


def timeshift_ms(at) -> int:
    return int(at.timestamp() * 1000)


def test_a_player_who_stops_moving_loses_on_time_with_nobody_connected(
    settings, worker, new_table, alice, bob
):
    settings.GAME_CLOCK_SCALE = 0.002  # 1+1 → 120 ms and 2 ms
    match = new_table("fast", [alice, bob], clock="1+1", rated=True)
    now = timeshift.now()
    play(match, [alice, bob], now)
    play(match, [alice, bob], now)  # both moved once: A's clock runs from here
    # Nobody moves and no socket is open: the task queued for the deadline flags A.
    assert wait_for(lambda: fresh(match).status == Match.Status.FINISHED)
    state = state_of(match)
    assert state.reason == "flagged" and state.winners == (1,)
    assert fresh(match).result_reason == "flagged"


def test_a_move_just_before_the_deadline_counts_and_one_after_flags(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="1+1")
    members = [alice, bob]
    play(match, members, T0)
    play(match, members, T0 + timedelta(seconds=2))  # A's clock runs from here
    clock = Clock.from_dict(fresh(match).clock_state)
    assert clock.running == 0
    deadline_ms = clock.deadline_ms()
    at = T0 + timedelta(milliseconds=deadline_ms - timeshift_ms(T0) - 1)
    play(match, members, at)  # 1 ms left: accepted, plus the increment
    after = Clock.from_dict(fresh(match).clock_state)
    assert after.remaining_ms[0] == 1 + 1000
    # Now B: one millisecond late.
    deadline_ms = after.deadline_ms()
    late = T0 + timedelta(milliseconds=deadline_ms - timeshift_ms(T0) + 1)
    moves = Move.objects.filter(game__match=match).count()
    with pytest.raises(TableError) as refused:
        play(match, members, late)
    assert refused.value.code == "game_over"
    assert Move.objects.filter(game__match=match).count() == moves
    state = state_of(match)
    assert state.status == "finished" and state.reason == "flagged" and state.winners == (0,)


def test_a_tick_that_comes_after_a_move_changes_nothing(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="1+1")
    play(match, [alice, bob], T0)
    play(match, [alice, bob], T0 + timedelta(seconds=1))
    old_deadline = fresh(match).deadline
    play(match, [alice, bob], T0 + timedelta(seconds=3))
    version = fresh(match).version
    # The task queued for the old deadline arrives late, early and twice: nothing happens.
    for now in (old_deadline + timedelta(seconds=30), T0, old_deadline):
        assert not services.match_tick(match_id=match.pk, now=now, deadline=old_deadline)
    assert fresh(match).version == version
    assert state_of(match).status == "playing"


def test_with_the_worker_down_the_sweep_flags_exactly_once_when_it_returns(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="1+1")
    play(match, [alice, bob], timeshift.now())
    play(match, [alice, bob], timeshift.now())
    version = fresh(match).version
    deadline = fresh(match).deadline
    timeshift.advance(120)  # the flag fell while no worker ran
    assert fresh(match).status == "playing"
    # The worker returns: the sweep (beat) runs again and again, and the tick queued for
    # the deadline arrives too. The first sweep flags; nothing after it changes anything.
    assert [tasks.clocks_sweep() for _ in range(3)] == [1, 0, 0]
    assert tasks.match_tick(match.pk, deadline.isoformat()) is False
    assert fresh(match).version == version + 1
    assert state_of(match).reason == "flagged"


def test_no_first_move_aborts_the_match(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2", rated=True)
    play(match, [alice, bob], timeshift.now())  # A moved; B never does
    timeshift.advance(29)
    assert tasks.clocks_sweep() == 0  # B's 30 seconds are not over
    assert fresh(match).status == "playing"
    timeshift.advance(2)
    assert tasks.clocks_sweep() == 1
    assert fresh(match).status == Match.Status.ABORTED
    assert state_of(match).reason == "aborted" and fresh(match).result_reason == "aborted"


def test_game_two_starts_after_the_ready_timeout(worker, new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2")
    play_opening(match, [alice, bob])
    services.game_resign(match_id=match.pk, user=alice, now=timeshift.now())
    assert fresh(match).status == "between_games"
    timeshift.advance(61)
    tasks.clocks_sweep.delay()
    assert wait_for(lambda: fresh(match).status == Match.Status.PLAYING)
    state = state_of(match)
    assert state.current.number == 2
    # From the first turn of game 2 the clock of the seat to move runs.
    assert Clock.from_dict(fresh(match).clock_state).running == state.current.position.to_move


def test_an_abandonment_claim_is_refused_before_a_minute_and_accepted_after(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2")
    play(match, [alice, bob], T0)
    play(match, [alice, bob], T0 + timedelta(seconds=1))
    play(match, [alice, bob], T0 + timedelta(seconds=2))  # B to move; B has no socket
    with pytest.raises(TableError) as early:
        services.match_claim(match_id=match.pk, user=alice, now=T0 + timedelta(seconds=59))
    assert early.value.code == "not_allowed"
    with pytest.raises(TableError):
        services.match_claim(match_id=match.pk, user=bob, now=T0 + timedelta(seconds=70))
    services.match_claim(match_id=match.pk, user=alice, now=T0 + timedelta(seconds=61))
    state = state_of(match)
    assert state.status == "finished" and state.reason == "abandoned" and state.winners == (0,)


def test_at_a_no_clock_table_five_idle_minutes_allow_a_claim(new_table, alice, bob):
    from games.models import Seat

    match = new_table("fast", [alice, bob])
    play(match, [alice, bob], T0)
    play(match, [alice, bob], T0 + timedelta(seconds=1))
    Seat.objects.filter(match=match).update(connected=True, absent_since=None)  # both here
    with pytest.raises(TableError):
        services.match_claim(match_id=match.pk, user=bob, now=T0 + timedelta(seconds=299))
    services.match_claim(match_id=match.pk, user=bob, now=T0 + timedelta(seconds=302))
    assert state_of(match).winners == (1,)


def test_increments_add_up_exactly_over_a_whole_match(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="1+1")
    members = [alice, bob]
    now = T0
    think = [700, 1300, 250, 2000, 900]
    turn = 0
    while state_of(match).status != "finished":
        state = state_of(match)
        if state.status == "between_games":
            services.match_ready(match_id=match.pk, user=alice, now=now)
            services.match_ready(match_id=match.pk, user=bob, now=now)
            continue
        now += timedelta(milliseconds=think[turn % len(think)])
        turn += 1
        play(match, members, now)
    # Replay the clock from the recorded moves: bank − thinking + increment per move.
    remaining = [60_000, 60_000]
    started = set()
    turn_began = {}
    for move in Move.objects.filter(game__match=match).order_by("game__number", "ply"):
        seat = move.seat
        if move.ply == 1 and move.game.number == 2:
            turn_began = {seat: move.game.started_at}
        if seat in started or move.game.number == 2:
            remaining[seat] -= int((move.played_at - turn_began[seat]).total_seconds() * 1000)
        remaining[seat] += 1000
        started.add(seat)
        assert move.clock_ms == remaining[seat], (move.game.number, move.ply)
        turn_began = {1 - seat: move.played_at}
    final = Clock.from_dict(fresh(match).clock_state)
    assert list(final.remaining_ms) == remaining and final.running is None


@pytest.mark.parametrize("attempt", range(4))
def test_a_move_and_the_flag_at_the_same_moment_leave_one_result(new_table, alice, bob, attempt):
    match = new_table("fast", [alice, bob], clock="1+1")
    play(match, [alice, bob], T0)
    play(match, [alice, bob], T0 + timedelta(seconds=1))
    deadline = fresh(match).deadline
    colour = legal_colour(state_of(match).current.position)
    barrier = threading.Barrier(2)
    outcome = {}

    def move():
        barrier.wait()
        try:
            services.move_play(
                match_id=match.pk,
                user=alice,
                ply=2,
                color=colour,
                received_at=deadline - timedelta(milliseconds=1),
            )
            outcome["move"] = "applied"
        except TableError as failure:
            outcome["move"] = failure.code
        finally:
            connections.close_all()

    def tick():
        barrier.wait()
        try:
            outcome["tick"] = services.match_tick(
                match_id=match.pk, now=deadline + timedelta(milliseconds=1)
            )
        finally:
            connections.close_all()

    threads = [threading.Thread(target=move), threading.Thread(target=tick)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    state = state_of(match)
    moves = Move.objects.filter(game__match=match).count()
    if outcome["move"] == "applied":
        # The move got the lock first: 1 ms was left; the tick then found nothing due.
        assert outcome["tick"] is False and state.status == "playing" and moves == 3
    else:
        # The flag fell first: the move was refused and nothing of it stored.
        assert outcome["tick"] is True and outcome["move"] == "game_over"
        assert state.reason == "flagged" and moves == 2


@pytest.fixture
def ticks(monkeypatch):
    """The ``match_tick`` tasks queued, as (match id, deadline), instead of sending them."""
    queued = []
    monkeypatch.setattr(
        "games.events.tick_at", lambda match_id, deadline, now: queued.append((match_id, deadline))
    )
    return queued


def test_moves_that_move_the_deadline_later_queue_no_task(ticks, new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="10+5")
    first = fresh(match).tick_due  # the abort deadline's task, queued when play began
    assert ticks == [(match.pk, first)]
    deadlines = []
    for second in range(8):
        play(match, [alice, bob], T0 + timedelta(seconds=second))
        deadlines.append(fresh(match).deadline)
    assert len(set(deadlines)) == 8 and first <= min(deadlines)  # every move moved it
    # No task more: the first one comes earlier and hands over (next test).
    assert ticks == [(match.pk, first)] and fresh(match).tick_due == first


def test_the_task_the_match_counts_on_hands_over_to_the_next(ticks, new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="10+5")
    for second in range(4):
        play(match, [alice, bob], T0 + timedelta(seconds=second))
    row = fresh(match)
    due, deadline, version = row.tick_due, row.deadline, row.version
    assert due < deadline
    ticks.clear()
    # Early (eager mode runs a task at once): nothing.
    assert not services.match_tick(match_id=match.pk, now=due - timedelta(seconds=1), deadline=due)
    assert ticks == [] and fresh(match).tick_due == due
    # On time, the deadline is later: the next task is queued for it; the match is as it was.
    assert not services.match_tick(match_id=match.pk, now=due, deadline=due)
    assert ticks == [(match.pk, deadline)]
    row = fresh(match)
    assert row.tick_due == deadline and row.version == version and row.status == "playing"
    # The same task delivered twice: it no longer answers for the match.
    assert not services.match_tick(match_id=match.pk, now=due, deadline=due)
    assert ticks == [(match.pk, deadline)]
    # The new one flags when its moment comes.
    assert services.match_tick(match_id=match.pk, now=deadline, deadline=deadline)
    assert state_of(match).reason == "flagged"


def test_a_task_that_never_came_is_queued_again_by_the_next_move(ticks, new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="10+5")
    for second in range(3):
        play(match, [alice, bob], T0 + timedelta(seconds=second))
    lost = fresh(match).tick_due
    ticks.clear()
    play(match, [alice, bob], lost + timedelta(seconds=1))  # its moment passed: lost
    row = fresh(match)
    assert ticks == [(match.pk, row.deadline)] and row.tick_due == row.deadline
