import pytest

from games.engine.clock import Clock, parse_preset


def test_presets():
    assert parse_preset("1+1") == (60_000, 1_000)
    assert parse_preset("10+5") == (600_000, 5_000)
    with pytest.raises(ValueError):
        parse_preset("4+4")


def test_no_clock_runs_before_a_seats_first_move_then_fischer():
    clock = Clock.for_preset("3+2", seats=2)
    clock = clock.press(0, at_ms=10_000, next_seat=1)
    assert clock.running is None and clock.remaining_ms == (182_000, 180_000)
    clock = clock.press(1, at_ms=25_000, next_seat=0)
    assert clock.running == 0 and clock.remaining_ms == (182_000, 182_000)
    assert clock.remaining(0, at_ms=30_000) == 177_000
    clock = clock.press(0, at_ms=30_000, next_seat=1)
    assert clock.remaining_ms == (179_000, 182_000) and clock.running == 1
    assert clock.deadline_ms() == 30_000 + 182_000


def test_flag_and_stop():
    clock = Clock(
        remaining_ms=(1_000, 5_000),
        increment_ms=0,
        running=0,
        since_ms=0,
        started=frozenset({0, 1}),
    )
    assert clock.flagged(at_ms=999) is None
    assert clock.flagged(at_ms=1_000) == 0
    assert clock.remaining(0, at_ms=5_000) == 0
    stopped = clock.stop(at_ms=400)
    assert stopped.running is None and stopped.remaining_ms == (600, 5_000)
    assert stopped.flagged(at_ms=10_000) is None


def test_game_two_starts_the_first_seats_clock_at_once():
    clock = Clock.for_preset("1+1", seats=2).start_next_game(1, at_ms=0)
    assert clock.running == 1 and clock.started == frozenset({0, 1})
    assert clock.remaining(1, at_ms=2_000) == 58_000


def test_round_trip():
    clock = Clock.for_preset("5+3", seats=4).press(2, at_ms=1, next_seat=3)
    assert Clock.from_dict(clock.to_dict()) == clock
