"""Every write at a table: one transaction each, the match row locked for every change.

Services drive the engine's pure :class:`MatchState` and store what it returns; the
events they cause go out after the transaction commits (``games.events``), so a
rolled-back change is never broadcast. Times are passed in (``now``, ``received_at``):
the consumer stamps a move when it arrives, tests inject the time they need.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest

from accounts.models import User
from games import events
from games.access import locked_match, player_seat_or_error, seat_of
from games.engine import VARIANTS
from games.engine.clock import PRESETS, Clock
from games.engine.match import FINISHED, PLAYING, MatchError, MatchState
from games.errors import TableError
from games.models import ChatMessage, Game, Match, Move, Seat

NEXT_GAME_WAIT = timedelta(seconds=60)
REMATCH_WINDOW = timedelta(seconds=60)
CHAT_MAX_LENGTH = 500
CHAT_RATE = (5, 10)  # at most 5 messages per 10 seconds per member


def _ms(at: datetime) -> int:
    return int(at.timestamp() * 1000)


# --- creating and starting ------------------------------------------------------------


def match_create(
    *,
    variant: str,
    members: Sequence[User],
    now: datetime,
    rated: bool = False,
    single_game: bool = False,
    clock: str = "",
    seed: int | None = None,
    created_by: User | None = None,
) -> Match:
    """Create a table for ``members`` (in seat order A, B, …) and start its match.

    >>> match_create(variant="fast", members=[alice, bob], now=timezone.now())  # doctest: +SKIP
    """
    definition = VARIANTS.get(variant)
    if definition is None or variant == "practice":
        raise TableError("invalid", f"no table variant {variant!r}")
    if len(members) != definition.seats:
        raise TableError("invalid", f"{definition.name} needs {definition.seats} players")
    if len({member.pk for member in members}) != len(members):
        raise TableError("invalid", "a member can take only one seat")
    if any(member.is_banned(now) for member in members):
        raise TableError("invalid", "a banned member cannot play")
    if clock and clock not in PRESETS:
        raise TableError("invalid", f"unknown clock {clock!r}")
    single = definition.format == "single" or single_game
    if rated and (definition.rated_scale is None or single or not clock):
        raise TableError("invalid", "only matches of a rated variant with a clock can be rated")
    seed = secrets.randbits(31) if seed is None else seed
    board = definition.new_position(seed)
    with transaction.atomic():
        match = Match.objects.create(
            variant=variant,
            rated=rated,
            format=Match.Format.SINGLE if single else Match.Format.MATCH,
            clock=clock,
            seed=seed,
            board=board.to_text(),
            created_by=created_by,
        )
        Seat.objects.bulk_create(
            Seat(match=match, seat=index, member=member, team=_side(board, index))
            for index, member in enumerate(members)
        )
        _start(match, now=now)
    return match


def _side(position, seat: int) -> int:
    return next(i for i, side in enumerate(position.sides) if seat in side)


def _start(match: Match, *, now: datetime) -> None:
    from games.engine import Position

    board = Position.from_text(match.board)
    state = MatchState.new(board, games=1 if match.format == Match.Format.SINGLE else 2)
    if match.clock:
        match.clock_state = Clock.for_preset(match.clock, board.seats).to_dict()
    match.started_at = now
    _commit(match, None, state, now=now)


# --- playing --------------------------------------------------------------------------


@transaction.atomic
def move_play(
    *, match_id: int, user: User, ply: int, color: int | str, received_at: datetime
) -> Match:
    """Play ``color`` for the user's seat if ``ply`` is the number of moves already played
    in the current game; otherwise ``stale`` and nothing changes."""
    match = locked_match(match_id)
    seat = player_seat_or_error(match, user)
    state = MatchState.from_dict(match.state)
    if state.status != PLAYING:
        raise TableError("game_over", "no game is being played at this table")
    game = state.current
    if ply != game.ply:
        raise TableError("stale", f"the game is at ply {game.ply}, not {ply}")
    new = _event(state.play, seat, color)
    before, after = game.position, new.games[game.number - 1].position
    gained = 0 if color == "swap" else len(after.territory(seat)) - len(before.territory(seat))
    clock_ms = None
    if match.clock_state:
        clock = Clock.from_dict(match.clock_state)
        next_seat = None if new.status != PLAYING else after.to_move
        clock = clock.press(seat, at_ms=_ms(received_at), next_seat=next_seat)
        match.clock_state = clock.to_dict()
        clock_ms = clock.remaining_ms[seat]
    Move.objects.create(
        game=Game.objects.get(match=match, number=game.number),
        ply=ply + 1,
        seat=seat,
        color=None if color == "swap" else color,
        gained=gained,
        clock_ms=clock_ms,
        played_at=received_at,
    )
    return _commit(match, state, new, now=received_at)


@transaction.atomic
def match_ready(*, match_id: int, user: User, now: datetime) -> Match:
    """The player is ready for the next game; it starts when every player is."""
    return _player_event(match_id, user, MatchState.ready_for_next, now=now)


@transaction.atomic
def match_next_game_if_due(*, match_id: int, now: datetime) -> bool:
    """Start the next game once the wait between games is over (a Celery task calls this)."""
    match = locked_match(match_id)
    state = MatchState.from_dict(match.state)
    if match.status != Match.Status.BETWEEN_GAMES:
        return False
    ended = Game.objects.get(match=match, number=state.current.number).finished_at
    if ended is None or now < ended + NEXT_GAME_WAIT:
        return False
    _commit(match, state, state.start_next_game(), now=now)
    return True


@transaction.atomic
def game_resign(*, match_id: int, user: User, now: datetime) -> Match:
    """Give up the current game only; the next game is still played."""
    return _player_event(match_id, user, MatchState.resign_game, now=now)


@transaction.atomic
def match_resign(*, match_id: int, user: User, now: datetime) -> Match:
    """Give up the match (three or four seats: leave it, the others play on)."""
    return _player_event(match_id, user, MatchState.resign_match, now=now)


def _player_event(match_id: int, user: User, event, *, now: datetime) -> Match:
    """Lock the match, check the user is a player there, and store ``event(state, seat)``."""
    match = locked_match(match_id)
    seat = player_seat_or_error(match, user)
    state = MatchState.from_dict(match.state)
    return _commit(match, state, _event(event, state, seat), now=now)


@transaction.atomic
def rematch_offer(*, match_id: int, user: User, now: datetime) -> Match:
    """Offer or accept a rematch; when every player accepts within 60 s a new match with
    the same variant, clock and seats (a new board) starts."""
    match = locked_match(match_id)
    seat = player_seat_or_error(match, user)
    if match.status != Match.Status.FINISHED:
        raise TableError("not_allowed", "a rematch can be offered once the match is over")
    if match.rematch_id:
        return match
    seats = list(match.seats.all())
    if any(s.member_id is None for s in seats):
        raise TableError("not_allowed", "a player of this match has left the site")
    expired = match.rematch_offered_at is None or now - match.rematch_offered_at > REMATCH_WINDOW
    accepted = [] if expired else list(match.rematch_accepted)
    if expired:
        match.rematch_offered_at = now
    if seat not in accepted:
        accepted.append(seat)
    match.rematch_accepted = sorted(accepted)
    if len(accepted) == len(seats):
        match.rematch = match_create(
            variant=match.variant,
            members=[s.member for s in seats],
            now=now,
            rated=match.rated,
            single_game=match.format == Match.Format.SINGLE,
            clock=match.clock,
        )
    return _bump(match)


def member_leave_all(*, member: User, **kwargs) -> None:
    """A member deletes their account: they resign every match they are still playing
    (answers ``accounts.signals.member_deleting``, inside that transaction)."""
    from django.utils import timezone

    active = [Match.Status.PLAYING, Match.Status.BETWEEN_GAMES]
    for match_id in Match.objects.filter(seats__member=member, status__in=active).values_list(
        "pk", flat=True
    ):
        match_resign(match_id=match_id, user=member, now=timezone.now())


# --- presence and chat ----------------------------------------------------------------


@transaction.atomic
def presence_join(*, match_id: int, user: User | None) -> int | None:
    """A socket opened: a player's seat is connected, or one more spectator. Returns the seat."""
    match = locked_match(match_id)
    seat = seat_of(match, user)
    if seat is None:
        match.spectators += 1
    else:
        Seat.objects.filter(match=match, seat=seat).update(connections=F("connections") + 1)
    _bump(match)
    return seat


