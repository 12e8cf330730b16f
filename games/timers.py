"""What a web process does later by itself, on its event loop, for the tables its
sockets serve; a table's timers are dropped when its last socket here closes.

``_tables`` is the one mutable module-level container of the web process: timers live
on its event loop and die with it. Nothing else depends on them: the beat sweeps and the
scheduled Celery tasks do the same work for tables nobody here serves.

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
import math
import time
from dataclasses import dataclass
from datetime import datetime

from channels.db import database_sync_to_async
from django.conf import settings

from games import events, services, timing

logger = logging.getLogger(__name__)


@dataclass
class _Table:
    sockets: int = 0
    last_refresh: float = -math.inf
    pending: asyncio.TimerHandle | None = None  # a refresh waiting for its slot
    refreshing: int = 0  # refreshes under way
    deadline: str | None = None
    deadline_timer: asyncio.TimerHandle | None = None


_tables: dict[int, _Table] = {}


def socket_opened(match_id: int) -> None:
    """A socket of this process joined the table."""
    _tables.setdefault(match_id, _Table()).sockets += 1


def socket_closed(match_id: int) -> None:
    """A socket of this process left the table: with the last one, its timers go."""
    table = _tables.get(match_id)
    if table is not None:
        table.sockets -= 1
        _drop_if_unused(match_id, table)


def _drop_if_unused(match_id: int, table: _Table) -> None:
    if table.sockets > 0 or table.pending is not None or table.refreshing:
        return
    if table.deadline_timer is not None:
        table.deadline_timer.cancel()
    del _tables[match_id]


def tables_watched() -> int:
    """How many tables this process keeps timers for."""
    return len(_tables)


def refresh_now_allowed(match_id: int) -> bool:
    """Take the table's refresh slot if a second has passed since the last refresh."""
    table = _tables.setdefault(match_id, _Table())
    now = time.monotonic()
    if table.pending is not None or now - table.last_refresh < settings.PRESENCE_COALESCE_SECONDS:
        return False
    table.last_refresh = now
    return True


def presence_changed(match_id: int) -> None:
    """A socket came or went at the table: refresh its presence, at most once a second."""
    if refresh_now_allowed(match_id):
        _start_refresh(match_id)
        return
    table = _tables[match_id]
    if table.pending is not None:
        return
    delay = max(0.0, table.last_refresh + settings.PRESENCE_COALESCE_SECONDS - time.monotonic())
    table.pending = asyncio.get_running_loop().call_later(delay, _refresh_later, match_id)


def _refresh_later(match_id: int) -> None:
    table = _tables[match_id]
    table.pending = None
    table.last_refresh = time.monotonic()
    _start_refresh(match_id)


def _start_refresh(match_id: int) -> None:
    """A refresh under way keeps the table's entry until it has committed."""
    table = _tables.setdefault(match_id, _Table())
    table.refreshing += 1
    asyncio.get_running_loop().create_task(_refresh(match_id, table))


async def _refresh(match_id: int, table: _Table) -> None:
    try:
        box = await database_sync_to_async(refresh_captured)(match_id)
        await events.flush(box)
    except Exception:
        logger.exception("presence refresh of table %s failed", match_id)
    finally:
        table.refreshing -= 1
        if _tables.get(match_id) is table:
            _drop_if_unused(match_id, table)


def refresh_captured(match_id: int) -> events.Outbox:
    """Refresh a table's presence on this thread; return the messages to send."""
    with events.capture() as box:
        services.presence_refresh(match_id=match_id, now=timing.now())
    return box


def watch_deadline(match_id: int, deadline: str | None) -> None:
    """Look at the table when ``deadline`` (ISO 8601, as events send it) comes; None
    forgets it. Only for tables a socket of this process serves."""
    table = _tables.get(match_id)
    if not settings.WEB_DEADLINE_TIMERS or table is None or table.deadline == deadline:
        return
    if table.deadline_timer is not None:
        table.deadline_timer.cancel()
    table.deadline, table.deadline_timer = deadline, None
    if deadline is None:
        return
    delay = max(0.0, (datetime.fromisoformat(deadline) - timing.now()).total_seconds())
    table.deadline_timer = asyncio.get_running_loop().call_later(
        delay, _deadline_due, match_id, deadline
    )


def _deadline_due(match_id: int, deadline: str) -> None:
    table = _tables.get(match_id)
    if table is not None and table.deadline == deadline:
        table.deadline, table.deadline_timer = None, None
    asyncio.get_running_loop().create_task(_tick(match_id, deadline))


async def _tick(match_id: int, deadline: str) -> None:
    try:
        box = await database_sync_to_async(tick_captured)(match_id, deadline)
        await events.flush(box)
    except Exception:
        logger.exception("deadline of table %s failed", match_id)


def tick_captured(match_id: int, deadline: str) -> events.Outbox:
    with events.capture() as box:
        services.match_tick(
            match_id=match_id, now=timing.now(), deadline=datetime.fromisoformat(deadline)
        )
    return box
