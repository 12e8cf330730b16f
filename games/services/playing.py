"""Playing: a move, the computer's move, ready for the next game, resigning.

Each function is one transaction that locks the match row (``access.locked_table``),
asks the engine once and stores what it returned (``commit.state_commit``); the events
go out after the commit. There is no other way to change a table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import timing
from games.access import locked_match, locked_table, player_seat_or_error, seats_for
from games.engine.clock import Clock
from games.engine.match import PLAYING, MatchState
from games.errors import TableError, interpolated
from games.models import Match
from games.services.commit import ACTIVE, engine_event, state_commit
from games.state import SeatRow


def move_play(
    *,
    match_id: int,
    user: User,
    ply: int,
    color: int | str,
    received_at: datetime,
) -> Match:
    """Play ``color`` for the user's seat if ``ply`` is the number of moves already played
    in the current game; otherwise ``stale`` and nothing changes. A move received after
    the mover's time ran out is refused, and the seat is flagged instead."""
    with transaction.atomic():
        match, seats = locked_table(match_id)
        seat = player_seat_or_error(seats, user, now=received_at)
        played = _play(match, seats, seat, ply, color, received_at)
    if played is None:
        raise TableError("game_over", _("Your time ran out before the move arrived."))
    return played


def bot_move(
    *,
    match_id: int,
    seat: int,
    ply: int,
    color: int | str,
    now: datetime,
    began_at: datetime | None = None,
) -> bool:
    """The computer plays ``color`` for ``seat`` if that seat is still to move at ``ply``
    (a takeback or a flag may have come first). ``began_at``: when the worker began the
    move; the computer's clock runs from then, not from when the task was queued (SPEC
    §3). Returns whether it played."""
    with transaction.atomic():
        match = locked_match(match_id)
        seats = seats_for(match_id)
        state = match.engine_state()
        if (
            seats[seat].bot_level is None
            or state.status != PLAYING
            or state.current.ply != ply
            or state.current.position.to_move != seat
        ):
            return False
        if began_at is not None and match.clock_state:
            clock = Clock.from_dict(match.clock_state)
            began_ms = timing.ms(began_at)
            if clock.running == seat and clock.since_ms is not None and clock.since_ms < began_ms:
                match.clock_state = replace(clock, since_ms=began_ms).to_dict()
        return _play(match, seats, seat, ply, color, now) is not None


def _play(
    match: Match,
    seats: list[SeatRow],
    seat: int,
    ply: int,
    color: int | str,
    received_at: datetime,
) -> Match | None:
    """A move of ``seat`` on the locked match, checked against the game and the clock.
    None when the mover's time had run out: the seat is flagged instead."""
    state = match.engine_state()
    if state.status != PLAYING:
        raise TableError("game_over", _("No game is being played now."))
    game = state.current
    if ply != game.ply:
        raise TableError(
            "stale",
            interpolated(
                _("The board changed meanwhile: the game is at move %(ply)d."), {"ply": game.ply}
            ),
        )
    at = timing.ms(received_at)
    clock = Clock.from_dict(match.clock_state) if match.clock_state else None
    flagged = clock.flagged(at) if clock is not None else None
    if flagged is not None:
        state_commit(match, seats, state, engine_event(state.flag, flagged), now=received_at)
        return None
    new = engine_event(state.play, seat, color)
    after = new.games[game.number - 1]
    clock_ms = None
    if clock is not None:
        next_seat = after.position.to_move if new.status == PLAYING else None
        clock = clock.press(seat, at_ms=at, next_seat=next_seat)
        match.clock_state = clock.to_dict()
        clock_ms = clock.remaining_ms[seat]
    move = {
        "game_id": match.current_game_id,
        "ply": ply + 1,
        "seat": seat,
        "color": None if color == "swap" else color,
        "gained": after.log[-1][1],
        "clock_ms": clock_ms,
        "played_at": received_at,
    }
    return state_commit(match, seats, state, new, now=received_at, move=move)


def match_ready(
    *,
    match_id: int,
    user: User,
    now: datetime,
) -> Match:
    """The player is ready for the next game; it starts when every player is."""
    return _player_event(match_id, user, MatchState.ready_for_next, now)


def game_resign(
    *,
    match_id: int,
    user: User,
    now: datetime,
) -> Match:
    """Give up the current game only; the next game is still played."""
    return _player_event(match_id, user, MatchState.resign_game, now)


def match_resign(
    *,
    match_id: int,
    user: User,
    now: datetime,
) -> Match:
    """Give up the match (three or four seats: leave it, the others play on)."""
    return _player_event(match_id, user, MatchState.resign_match, now)


RESIGNATIONS = (MatchState.resign_game, MatchState.resign_match)


def _player_event(
    match_id: int,
    user: User,
    event: Callable,
    now: datetime,
) -> Match:
    """Lock the match, check the user is a player there, and store ``event(state, seat)``."""
    with transaction.atomic():
        match, seats = locked_table(match_id)
        seat = player_seat_or_error(seats, user, now=now)
        if match.status not in (*ACTIVE, Match.Status.FINISHED, Match.Status.ABORTED):
            raise TableError("not_allowed", _("The match has not started yet."))
        state = match.engine_state()
        if event in RESIGNATIONS and state.can_abort:
            # Before every seat has moved in game 1 a resignation aborts the match
            # (SPEC §3): nobody gains rating from a match that was never played.
            aborted = engine_event(state.abort, by=seat)
            return state_commit(match, seats, state, aborted, now=now)
        return state_commit(match, seats, state, engine_event(event, state, seat), now=now)
