"""Matches: create and start, play, ready, resign, claim, the clock's tick, rematch.

Each function is one transaction that locks the match row. ``_commit`` stores what the
engine returned, builds the new public state from what it holds (no read-back), saves
only the columns that changed, and registers the notifications for after the commit.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import events, rows, timing
from games import state as public
from games.access import locked_match, locked_table, player_seat_or_error, seats_for
from games.engine import VARIANTS, Position
from games.engine.bots import LEVELS as BOT_LEVELS
from games.engine.clock import PRESETS, Clock, parse_preset
from games.engine.match import ABORTED, BETWEEN_GAMES, FINISHED, PLAYING, MatchError, MatchState
from games.errors import TableError, from_engine, interpolated
from games.models import Game, Match, Seat
from games.state import SeatRow
from games.topics import variant_name
from ratings.selectors import current_ratings, match_rating_changes
from ratings.services import match_result_record

ACTIVE = (Match.Status.PLAYING, Match.Status.BETWEEN_GAMES)


# --- creating and starting ------------------------------------------------------------


def table_settings_check(*, variant: str, clock: str, rated: bool, single_game: bool) -> bool:
    """Check a table's settings (SPEC §2, §10); returns whether it is a single game."""
    definition = VARIANTS.get(variant)
    if definition is None or variant == "practice":
        raise TableError("invalid", _("There is no such variant."))
    if clock and clock not in PRESETS:
        raise TableError("invalid", _("There is no such clock."))
    single = definition.format == "single" or single_game
    if rated and definition.rated_scale is None:
        raise TableError("invalid", _("This variant is never rated."))
    if rated and not clock:
        raise TableError("invalid", _("A rated table needs a clock."))
    if rated and single:
        raise TableError("invalid", _("Only matches of two games are rated."))
    return single


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
    table: Match | None = None,
    private: bool = False,
    bots: dict[int, int] | None = None,
    practice: bool = False,
) -> Match:
    """Seat ``members`` (in seat order A, B, …, skipping the seats of ``bots``: seat →
    computer level) at a new table and start its match. Every way to a match ends here: a
    waiting ``table`` that filled (it is started in place), an accepted challenge, Play
    now, a practice table, a rematch, and the tests.

    >>> match_create(variant="fast", members=[alice, bob], now=timezone.now())  # doctest: +SKIP
    """
    bots = bots or {}
    single = table_settings_check(
        variant=variant, clock=clock, rated=rated, single_game=single_game
    )
    definition = VARIANTS[variant]
    if len(members) + len(bots) != definition.seats or not all(
        0 <= seat < definition.seats and level in BOT_LEVELS for seat, level in bots.items()
    ):
        raise TableError(
            "invalid",
            _("%(variant)s needs %(count)d players.")
            % {"variant": variant_name(variant), "count": definition.seats},
        )
    if bots and rated:
        raise TableError("invalid", _("Tables with the computer are never rated."))
    if len({member.pk for member in members}) != len(members):
        raise TableError("invalid", _("A member can take only one seat."))
    if any(member.is_banned(now) for member in members):
        raise TableError("invalid", _("A banned member cannot play."))
    with transaction.atomic():
        if table is None:
            seed = secrets.randbits(31) if seed is None else seed
            match = Match.objects.create(
                variant=variant,
                rated=rated and not private,
                private=private,
                practice=practice,
                format=Match.Format.SINGLE if single else Match.Format.MATCH,
                clock=clock,
                seed=seed,
                board=definition.new_position(seed).to_text(),
                created_by=created_by,
            )
        else:
            match = table
            Seat.objects.filter(match=match).delete()  # seated again, in the final order
        board = Position.from_text(match.board)
        scale = definition.rated_scale
        ratings = current_ratings([m.pk for m in members], scale) if scale else {}
        people = iter(members)
        seated = [(index, None if index in bots else next(people)) for index in range(board.seats)]
        Seat.objects.bulk_create(
            Seat(
                match=match,
                seat=index,
                member=member,
                bot_level=bots.get(index),
                team=_side(board, index),
                rating=_shown(ratings.get(member.pk)) if member else None,
                joined_at=now,
                absent_since=None if member is None else now,
                connected=member is None,  # the computer is always there
            )
            for index, member in seated
        )
        seats = [
            SeatRow(
                index,
                member.pk if member else None,
                member.username if member else None,
                _shown(ratings.get(member.pk)) if member else None,
                member is None,
                None if member is None else now,
                bot_level=bots.get(index),
            )
            for index, member in seated
        ]
        _start(match, seats, board, now=now)
        started = {"kind": "started", "url": public.table_url(match, neutral=True)}
        for member in members:  # everyone seated goes to the table at once
            transaction.on_commit(partial(events.member_notify, member.pk, started))
    return match


