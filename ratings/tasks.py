"""Celery tasks: thin wrappers around the rating updates. Each is idempotent (a task
delivered twice changes nothing the second time)."""

from __future__ import annotations

from celery import shared_task

from ratings import updates


@shared_task(ignore_result=True)
def rating_update(match_id: int) -> int:
    """Rate a recorded match (and anything else pending on its scale)."""
    return updates.match_rating_update(match_id=match_id)


@shared_task(ignore_result=True)
def scale_recalculate(scale: str, from_match_id: int | None = None) -> int:
    """Recompute a scale from ``from_match_id`` on (from its first match when None)."""
    return updates.scale_recalculate(scale=scale, from_match_id=from_match_id)


@shared_task(ignore_result=True)
def ratings_catch_up() -> int:
    """Every minute (beat): rate what was recorded and not rated (a lost update)."""
    return updates.scales_catch_up()
