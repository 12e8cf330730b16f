"""Celery tasks: thin wrappers around services. Each is idempotent (a task delivered twice,
late or early, does nothing more)."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.conf import settings
from django.db.models import Q

from games import services, timing
from games.models import Match
from games.services import analysis


@shared_task(ignore_result=True)
def match_tick(match_id: int, deadline: str | None = None) -> bool:
    """Scheduled for a match's deadline (queue ``clocks``): flag, abort or start game 2
    if that is still due."""
    return services.match_tick(
        match_id=match_id,
        now=timing.now(),
        deadline=datetime.fromisoformat(deadline) if deadline else None,
    )


@shared_task(ignore_result=True)
def clocks_sweep() -> int:
    """Every few seconds (beat, queue ``clocks``): whatever a scheduled task missed (the
    worker was down, the broker restarted). Returns the matches that changed."""
    now = timing.now()
    due = Match.objects.filter(
        Q(status=Match.Status.PLAYING) | Q(status=Match.Status.BETWEEN_GAMES),
        deadline__lte=now,
    ).values_list("pk", flat=True)
    return sum(services.match_tick(match_id=match_id, now=now) for match_id in list(due))


@shared_task(ignore_result=True)
def deserted_end() -> int:
    """Every half minute (beat): tables every seated member left long ago end."""
    return services.deserted_end(now=timing.now())


@shared_task(ignore_result=True)
def computer_turns_resume() -> int:
    """Every half minute (beat): the computer's moves whose task was lost, queued again."""
    return services.computer_turns_resume(now=timing.now())


@shared_task(ignore_result=True)
def tv_match_keep() -> int | None:
    """Every few seconds (beat): VOG TV's match of two computers, started when none is
    in play (``TV_HOUSE_MATCH``: on unless a site turns it off). Returns its id."""
    if not settings.TV_HOUSE_MATCH:
        return None
    return services.tv_match_keep(now=timing.now()).pk


@shared_task(ignore_result=True)
def rematch_lapse(match_id: int) -> bool:
    """When a rematch offer's minute is over: the ones who offered it are told."""
    return services.rematch_lapse(match_id=match_id, now=timing.now())


@shared_task(ignore_result=True)
def rematches_lapse() -> int:
    """Every half minute (beat): rematch offers whose minute is over."""
    return services.rematches_lapse(now=timing.now())


@shared_task(ignore_result=True)
def presence_sweep() -> int:
    """Every few seconds (beat): forget sockets that stopped counting, wherever they were."""
    return services.presence_sweep(now=timing.now())


@shared_task(ignore_result=True)
def table_rated(match_id: int) -> None:
    """After ratings updated a finished match: its table shows the changes (+12 / −12)."""
    services.table_refresh(match_id=match_id, now=timing.now())


@shared_task(ignore_result=True)
def bot_hint(match_id: int, version: int) -> None:
    """A practice table's hint (queue ``bots``), worked out like the computer's moves."""
    services.hint_work(match_id=match_id, version=version)


@shared_task(bind=True, ignore_result=True, max_retries=None)
def bot_move(self, match_id: int, game: int, ply: int) -> bool:
    """The computer's move (queue ``bots``); again a moment later while another move of
    the table is being worked out."""
    played = services.bot_turn(match_id=match_id, game=game, ply=ply, now=timing.now)
    if played is None:
        raise self.retry(countdown=0.2)
    return played


@shared_task(ignore_result=True)
def analysis_run(match_id: int) -> None:
    """The computer's review of a finished match (queue ``analysis``, its own worker)."""
    analysis.analysis_run(match_id=match_id, now=timing.now)


@shared_task(ignore_result=True)
def analyses_resume() -> int:
    """Every ten minutes (beat): analyses whose worker stopped failed, and those whose task
    the broker may have lost sent again."""
    return analysis.analyses_resume(now=timing.now())


@shared_task(ignore_result=True)
def analysis_try(member_id: int, variant: str, fpn: str, move: int | str) -> None:
    """A colour tried in a replayed position (queue ``analysis_try``)."""
    analysis.analysis_try_work(member_id=member_id, variant=variant, fpn=fpn, move=move)