def _shown(rating) -> float | None:
    """The rating shown at a seat: rounded; none while provisional (SPEC §4: "?")."""
    if rating is None or rating.provisional:
        return None
    return round(rating.rating)


def match_url(match: Match) -> str:
    """The table page: by token for a private table, by id otherwise."""
    return public.table_url(match)


def _side(position: Position, seat: int) -> int:
    return next(i for i, side in enumerate(position.sides) if seat in side)


def _new_clock(preset: str, seats: int) -> Clock:
    bank, increment = parse_preset(preset)
    scale = timing.clock_scale()  # 1 in production; tests run short clocks
    return Clock(remaining_ms=(int(bank * scale),) * seats, increment_ms=int(increment * scale))


def _start(match: Match, seats: list[SeatRow], board: Position, *, now: datetime) -> None:
    state = MatchState.new(board, games=1 if match.format == Match.Format.SINGLE else 2)
    if match.clock:
        match.clock_state = _new_clock(match.clock, board.seats).to_dict()
    match.started_at = now
    _commit(match, seats, None, state, now=now, fields={"clock_state", "started_at"})
    transaction.on_commit(events.lobby_changed)


# --- playing --------------------------------------------------------------------------


def move_play(
    *,
    match_id: int,
    user: User,
    ply: int,
    color: int | str,
    received_at: datetime,
    session_key: str | None = None,
    version: int | None = None,
) -> Match:
    """Play ``color`` for the user's seat if ``ply`` is the number of moves already played
    in the current game; otherwise ``stale`` and nothing changes. A move received after
    the mover's time ran out is refused, and the seat is flagged instead. With
    ``session_key`` (a socket's), a session that ended acts no more. ``version``: the
    match's version the mover last saw; when this process committed that very version
    last, the move is worked out from what it kept and stored in one round trip, on
    condition that the row is still at that version (``rows.Guard``); otherwise, and for
    anything but a plain move, the usual way under the lock."""
    if version is not None:
        played = _play_kept(match_id, user, ply, color, received_at, session_key, version)
        if played is not None:
            return played
    with transaction.atomic():
        match, seats = locked_table(match_id, session_key=session_key, now=received_at)
        seat = player_seat_or_error(seats, user, now=received_at)
        played = _play(match, seats, seat, ply, color, received_at, last=True)
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
) -> Match | None:
    """``move_play`` from the version this process kept, without the lock; None when
    that cannot be: the lock's way then decides, refusals included (what was kept says
    nothing of a session or a ban, and a refusal is rare)."""
    kept = rows.kept_table(match_id, version)
    if kept is None or user is None or not user.is_authenticated:
        return None
    match, seats = kept
    guard = rows.Guard(version, user.pk, session_key, received_at)
    try:
        with transaction.atomic():
            seat = player_seat_or_error(seats, user)
            return _play(match, seats, seat, ply, color, received_at, last=True, guard=guard)
    except (rows.Moved, TableError):  # a revoked session too
        return None


def bot_move(*, match_id: int, seat: int, ply: int, color: int | str, now: datetime) -> bool:
    """The computer plays ``color`` for ``seat`` if that seat is still to move at ``ply``
    (a takeback or a flag may have come first). Returns whether it played."""
    with transaction.atomic():
        match = locked_match(match_id)
        seats = seats_for(match_id)
        state = rows.engine_state(match)
        if (
            seats[seat].bot_level is None
            or state.status != PLAYING
            or state.current.ply != ply
            or state.current.position.to_move != seat
        ):
            return False
        return _play(match, seats, seat, ply, color, now) is not None


def _play(
    match: Match,
    seats: list[SeatRow],
    seat: int,
    ply: int,
    color: int | str,
    received_at,
    *,
    last: bool = False,
    guard: rows.Guard | None = None,
) -> Match | None:
    """A move of ``seat`` on the locked match, checked against the game and the clock.
    None when the mover's time had run out: the seat is flagged instead. ``last``: the
    caller's transaction ends with it (``_bump``). ``guard``: the match is a kept version,
    not locked (``_play_kept``)."""
    state = rows.engine_state(match)
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
            raise rows.Moved  # a flag: the lock's way
        _commit(match, seats, state, _event(state.flag, flagged), now=received_at, last=last)
        return None
    new = _event(state.play, seat, color)
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
    if guard is not None and (new.status != PLAYING or new.current is not after or after.over):
        raise rows.Moved  # the game or the match ends: more than a move's statement
    return _commit(match, seats, state, new, now=received_at, move=move, last=last, guard=guard)


