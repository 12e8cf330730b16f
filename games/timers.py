"""What a web process does later by itself, on its event loop.

- **Presence**, throttled per table: the first change after a quiet second is refreshed
  at once, later ones together a second after the last refresh, so 400 sockets opening
  cost a handful of states, not 400.
- **Deadlines**: each process looks at the tables it serves when their deadline comes (a
  flag, an abort, game 2), so the result shows at once. The scheduled Celery task and the
  beat sweep do the same for tables nobody watches; all three call ``match_tick``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime

from django.conf import settings

from games import events, services, threads, timing

logger = logging.getLogger(__name__)

_last_refresh: dict[int, float] = {}
_pending_refresh: set[int] = set()
_deadlines: dict[int, tuple[str, asyncio.TimerHandle]] = {}


def refresh_now_allowed(match_id: int) -> bool:
    """Take the table's refresh slot if a second has passed since the last refresh."""
    interval = settings.PRESENCE_COALESCE_SECONDS
    now = time.monotonic()
    if match_id in _pending_refresh or now - _last_refresh.get(match_id, -interval) < interval:
        return False
    _last_refresh[match_id] = now
    return True


def presence_changed(match_id: int) -> None:
    """A socket came or went at the table: refresh its presence, at most once a second."""
    if refresh_now_allowed(match_id):
        asyncio.get_running_loop().create_task(_refresh(match_id))
        return
    if match_id in _pending_refresh:
        return
    _pending_refresh.add(match_id)
    interval = settings.PRESENCE_COALESCE_SECONDS
    delay = max(0.0, _last_refresh.get(match_id, 0.0) + interval - time.monotonic())
    asyncio.get_running_loop().call_later(delay, _refresh_later, match_id)


def _refresh_later(match_id: int) -> None:
    _pending_refresh.discard(match_id)
    _last_refresh[match_id] = time.monotonic()
    asyncio.get_running_loop().create_task(_refresh(match_id))


async def _refresh(match_id: int) -> None:
    try:
        box = await threads.run_unbounded(refresh_captured, match_id)
        await events.flush(box)
    except Exception:
        logger.exception("presence refresh of table %s failed", match_id)


def refresh_captured(match_id: int) -> events.Outbox:
    """Refresh a table's presence on this thread; return the messages to send."""
    with events.capture() as box:
        services.presence_refresh(match_id=match_id, now=timing.now())
    return box


def watch_deadline(match_id: int, deadline: str | None) -> None:
    """Look at the table when ``deadline`` (ISO 8601, as events send it) comes; None
    forgets it."""
    if not settings.WEB_DEADLINE_TIMERS:
        return
    current = _deadlines.get(match_id)
    if current is not None and current[0] == deadline:
        return
    if current is not None:
        current[1].cancel()
        del _deadlines[match_id]
    if deadline is None:
        return
    delay = max(0.0, (datetime.fromisoformat(deadline) - timing.now()).total_seconds())
    handle = asyncio.get_running_loop().call_later(delay, _deadline_due, match_id, deadline)
    _deadlines[match_id] = (deadline, handle)


def _deadline_due(match_id: int, deadline: str) -> None:
    if _deadlines.get(match_id, (None,))[0] == deadline:
        del _deadlines[match_id]
    asyncio.get_running_loop().create_task(_tick(match_id, deadline))


async def _tick(match_id: int, deadline: str) -> None:
    try:
        box = await threads.run_unbounded(tick_captured, match_id, deadline)
        await events.flush(box)
    except Exception:
        logger.exception("deadline of table %s failed", match_id)


def tick_captured(match_id: int, deadline: str) -> events.Outbox:
    with events.capture() as box:
        services.match_tick(
            match_id=match_id, now=timing.now(), deadline=datetime.fromisoformat(deadline)
        )
    return box
