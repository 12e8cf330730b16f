"""Playing: a move, the computer's move, ready for the next game, resigning.

Each function is one transaction that locks the match row (``access.locked_table``),
asks the engine and stores what it returned (``commit.state_commit``). The one exception
is the move a socket makes from the version this process committed last: it is worked
out from what the process kept and saved on condition that the row is still at that
version (``store.Guard``), without the lock; when that condition fails, the move takes
the lock like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import store, timing
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
    session_key: str | None = None,
    version: int | None = None,
    password: str | None = None,
) -> Match:
    """Play ``color`` for the user's seat if ``ply`` is the number of moves already played
    in the current game; otherwise ``stale`` and nothing changes. A move received after
    the mover's time ran out is refused, and the seat is flagged instead. With
    ``session_key`` (a socket's), a session that ended acts no more. ``version``: the
    match's version the mover last saw; when this process committed that very version
    last, the move is worked out from what it kept (``store.kept_table``)."""
    if version is not None:
        played = _play_kept(match_id, user, ply, color, received_at, session_key, version, password)
        if played is not None:
            return played
    with transaction.atomic():
        match, seats = locked_table(
            match_id, session_key=session_key, now=received_at, password=password
        )
        seat = player_seat_or_error(seats, user, now=received_at)
        played = _play(match, seats, seat, ply, color, received_at)
    if played is None:
        raise TableError("game_over", _("Your time ran out before the move arrived."))
    return played


def _play_kept(
    match_id: int,
    user: User,
    ply: int,
    color: int | str,
    received_at: datetime,
    session_key: str | None,
    version: int,
    password: str | None,
) -> Match | None:
    """``move_play`` from the version this process kept, without the lock; None when
    that cannot be: the lock's way then decides, refusals included (what was kept says
    nothing of a session or a ban, and a refusal is rare)."""
    kept = store.kept_table(match_id, version)
    if kept is None or user is None or not user.is_authenticated:
        return None
    match, seats = kept
    guard = store.Guard(version, user.pk, session_key, received_at, password)
    try:
        with store.guarded():
            seat = player_seat_or_error(seats, user)
            return _play(match, seats, seat, ply, color, received_at, guard=guard)
    except (store.Moved, TableError):  # a revoked session too
        return None


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
        state = store.engine_state(match)
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
    *,
    guard: store.Guard | None = None,
) -> Match | None:
    """A move of ``seat`` on the locked match, checked against the game and the clock.
    None when the mover's time had run out: the seat is flagged instead. ``guard``: the
    match is a kept version, not locked (``_play_kept``): anything but a plain move (a
    flag, a game's end) is left to the lock's way."""
    state = store.engine_state(match)
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
        if guard is not None:
            raise store.Moved
        state_commit(match, seats, state, engine_event(state.flag, flagged), now=received_at)
        return None
    new = engine_event(state.play, seat, color)
    after = new.games[game.number - 1]
    if guard is not None and (new.status != PLAYING or new.current is not after or after.over):
        raise store.Moved  # the game or the match ends: more than a move's statements
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
    return state_commit(match, seats, state, new, now=received_at, move=move, guard=guard)


def match_ready(
    *,
    match_id: int,
    user: User,
    now: datetime,
    session_key: str | None = None,
    password: str | None = None,
) -> Match:
    """The player is ready for the next game; it starts when every player is."""
    return _player_event(match_id, user, MatchState.ready_for_next, now, session_key, password)


def game_resign(
    *,
    match_id: int,
    user: User,
    now: datetime,
    session_key: str | None = None,
    password: str | None = None,
) -> Match:
    """Give up the current game only; the next game is still played."""
    return _player_event(match_id, user, MatchState.resign_game, now, session_key, password)


def match_resign(
    *,
    match_id: int,
    user: User,
    now: datetime,
    session_key: str | None = None,
    password: str | None = None,
) -> Match:
    """Give up the match (three or four seats: leave it, the others play on)."""
    return _player_event(match_id, user, MatchState.resign_match, now, session_key, password)


RESIGNATIONS = (MatchState.resign_game, MatchState.resign_match)


def _player_event(
    match_id: int,
    user: User,
    event: Callable,
    now: datetime,
    session_key: str | None,
    password: str | None = None,
) -> Match:
    """Lock the match, check the user is a player there, and store ``event(state, seat)``."""
    with transaction.atomic():
        match, seats = locked_table(match_id, session_key=session_key, now=now, password=password)
        seat = player_seat_or_error(seats, user, now=now)
        if match.status not in (*ACTIVE, Match.Status.FINISHED, Match.Status.ABORTED):
            raise TableError("not_allowed", _("The match has not started yet."))
        state = store.engine_state(match)
        if event in RESIGNATIONS and state.can_abort:
            # Before every seat has moved in game 1 a resignation aborts the match
            # (SPEC §3): nobody gains rating from a match that was never played.
            return state_commit(match, seats, state, engine_event(state.abort), now=now)
        return state_commit(match, seats, state, engine_event(event, state, seat), now=now)