def match_ready(
    *, match_id: int, user: User, now: datetime, session_key: str | None = None
) -> Match:
    """The player is ready for the next game; it starts when every player is."""
    return _player_event(match_id, user, MatchState.ready_for_next, now, session_key)


def game_resign(
    *, match_id: int, user: User, now: datetime, session_key: str | None = None
) -> Match:
    """Give up the current game only; the next game is still played."""
    return _player_event(match_id, user, MatchState.resign_game, now, session_key)


def match_resign(
    *, match_id: int, user: User, now: datetime, session_key: str | None = None
) -> Match:
    """Give up the match (three or four seats: leave it, the others play on)."""
    return _player_event(match_id, user, MatchState.resign_match, now, session_key)


def _player_event(
    match_id: int, user: User, event: Callable, now: datetime, session_key: str | None
) -> Match:
    """Lock the match, check the user is a player there, and store ``event(state, seat)``."""
    with transaction.atomic():
        match, seats = locked_table(match_id, session_key=session_key, now=now)
        seat = player_seat_or_error(seats, user, now=now)
        if match.status not in (*ACTIVE, Match.Status.FINISHED, Match.Status.ABORTED):
            raise TableError("not_allowed", _("The match has not started yet."))
        state = rows.engine_state(match)
        return _commit(match, seats, state, _event(event, state, seat), now=now, last=True)


def match_claim(
    *, match_id: int, user: User, now: datetime, session_key: str | None = None
) -> Match:
    """An opponent claims the match when the seat to move has abandoned it (SPEC §3): no
    present socket for a minute, or at a no-clock table no move for five minutes."""
    with transaction.atomic():
        match, seats = locked_table(match_id, session_key=session_key, now=now)
        seat = player_seat_or_error(seats, user, now=now)
        state = rows.engine_state(match)
        clock = Clock.from_dict(match.clock_state) if match.clock_state else None
        claim_at = public.claim_from(match, state, seats, clock)
        absent = state.current.position.to_move if state.status == PLAYING else None
        if absent is None or _same_side(state, seat, absent):
            raise TableError("not_allowed", _("Only an opponent of the player to move can claim."))
        if claim_at is None or now < claim_at:
            raise TableError(
                "not_allowed", _("The player to move has not abandoned the match (yet).")
            )
        return _commit(match, seats, state, _event(state.abandon, absent), now=now)


def _same_side(state: MatchState, a: int, b: int) -> bool:
    return any(a in side and b in side for side in state.board.sides)


# --- what happens by itself: flags, aborts, the next game -----------------------------


def match_tick(*, match_id: int, now: datetime, deadline: datetime | None = None) -> bool:
    """Do what is due at ``now``: flag a seat whose time ran out, abort a match whose
    first moves did not come, start game 2 after the break. Idempotent: the stored
    clock and deadline decide, so running it twice, late or early, changes nothing more.
    With ``deadline`` (the moment a task was scheduled for): a task that comes early does
    nothing; the task the match counts on (its ``tick_due``) that finds the deadline moved
    later queues the next one for it; any other task whose deadline moved since is skipped
    without taking the lock."""
    if deadline is not None:
        if now < deadline:
            return False
        if not Match.objects.filter(
            Q(deadline=deadline) | Q(tick_due=deadline), pk=match_id
        ).exists():
            return False
    with transaction.atomic():
        match = rows.match_locked(match_id)
        if match is None or match.status not in ACTIVE:
            return False
        if (
            deadline is not None
            and match.tick_due == deadline
            and match.deadline is not None
            and now < match.deadline
        ):  # the deadline moved later since: this task hands over to the next
            _tick_due(match, now)
            rows.match_save(match, {"tick_due"})
            transaction.on_commit(partial(events.tick_at, match.pk, match.deadline, now))
            return False
        state = rows.engine_state(match)
        clock = Clock.from_dict(match.clock_state) if match.clock_state else None
        new = None
        if state.status == BETWEEN_GAMES:
            if match.deadline is not None and now >= match.deadline:
                new = state.start_next_game()
        elif clock is not None and (flagged := clock.flagged(timing.ms(now))) is not None:
            new = state.flag(flagged)
        elif (
            state.can_abort
            and match.turn_started_at is not None
            and now >= match.turn_started_at + timing.seconds("GAME_ABORT_SECONDS")
        ):
            new = state.abort()
        if new is None:
            return False
        _commit(match, seats_for(match_id), state, new, now=now)
        return True


