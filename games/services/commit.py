"""Storing what the engine returned: every change at a table ends here.

A service locks the match (``games.access.locked_table``), asks the engine for the new
:class:`MatchState` and hands both states to ``state_commit``, which stores the new state
with its record (games), the clock, the turn's start, the next deadline and a new
``version`` (``match_bump``), builds the table's new public state from what it holds (no
read-back, so nothing can fail after the save) and registers the notifications to send
after the commit. A change that leaves the engine state as it is (presence, a rematch
offer, ratings moved) calls ``match_bump`` alone.

The clock and deadline rules it applies (``clock_after``, ``deadline_next``,
``first_move_rule``, ``tick_due_set``) are pure: they read the row and engine states they
are given and return what those imply.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial

from django.db import transaction

from games import events, timing
from games import state as public
from games.engine import VARIANTS
from games.engine.clock import Clock, parse_preset
from games.engine.match import ABORTED, BETWEEN_GAMES, FINISHED, PLAYING, MatchError, MatchState
from games.errors import from_engine
from games.models import Game, Match, Move
from games.services.analysis import analysis_queue
from games.signals import arena_match_ended
from games.state import SeatRow
from ratings.selectors import match_rating_changes
from ratings.services import match_result_record

ACTIVE = (Match.Status.PLAYING, Match.Status.BETWEEN_GAMES)
#: an arena's match changes ratings (and gives arena points) only when every seat made
#: at least this many moves in game 1 (SPEC §12): one move and a resignation farm nothing
ARENA_MOVES_TO_COUNT = 2


def counted(match: Match, state: MatchState) -> bool:
    """Whether a finished match is rated as played: any rated match, except an arena's
    in which a seat made fewer than ``ARENA_MOVES_TO_COUNT`` moves in game 1."""
    if match.arena_id is None:
        return True
    return all(state.game_one_moves(seat) >= ARENA_MOVES_TO_COUNT for seat in range(state.seats))


def engine_event(handler: Callable[..., MatchState], *args, **options) -> MatchState:
    """``handler(*args)`` on the engine's state; its refusal as the table's error."""
    try:
        return handler(*args, **options)
    except MatchError as error:
        raise from_engine(error) from error


def state_commit(
    match: Match,
    seats: list[SeatRow],
    old: MatchState | None,
    new: MatchState,
    *,
    now: datetime,
    fields: set[str] = frozenset(),
    move: dict | None = None,
) -> Match:
    """Store the engine's new state with its record (games), the clock, the turn's start,
    the next deadline and the version; the computer's seats are ready for the next game
    at once, and its turn is handed to the ``bots`` queue. ``move``: the ``Move`` row's
    fields, stored with it."""
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
        clock = Clock.from_dict(match.clock_state)
        match.clock_state = clock_after(clock, old, new, at_ms=timing.ms(now)).to_dict()
        changed.add("clock_state")
    if new.status in (FINISHED, ABORTED) and (old is None or old.status != new.status):
        match.finished_at = now
        match.result_reason = new.reason or ""
        changed |= {"finished_at", "result_reason"}
        if new.status == FINISHED and match.rated and counted(match, new):
            _hand_to_ratings(match, seats, new, now=now)
            analysis_queue(match, now=now, state=new)  # rated matches are analysed by themselves
        if match.arena_id is not None:
            arena_match_ended.send(sender=Match, match=match, state=new, seats=seats, now=now)
        if old is not None:
            # It leaves "being played now" (a public one) and its players are free again
            # in their followers' lobbies (any match, SPEC §14).
            transaction.on_commit(events.lobby_changed)
    if turn_of(old) != turn_of(new):
        match.turn_started_at = now if new.status == PLAYING else None
        changed.add("turn_started_at")
    previous_deadline = match.deadline
    match.deadline = deadline_next(match, old, new, now=now)
    if match.deadline != previous_deadline:
        changed.add("deadline")
    match.state = new.to_dict()
    match.status = new.status
    match_bump(
        match,
        seats,
        new,
        now=now,
        fields=changed,
        previous_deadline=previous_deadline,
        move=move,
    )
    if new.status == PLAYING and new.current.position.to_move in bots:
        game = new.current
        pause = timing.computer_pause() if match.house == Match.House.TV else 0
        transaction.on_commit(partial(events.bot_turn, match.pk, game.number, game.ply, pause))
    return match


def match_bump(
    match: Match,
    seats: list[SeatRow],
    state: MatchState,
    *,
    now: datetime,
    fields: set[str] = frozenset(),
    previous_deadline: datetime | None = None,
    move: dict | None = None,
) -> Match:
    """Save the changed columns with a new version (and the ``move`` that changed them)
    and, after commit, send the new state (and have the worker look at the match when its
    deadline comes). The state is built before the save, so nothing after it can fail."""
    tick = match.deadline != previous_deadline and tick_due_set(match, now)
    match.version += 1  # the row is locked: no lost update
    changes = match_rating_changes(match.pk) if match.rated and state.status == FINISHED else None
    clock = Clock.from_dict(match.clock_state) if match.clock_state else None
    message = public.build(
        match,
        state,
        seats,
        now=now,
        rating_changes=changes,
        claim_at=public.claim_from(match, state, seats, clock),
    )
    event = public.encode(
        message,
        state.current.position,
        deadline=match.deadline,
        aborters=public.abortable(state),
        players=[row.member_id for row in seats],
        berserks=public.berserkers(match, state) if match.arena_id is not None else frozenset(),
    )
    changed = {*fields, "version", "updated_at", *(["tick_due"] if tick else [])}
    match.save(update_fields=changed)
    if move is not None:
        Move.objects.create(**move)
    transaction.on_commit(partial(events.table_changed, match.pk, event))
    if tick:
        transaction.on_commit(partial(events.tick_at, match.pk, match.deadline, now))
    return match


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


# --- the clock and the deadlines -----------------------------------------------------


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
    if new.can_abort and match.turn_started_at is not None and first_move_rule(match):
        moments.append(match.turn_started_at + timing.seconds("GAME_ABORT_SECONDS"))
    return min(moments) if moments else None


def first_move_rule(match: Match) -> bool:
    """Whether a match whose first moves of game 1 do not come in time is aborted (SPEC
    §3): not at a practice table without a clock, which ends only as deserted."""
    return bool(match.clock) or not match.practice


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
