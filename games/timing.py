"""The time at the tables and every duration, read from settings when asked.

``now()`` is the one clock of services, consumers and tasks: ``GAME_TIME_SOURCE`` names
the function behind it, so tests inject time (``tests/timeshift.py``) instead of sleeping.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils.module_loading import import_string

_source: tuple[str, object] | None = None


def now() -> datetime:
    global _source
    path = settings.GAME_TIME_SOURCE
    if _source is None or _source[0] != path:  # resolved once per setting, not per call
        _source = (path, import_string(path))
    return _source[1]()


def seconds(name: str) -> timedelta:
    """A duration setting as a timedelta: ``seconds("GAME_ABORT_SECONDS")``."""
    return timedelta(seconds=float(getattr(settings, name)))


def ms(at: datetime) -> int:
    """Epoch milliseconds, the unit of the engine's clock and of the protocol."""
    return int(at.timestamp() * 1000)
