"""The computer at the table (SPEC §2 Practice, §11): practice tables, the computer's
moves, hints and takebacks."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.transactions import deadlock_retried
from games import events
from games.access import locked_match, player_seat_or_error, seats_for
from games.engine import VARIANTS, Position
from games.engine.bots import LEVELS, TIME_LIMIT, choose
from games.engine.bots.blocking import denied
from games.engine.match import PLAYING, MatchState
from games.errors import TableError
from games.models import Match, Move, Seat
from games.services.commit import ACTIVE, engine_event, state_commit
from games.services.playing import bot_move
from games.services.seating import match_create
from games.services.underway import work_begin, work_end, work_held

BOARDS = VARIANTS["practice"].boards
HINT_LEVEL = 4
HINT_RUNNING_SECONDS = 30  # a hint not answered by then may be asked again
HINT_KEPT_SECONDS = 600
#: a computer's turn this old with no move under way has lost its task (a worker stopped
#: while it held it, or the broker restarted): ``computer_turns_resume`` queues it again
COMPUTER_TURN_LOST_SECONDS = 30


@deadlock_retried
def practice_start(
    *, member: User, board: str, level: int, member_starts: bool, clock: str, now: datetime
) -> Match:
    """A single game against the computer at ``level`` on one of the practice boards; the
    member is A (moves first) or B. Unrated, with hints and takebacks."""
    if member.is_bot:
        raise TableError(
            "not_allowed",
            _("A bot account plays only the challenges it sends or accepts, through the API."),
        )
    if board not in BOARDS:
        raise TableError("invalid", _("There is no such practice board."))
    if level not in LEVELS:
        raise TableError("invalid", _("The computer plays at levels 1 to 4."))
    with transaction.atomic():
        # The member's row locked: requests at once take turns, so N of them open at
        # most the limit's tables, never N.
        User.objects.select_for_update().filter(pk=member.pk).values_list("pk").first()
        in_play = Match.objects.filter(
            practice=True, status__in=ACTIVE, seats__member=member
        ).count()
        if in_play >= settings.PRACTICE_TABLES_PER_MEMBER:
            raise TableError(
                "limit",
                _("You already have %(count)d practice tables in play: finish or resign one first.")
                % {"count": settings.PRACTICE_TABLES_PER_MEMBER},
            )
        bot_seat = 1 if member_starts else 0
        return match_create(
            variant=board,
            members=[member],
            bots={bot_seat: level},
            now=now,
            single_game=True,
            clock=clock,
            practice=True,
            created_by=member,
        )


def bot_turn(*, match_id: int, game: int, ply: int, now: Callable[[], datetime]) -> bool | None:
    """Choose the computer's move outside any lock (it takes up to its time limit), then
    play it if the game is still where it was. The computer's clock runs from when the
    worker begins (its wait in the queue is never charged to it) to when the move is made
    (``now`` is called then). At most one move is worked out at a time per table: None
    when another is under way (the task tries again)."""
    began = now()
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match.state:
        return False
    state = MatchState.from_dict(match.state)
    current = state.current
    if state.status != PLAYING or current.number != game or current.ply != ply:
        return False
    seat = current.position.to_move
    level = Seat.objects.filter(match=match, seat=seat).values_list("bot_level", flat=True).first()
    if not level:
        return False
    running = bot_work_name(match_id)
    if not work_begin(running, now=began, seconds=TIME_LIMIT * 10, value=ply):
        return None
    try:
        # A new seed every move: two computers must not repeat each other forever.
        seed = match.seed + 1000 * game + ply
        colour = choose(current.position, level, seed=seed, time_limit=TIME_LIMIT)
        # VOG TV's computers think on their clocks through their pause (``timing.
        # computer_pause``), so the clocks people watch run as a player's would.
        began_at = None if match.house == Match.House.TV else began
        return bot_move(
            match_id=match_id, seat=seat, ply=ply, color=colour, now=now(), began_at=began_at
        )
    finally:
        work_end(running)


def computer_turns_resume(*, now: datetime) -> int:
    """Queue again each computer's move whose task was lost (beat, every half minute): a
    table where a computer is to move, whose turn began ``COMPUTER_TURN_LOST_SECONDS``
    ago (beyond VOG TV's pause) and whose move no worker is working out. Without this a
    practice table would wait for ever for the computer, and VOG TV would stay on a match
    that never ends: its clock does not run out while the computer waits in the queue. A
    task merely late in a long queue gets a twin, which finds the move made and does
    nothing. Returns how many moves were queued."""
    lost = timedelta(seconds=COMPUTER_TURN_LOST_SECONDS + float(settings.TV_MOVE_MAX_SECONDS))
    computers = Seat.objects.filter(match=OuterRef("pk"), bot_level__isnull=False)
    candidates = Match.objects.filter(
        Exists(computers), status=Match.Status.PLAYING, turn_started_at__lte=now - lost
    ).values_list("pk", "state")
    queued = 0
    for match_id, stored in candidates:
        game = MatchState.from_dict(stored).current
        if computer_waiting(match_id, game.position.to_move, now=now):
            events.bot_turn(match_id, game.number, game.ply)
            queued += 1
    return queued


def computer_waiting(match_id: int, seat: int, *, now: datetime) -> bool:
    """Whether ``seat`` is a computer seat whose move no worker has begun yet."""
    is_bot = Seat.objects.filter(match_id=match_id, seat=seat, bot_level__isnull=False).exists()
    return is_bot and not bot_at_work(match_id, now=now)


def bot_work_name(match_id: int) -> str:
    """The name the computer's move at this table is under way by (``underway``)."""
    return f"bot-move:{match_id}"


def bot_at_work(match_id: int, *, now: datetime) -> bool:
    """Whether the worker is working out a computer move at this table now."""
    return work_held(bot_work_name(match_id), now=now) is not None


def _practice_seat(match: Match, seats, user: User, now: datetime) -> int:
    if not match.practice:
        raise TableError("not_allowed", _("Hints and takebacks are for practice tables."))
    return player_seat_or_error(seats, user, now=now)


def practice_hint(
    *,
    match_id: int,
    user: User,
    now: datetime,
) -> dict | None:
    """The colour the strongest computer level would choose for the player now, and the
    cells it takes; changes nothing. Worked out on the ``bots`` queue like the computer's
    moves (``hint_work``), once per position (cached per match and version) and at most
    one at a time per table: None while it is being worked out, and the answer then
    reaches the player's sockets at the table (``events.hint_ready``)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise TableError("not_found", _("This table does not exist."))
    seats = seats_for(match_id)
    seat = _practice_seat(match, seats, user, now)
    state = MatchState.from_dict(match.state)
    if state.status != PLAYING or state.current.position.to_move != seat:
        raise TableError("not_your_turn", _("A hint is for your own turn."))
    known = hint_kept(match_id, match.version)
    if known is not None:
        return known
    running = _hint_work_name(match_id)
    # Most asks find the hint under way (a page asks again, a player's other pages ask):
    # one read then, rather than an insert its key refuses.
    if work_held(running, now=now) is None and work_begin(
        running, now=now, seconds=HINT_RUNNING_SECONDS, value=match.version
    ):
        transaction.on_commit(partial(events.hint_wanted, match_id, match.version))
    return None


def hint_kept(match_id: int, version: int) -> dict | None:
    """The hint worked out for the match at ``version``, while it is kept."""
    return cache.get(_hint_key(match_id, version))


def _hint_key(match_id: int, version: int) -> str:
    return f"hint:{match_id}:{version}"


def _hint_work_name(match_id: int) -> str:
    return f"hint:{match_id}"


def hint_work(*, match_id: int, version: int) -> dict | None:
    """Work a hint out (the ``bots`` queue), with the computer's time limit, for the
    match at ``version`` (none when it moved on since): kept for that version, and sent
    to the table for the player's sockets."""
    try:
        match = Match.objects.filter(pk=match_id, version=version).first()
        if match is None or not match.state:
            return None
        state = MatchState.from_dict(match.state)
        position = state.current.position
        if state.status != PLAYING:
            return None
        colour = choose(
            position, HINT_LEVEL, seed=match.seed + state.current.ply, time_limit=TIME_LIMIT
        )
        hint = _hint_message(position, colour)
        cache.set(_hint_key(match_id, version), hint, HINT_KEPT_SECONDS)
    finally:
        work_end(_hint_work_name(match_id))
    events.hint_ready(match_id, position.to_move, version, hint)
    return hint


def _hint_message(position: Position, colour: int | str) -> dict:
    """The ``hint`` message for ``colour`` in ``position`` (docs/protocol.md): the cells
    it takes, and when it takes none, what it keeps from the opponent who moves next
    (``denies``: that colour and the cells it would have given them)."""
    if colour == "swap":
        return {"type": "hint", "color": colour, "cells": [], "gained": 0}
    cells = sorted(position.preview(colour))
    hint = {"type": "hint", "color": colour, "cells": cells, "gained": len(cells)}
    if not cells:
        hint["denies"] = {"color": colour, "cells": len(denied(position, colour))}
    return hint


def practice_takeback(
    *,
    match_id: int,
    user: User,
    now: datetime,
) -> Match:
    """Undo the player's last move and the computer's answer (only the player's move if
    the computer has not answered yet)."""
    with transaction.atomic():
        match = locked_match(match_id)
        seats = seats_for(match_id)
        seat = _practice_seat(match, seats, user, now)
        state = MatchState.from_dict(match.state)
        game = state.current
        mine = [ply for ply, (mover, _gained) in enumerate(game.log, start=1) if mover == seat]
        if state.status != PLAYING or not mine:
            raise TableError("not_allowed", _("There is no move of yours to take back."))
        plies = game.ply - mine[-1] + 1  # back to before the player's last move
        new = engine_event(state.take_back, plies)
        Move.objects.filter(game_id=match.current_game_id, ply__gt=game.ply - plies).delete()
        return state_commit(match, seats, state, new, now=now)
