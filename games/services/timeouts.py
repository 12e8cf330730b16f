"""What happens at a table by itself: when its deadline passes, a flag, the abort of a
match whose first moves did not come, game 2 after the break (``match_tick``: the
worker's scheduled task, the beat sweep and each web process's own timer all call it;
the stored clock and deadline decide, so any of them may come late, early or twice); and
a table everyone left ends (``deserted_end``, a beat sweep)."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from games import events, timing
from games.access import locked_table, seats_for
from games.engine.clock import Clock
from games.engine.match import BETWEEN_GAMES, PLAYING
from games.models import Match, Seat
from games.services import commit
from games.services.commit import ACTIVE, state_commit


def match_tick(*, match_id: int, now: datetime, deadline: datetime | None = None) -> bool:
    """Do what is due at ``now``: flag a seat whose time ran out, abort a match whose
    first moves did not come, start game 2 after the break. Idempotent. With ``deadline``
    (the moment a task was scheduled for): a task that comes early does nothing; the task
    the match counts on (its ``tick_due``) that finds the deadline moved later queues the
    next one for it; any other task whose deadline moved since is skipped without taking
    the lock. Returns whether the match changed."""
    if deadline is not None:
        if now < deadline:
            return False
        if not Match.objects.filter(
            Q(deadline=deadline) | Q(tick_due=deadline), pk=match_id
        ).exists():
            return False
    with transaction.atomic():
        match = Match.objects.select_for_update().defer("board").filter(pk=match_id).first()
        if match is None or match.status not in ACTIVE:
            return False
        if (
            deadline is not None
            and match.tick_due == deadline
            and match.deadline is not None
            and now < match.deadline
        ):  # the deadline moved later since: this task hands over to the next
            commit.tick_due_set(match, now)
            match.save(update_fields=["tick_due"])
            transaction.on_commit(partial(events.tick_at, match.pk, match.deadline, now))
            return False
        state = match.engine_state()
        clock = Clock.from_dict(match.clock_state) if match.clock_state else None
        new = None
        if state.status == BETWEEN_GAMES:
            if match.deadline is not None and now >= match.deadline:
                new = state.start_next_game()
        elif clock is not None and (flagged := clock.flagged(timing.ms(now))) is not None:
            from games.services.practice import computer_waiting

            # SPEC §3: the computer's clock starts when the worker begins its move.
            if computer_waiting(match_id, flagged, now=now):
                return False  # its wait in the queue is not charged (its move sets the clock)
            new = state.flag(flagged)
        elif (
            state.can_abort
            and commit.first_move_rule(match)
            and match.turn_started_at is not None
            and now >= match.turn_started_at + timing.seconds("GAME_ABORT_SECONDS")
        ):
            # The seat whose first-move time ran out aborted it (SPEC §12: it forfeits).
            new = state.abort(by=state.current.position.to_move)
        if new is None:
            return False
        state_commit(match, seats_for(match_id), state, new, now=now)
        return True


def deserted_end(*, now: datetime) -> int:
    """End the tables nobody is at (SPEC §3): no seated member has had a present socket
    for ``GAME_DESERTED_SECONDS``. A practice table is aborted; a no-clock match is
    aborted while game 1 has no move, else the seat to move loses it by abandonment; a
    match with a clock is left to its clock. VOG TV's match of two computers is never
    deserted (nobody sits there; ``Match.House.TV``). Returns the matches ended."""
    horizon = now - timing.seconds("GAME_DESERTED_SECONDS")
    present = Seat.objects.filter(
        Q(connected=True) | Q(absent_since__gt=horizon) | Q(absent_since=None),
        match=OuterRef("pk"),
        member__isnull=False,
    )
    candidates = (
        Match.objects.filter(status__in=ACTIVE)
        .filter(Q(practice=True) | Q(clock=""))
        .exclude(house=Match.House.TV)  # nobody sits there to desert it
        .exclude(Exists(present))
        .values_list("pk", flat=True)
    )
    return sum(_deserted_end(match_id, horizon, now) for match_id in list(candidates))


def _deserted_end(match_id: int, horizon: datetime, now: datetime) -> bool:
    with transaction.atomic():
        match, seats = locked_table(match_id)
        people = [row for row in seats if row.bot_level is None]
        if (
            match.status not in ACTIVE
            or match.house == Match.House.TV
            or any(
                row.connected or row.absent_since is None or row.absent_since > horizon
                for row in people
            )
        ):
            return False  # someone came back meanwhile
        state = match.engine_state()
        unplayed = len(state.games) == 1 and state.current.ply == 0
        if match.practice or unplayed:
            new = state.abort(forced=True)
        elif state.status == PLAYING and not match.clock:
            new = state.abandon(state.current.position.to_move)
        else:
            return False  # between games: game 2 starts by itself, then this applies
        state_commit(match, seats, state, new, now=now)
        return True
