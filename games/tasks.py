"""Celery tasks: thin wrappers around services. Each is idempotent (a task delivered twice
does nothing the second time)."""

from celery import shared_task
from django.utils import timezone

from games import services


@shared_task(ignore_result=True)
def next_game_start(match_id: int) -> bool:
    return services.match_next_game_if_due(match_id=match_id, now=timezone.now())