@transaction.atomic
def presence_leave(*, match_id: int, seat: int | None) -> None:
    match = locked_match(match_id)
    if seat is None:
        match.spectators = max(0, match.spectators - 1)
    else:
        Seat.objects.filter(match=match, seat=seat).update(
            connections=Greatest(F("connections") - 1, 0)
        )
    _bump(match)


def chat_post(*, match_id: int, user: User | None, text: str, now: datetime) -> ChatMessage:
    """Post a chat message. During rated matches spectators chat among themselves."""
    if user is None or not user.is_authenticated:
        raise TableError("not_allowed", "log in to chat")
    if user.is_banned(now):
        raise TableError("not_allowed", "your account is banned")
    if user.is_chat_muted(now):
        raise TableError("not_allowed", "the moderators have muted your chat")
    text = text.strip()
    if not text or len(text) > CHAT_MAX_LENGTH:
        raise TableError("bad_message", f"a chat message has 1 to {CHAT_MAX_LENGTH} characters")
    limit, window = CHAT_RATE
    key = f"chat-rate:{user.pk}:{int(now.timestamp()) // window}"
    cache.add(key, 0, timeout=window * 2)
    if cache.incr(key) > limit:
        raise TableError("rate_limited", f"at most {limit} messages per {window} seconds")
    match = Match.objects.prefetch_related("seats").filter(pk=match_id).first()
    if match is None:
        raise TableError("not_found", "no such table")
    in_play = match.status in (Match.Status.PLAYING, Match.Status.BETWEEN_GAMES)
    spectator = seat_of(match, user) is None
    audience = (
        ChatMessage.Audience.SPECTATORS
        if match.rated and in_play and spectator
        else ChatMessage.Audience.EVERYONE
    )
    with transaction.atomic():
        message = ChatMessage.objects.create(
            match=match, author=user, text=text, audience=audience, created_at=now
        )
        transaction.on_commit(partial(events.chat_posted, message.pk))
    return message


