"""Database work of the sockets, off the event loop, on a bounded pool of threads.

Channels' ``database_sync_to_async`` runs every call of a process on one thread; under
load that thread was the bottleneck while the loop sat idle, and calls queued without
bound until handlers were killed waiting. Here calls run on ``DB_THREADS`` threads and at
most ``DB_QUEUE_LIMIT`` may wait: beyond that a request is refused at once.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections
from django.utils.translation import gettext_lazy as _

from games.errors import TableError

T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None
_waiting = 0


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix="db")
    return _executor


def _call(function: Callable[..., T], args: tuple, kwargs: dict) -> T:
    try:
        return function(*args, **kwargs)
    finally:
        close_old_connections()  # drops a connection that broke or outlived CONN_MAX_AGE


async def run(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``function`` on a database thread; ``rate_limited`` when too many wait."""
    global _waiting
    if _waiting >= settings.DB_QUEUE_LIMIT:
        raise TableError("rate_limited", _("The server is busy; try again in a moment."))
    _waiting += 1
    try:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_pool(), functools.partial(_call, function, args, kwargs))
    finally:
        _waiting -= 1


async def run_unbounded(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """For cleanup that must not be refused (a socket closing)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_pool(), functools.partial(_call, function, args, kwargs))