def match_abort(*, match_id: int, now: datetime) -> Match:
    """A moderator aborts a stuck match: no result, no rating."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status not in ACTIVE:
            raise TableError("not_allowed", _("Only a match being played can be aborted."))
        state = rows.engine_state(match)
        return _commit(match, seats_for(match_id), state, state.abort(forced=True), now=now)


# --- after the match --------------------------------------------------------------------


def rematch_offer(
    *, match_id: int, user: User, now: datetime, session_key: str | None = None
) -> Match:
    """Offer or accept a rematch; when every player accepts within the window a new match
    with the same variant, clock and seats (a new board) starts."""
    with transaction.atomic():
        match, seats = locked_table(match_id, session_key=session_key, now=now)
        seat = player_seat_or_error(seats, user, now=now)
        if match.status != Match.Status.FINISHED:
            raise TableError("not_allowed", _("A rematch can be offered once the match is over."))
        if match.rematch_id:
            return match
        if any(row.member_id is None and row.bot_level is None for row in seats):
            raise TableError("not_allowed", _("A player of this match has left the site."))
        window = timing.seconds("GAME_REMATCH_SECONDS")
        expired = match.rematch_offered_at is None or now - match.rematch_offered_at > window
        accepted = [] if expired else list(match.rematch_accepted)
        if expired:
            match.rematch_offered_at = now
        # The computer always takes a rematch.
        for index in [seat, *(row.seat for row in seats if row.bot_level)]:
            if index not in accepted:
                accepted.append(index)
        match.rematch_accepted = sorted(accepted)
        fields = {"rematch_offered_at", "rematch_accepted"}
        if len(accepted) == len(seats):
            members = User.objects.in_bulk([row.member_id for row in seats if row.member_id])
            match.rematch = match_create(
                variant=match.variant,
                members=[members[row.member_id] for row in seats if row.member_id],
                bots={row.seat: row.bot_level for row in seats if row.bot_level},
                now=now,
                rated=match.rated,
                single_game=match.format == Match.Format.SINGLE,
                clock=match.clock,
                private=match.private,
                practice=match.practice,
            )
            fields.add("rematch")
        return _bump(match, seats, rows.engine_state(match), now=now, fields=fields, last=True)


def member_leave_all(*, member: User, **kwargs) -> None:
    """A member deletes their account: they resign every match they are still playing
    (answers ``accounts.signals.member_deleting``, inside that transaction)."""
    now = timing.now()
    for match_id in Match.objects.filter(seats__member=member, status__in=ACTIVE).values_list(
        "pk", flat=True
    ):
        match_resign(match_id=match_id, user=member, now=now)


# --- internals ------------------------------------------------------------------------


def _event(handler: Callable, *args) -> MatchState:
    try:
        return handler(*args)
    except MatchError as error:
        raise from_engine(error) from error


def _bump(
    match: Match,
    seats: list[SeatRow],
    state: MatchState,
    *,
    now: datetime,
    fields: set[str] = frozenset(),
    previous_deadline: datetime | None = None,
    move: dict | None = None,
    last: bool = False,
    guard: rows.Guard | None = None,
) -> Match:
    """Save the changed columns with a new version (and the ``move`` that changed them)
    and, after commit, send the new state (and have the worker look at the match when its
    deadline comes). ``last``: the save is the last statement of the caller's transaction
    (``rows.match_save``); the state is built before it, so nothing after it can fail.
    ``guard``: stored only if the row is still at the version the match was kept at."""
    tick = match.deadline != previous_deadline and _tick_due(match, now)
    match.version += 1  # the row is locked: no lost update
    changes = match_rating_changes(match.pk) if match.rated and state.status == FINISHED else None
    message = public.build(match, state, seats, now=now, rating_changes=changes)
    event = public.encode(message, state.current.position, deadline=match.deadline)
    rows.match_save(
        match,
        {*fields, "version", "updated_at", *(["tick_due"] if tick else [])},
        move=move,
        last=last,
        guard=guard,
    )
    transaction.on_commit(partial(events.table_changed, match.pk, event))
    kept = rows.kept(match, seats)  # as saved: the caller may change the instance later
    event["kept"] = rows.portable(kept)  # the table's other processes keep it too (rows.heard)
    transaction.on_commit(partial(rows.remember, match.pk, match.version, state, match.state, kept))
    if tick:
        transaction.on_commit(partial(events.tick_at, match.pk, match.deadline, now))
    return match


def _tick_due(match: Match, now: datetime) -> bool:
    """Whether the worker must be asked to look at the match at its deadline (then
    ``tick_due`` is set to it; the caller saves it and queues ``match_tick`` after
    commit). Not when a task already comes at or before the deadline: that task queues the
    next one (``match_tick``), so a move that moves the deadline later, as most do, queues
    nothing. A task that is overdue may have been lost (the broker restarted): then a new
    one is queued."""
    if match.deadline is None:
        return False
    due = match.tick_due
    if due is not None and now < due <= match.deadline:
        return False
    match.tick_due = match.deadline
    return True


def _commit(
    match: Match,
    seats: list[SeatRow],
    old: MatchState | None,
    new: MatchState,
    *,
    now: datetime,
    fields: set[str] = frozenset(),
    move: dict | None = None,
    last: bool = False,
    guard: rows.Guard | None = None,
) -> Match:
    """Store the engine's new state with its record (games), the clock, the turn's start,
    the next deadline and the version; the computer's seats are ready for the next game
    at once, and its turn is handed to the ``bots`` queue."""
    bots = [row.seat for row in seats if row.bot_level]
    for seat in bots:
        if new.status == BETWEEN_GAMES and seat not in new.ready and seat not in new.out:
            new = new.ready_for_next(seat)
    changed = {*fields, "state", "status"}
    old_games = old.games if old else ()
    for game in new.games:
        previous = old_games[game.number - 1] if game.number <= len(old_games) else None
        if previous is None:
            match.current_game = Game.objects.create(
                match=match,
                number=game.number,
                start=game.start.to_text(),
                first_seat=game.first_seat,
                corners=list(game.corners),
                started_at=now,
            )
            changed.add("current_game")
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
            Clock.from_dict(match.clock_state), old, new, at_ms=timing.ms(now)
        ).to_dict()
        changed.add("clock_state")
    if new.status in (FINISHED, ABORTED) and (old is None or old.status != new.status):
        match.finished_at = now
        match.result_reason = new.reason or ""
        changed |= {"finished_at", "result_reason"}
        if new.status == FINISHED and match.rated:
            _hand_to_ratings(match, seats, new, now=now)
    if _turn(old) != _turn(new):
        match.turn_started_at = now if new.status == PLAYING else None
        changed.add("turn_started_at")
    previous_deadline = match.deadline
    match.deadline = _deadline(match, old, new, now=now)
    if match.deadline != previous_deadline:
        changed.add("deadline")
    match.state = new.to_dict()
    match.status = new.status
    if new.status == PLAYING and new.current.position.to_move in bots:
        game = new.current
        transaction.on_commit(partial(events.bot_turn, match.pk, game.number, game.ply))
    return _bump(
        match,
        seats,
        new,
        now=now,
        fields=changed,
        previous_deadline=previous_deadline,
        move=move,
        last=last,
        guard=guard,
    )


def _hand_to_ratings(match: Match, seats: list[SeatRow], state: MatchState, *, now) -> None:
    """A rated match finished: ratings gets the result as plain data (SPEC §4), and the
    table is told again once the ratings moved (``games.tasks.table_rated``)."""
    members = {row.seat: row.member_id for row in seats}
    pairings = [
        (members[seat], members[other], score)
        for seat, other, score in state.pairwise_scores()
        if members[seat] is not None and members[other] is not None
    ]
    if pairings:
        match_result_record(
            scale=VARIANTS[match.variant].rated_scale,
            match_id=match.pk,
            finished_at=now,
            pairings=pairings,
            after_update="games.tasks.table_rated",
        )


def table_refresh(*, match_id: int, now: datetime) -> Match:
    """Send the table's state again with a new version (its ratings moved)."""
    with transaction.atomic():
        match = locked_match(match_id)
        if not match.state:
            return match
        return _bump(match, seats_for(match_id), rows.engine_state(match), now=now)


def _turn(state: MatchState | None) -> tuple | None:
    """What identifies a turn: a new one starts whenever this changes."""
    if state is None:
        return None
    game = state.current
    return (state.status, game.number, game.ply, game.position.to_move, game.over)


def _deadline(
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
