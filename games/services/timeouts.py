"""What happens at a table by itself when its deadline passes: a flag, the abort of a
match whose first moves did not come, game 2 after the break. The worker's scheduled
task, the beat sweep and each web process's own timer all call ``match_tick``; the
stored clock and deadline decide, so any of them may come late, early or twice."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.db import transaction
from django.db.models import Q

from games import events, store, timing
from games.access import seats_for
from games.engine.clock import Clock
from games.engine.match import BETWEEN_GAMES
from games.models import Match
from games.services import clocks
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
            clocks.tick_due_set(match, now)
            match.save(update_fields=["tick_due"])
            transaction.on_commit(partial(events.tick_at, match.pk, match.deadline, now))
            return False
        state = store.engine_state(match)
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
        state_commit(match, seats_for(match_id), state, new, now=now)
        return True
