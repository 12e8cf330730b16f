import pytest

from games.engine.clock import Clock, ClockError, clock_text, parse_preset


def test_presets():
    assert parse_preset("1+1") == (60_000, 1_000)
    assert parse_preset("10+5") == (600_000, 5_000)


@pytest.mark.parametrize(
    ("text", "bank_ms", "increment_ms"),
    [
        ("7+4", 420_000, 4_000),
        ("0.5+0", 30_000, 0),
        ("60+30", 3_600_000, 30_000),
        ("4+4", 240_000, 4_000),
    ],
)
def test_a_clock_of_ones_own(text, bank_ms, increment_ms):
    assert parse_preset(text) == (bank_ms, increment_ms)
    assert clock_text(bank_ms, increment_ms) == text
    assert Clock.for_preset(text, seats=2).remaining_ms == (bank_ms, bank_ms)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("abc", "format"),
        ("7+", "format"),
        ("+4", "format"),
        ("-1+2", "format"),
        ("1e3+0", "format"),
        ("7 + 4", "format"),
        ("07+4", "format"),  # one text for one clock: 7+4
        ("1.0+0", "format"),
        ("7+04", "format"),
        ("", "format"),
        ("٧+4", "format"),  # digits of another script
        ("61+0", "minutes"),
        ("0+5", "minutes"),
        ("0.25+0", "minutes"),
        ("1.5+0", "minutes"),
        ("7+31", "increment"),
    ],
)
def test_clocks_the_site_does_not_play(text, reason):
    with pytest.raises(ClockError) as refused:
        parse_preset(text)
    assert refused.value.reason == reason
    assert isinstance(refused.value, ValueError)


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
