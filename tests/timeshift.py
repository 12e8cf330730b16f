"""The tests' clock (``GAME_TIME_SOURCE``): the real time shifted by an offset kept in the
cache, so every process of a test (pytest, Daphne, a Celery worker) reads the same
injected time. Each test starts at ``T0``; ``advance`` moves time on without sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.core.cache import cache
from django.utils import timezone

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
KEY = "timeshift-offset-us"


def now() -> datetime:
    return timezone.now() + timedelta(microseconds=cache.get(KEY, 0))


def set_now(at: datetime) -> None:
    cache.set(KEY, (at - timezone.now()) // timedelta(microseconds=1), None)


def advance(seconds: float) -> datetime:
    offset = cache.get(KEY, 0) + int(seconds * 1_000_000)
    cache.set(KEY, offset, None)
    return timezone.now() + timedelta(microseconds=offset)
