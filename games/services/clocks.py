"""The clock and the deadlines of a match: what ``commit`` stores with every change.

Every function here is pure: it reads the match row and engine states it is given and
returns what they imply (a new clock, the next deadline, whether a task must be queued);
nothing is read from or written to the database.
"""

from __future__ import annotations

from datetime import datetime

from games import timing
from games.engine.clock import Clock, parse_preset
from games.engine.match import BETWEEN_GAMES, PLAYING, MatchState
from games.models import Match


def clock_new(preset: str, seats: int) -> Clock:
    """A match's clock from its preset ("3+2"): every seat's bank, the increment."""
    bank, increment = parse_preset(preset)
    scale = timing.clock_scale()  # 1 in production; tests run short clocks
    return Clock(remaining_ms=(int(bank * scale),) * seats, increment_ms=int(increment * scale))


def clock_after(clock: Clock, old: MatchState | None, new: MatchState, *, at_ms: int) -> Clock:
    """Keep the running clock on the seat to move (SPEC §3)."""
    if new.status != PLAYING:
        return clock.stop(at_ms=at_ms)
    to_move = new.current.position.to_move
    if old is not None and len(new.games) > len(old.games):
        return clock.start_next_game(to_move, at_ms=at_ms)
    if clock.running != to_move:
        return clock.switch_to(to_move, at_ms=at_ms)
    return clock


def turn_of(state: MatchState | None) -> tuple | None:
    """What identifies a turn: a new one starts whenever this changes."""
    if state is None:
        return None
    game = state.current
    return (state.status, game.number, game.ply, game.position.to_move, game.over)


def deadline_next(
    match: Match, old: MatchState | None, new: MatchState, *, now: datetime
) -> datetime | None:
    """The next moment something happens by itself: the running clock's zero, the abort
    of a match whose first moves did not come, or the start of game 2."""
    if new.status == BETWEEN_GAMES:
        if old is not None and old.status == BETWEEN_GAMES and match.deadline is not None:
            return match.deadline
        return now + timing.seconds("GAME_NEXT_GAME_SECONDS")
    if new.status != PLAYING:
        return None
    moments = []
    if match.clock_state:
        ends = Clock.from_dict(match.clock_state).deadline_ms()
        if ends is not None:
            moments.append(datetime.fromtimestamp(ends / 1000, tz=now.tzinfo))
    if new.can_abort and match.turn_started_at is not None:
        moments.append(match.turn_started_at + timing.seconds("GAME_ABORT_SECONDS"))
    return min(moments) if moments else None


def tick_due_set(match: Match, now: datetime) -> bool:
    """Whether the worker must be asked to look at the match at its deadline (then
    ``tick_due`` is set to it; the caller saves it and queues ``match_tick`` after
    commit). Not when a task already comes at or before the deadline: that task queues the
    next one (``timeouts.match_tick``), so a move that moves the deadline later, as most
    do, queues nothing. A task that is overdue may have been lost (the broker restarted):
    then a new one is queued."""
    if match.deadline is None:
        return False
    due = match.tick_due
    if due is not None and now < due <= match.deadline:
        return False
    match.tick_due = match.deadline
    return True