# --- internals ------------------------------------------------------------------------


def _event(handler, *args) -> MatchState:
    try:
        return handler(*args)
    except MatchError as error:
        raise TableError(error.code, str(error)) from error


def _bump(match: Match) -> Match:
    match.version += 1  # the row is locked: no lost update
    match.save()
    transaction.on_commit(partial(events.table_changed, match.pk))
    return match


def _commit(match: Match, old: MatchState | None, new: MatchState, *, now: datetime) -> Match:
    """Store the engine's new state with its record (games), the clock and the version."""
    old_games = old.games if old else ()
    for game in new.games:
        previous = old_games[game.number - 1] if game.number <= len(old_games) else None
        if previous is None:
            Game.objects.create(
                match=match,
                number=game.number,
                start=game.start.to_text(),
                first_seat=game.first_seat,
                corners=list(game.corners),
                started_at=now,
            )
        if game.over and (previous is None or not previous.over):
            Game.objects.filter(match=match, number=game.number).update(
                final=game.position.to_text(),
                scores=list(game.position.scores),
                winners=list(game.winners),
                reason=game.reason,
                finished_at=now,
            )
    if match.clock_state:
        match.clock_state = _clock_after(
            Clock.from_dict(match.clock_state), old, new, at_ms=_ms(now)
        ).to_dict()
    was_between = old is not None and old.status == "between_games"
    match.state = new.to_dict()
    match.status = new.status
    if new.status in (FINISHED, "aborted") and (old is None or old.status != new.status):
        match.finished_at = now
        match.result_reason = new.reason or ""
    if new.status == "between_games" and not was_between:
        transaction.on_commit(partial(events.between_games_started, match.pk))
    return _bump(match)


def _clock_after(clock: Clock, old: MatchState | None, new: MatchState, *, at_ms: int) -> Clock:
    """Keep the running clock on the seat to move (SPEC §3)."""
    if new.status != PLAYING:
        return clock.stop(at_ms=at_ms)
    to_move = new.current.position.to_move
    if old is not None and len(new.games) > len(old.games):
        return clock.start_next_game(to_move, at_ms=at_ms)
    if clock.running != to_move:
        return clock.switch_to(to_move, at_ms=at_ms)
    return clock
