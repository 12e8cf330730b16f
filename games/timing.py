"""The time at the tables and every duration, read from settings when asked.

``now()`` is the one clock of services, consumers and tasks. In production it is
Django's ``timezone.now``; the tests' settings (``config/test_settings.py``) name a clock
of their own in ``GAME_TIME_SOURCE``, so tests inject time instead of sleeping. Production
settings never define it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.module_loading import import_string

_source: tuple[str | None, Callable[[], datetime]] | None = None


def now() -> datetime:
    global _source
    path = getattr(settings, "GAME_TIME_SOURCE", None)
    if _source is None or _source[0] != path:  # resolved once per setting, not per call
        _source = (path, import_string(path) if path else timezone.now)
    return _source[1]()


def clock_scale() -> float:
    """What every clock preset's bank and increment are multiplied by: 1, but where the
    tests' settings shorten the clocks (``GAME_CLOCK_SCALE``)."""
    return float(getattr(settings, "GAME_CLOCK_SCALE", 1))


def seconds(name: str) -> timedelta:
    """A duration setting as a timedelta: ``seconds("GAME_ABORT_SECONDS")``."""
    return timedelta(seconds=float(getattr(settings, name)))


def ms(at: datetime) -> int:
    """Epoch milliseconds, the unit of the engine's clock and of the protocol."""
    return int(at.timestamp() * 1000)


def computer_pause() -> float:
    """How long the computer waits before a move on VOG TV (seconds, a random moment
    between ``TV_MOVE_MIN_SECONDS`` and ``TV_MOVE_MAX_SECONDS``), so people can follow."""
    low = float(settings.TV_MOVE_MIN_SECONDS)
    return random.uniform(low, max(low, float(settings.TV_MOVE_MAX_SECONDS)))
