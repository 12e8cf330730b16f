"""Database work of the sockets, off the event loop, on standard thread pools.

Members' actions and socket openings run on ``DB_THREADS`` threads (a
``concurrent.futures.ThreadPoolExecutor``); at most ``DB_QUEUE_LIMIT`` of them may wait
or run at once (a semaphore): beyond that a member's action is refused at once with
``rate_limited`` instead of queueing for seconds. Housekeeping (a socket closing, a
presence refresh, a deadline) runs on a pool of its own, so after a flood the backlog of
closing sockets never holds up the next move. A call whose socket went away before a
thread took it never runs (the waiting coroutine was cancelled).

A call's result reaches the event loop in one ``call_soon_threadsafe`` from the thread
that ran it: ``run_in_executor`` would chain a concurrent future to the loop's through
two callbacks and a lock, which cost a saturated process's event loop about a tenth of
its time (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections
from django.utils.translation import gettext_lazy as _

from games.errors import TableError

T = TypeVar("T")

HOUSEKEEPING_THREADS = 1

_pools: dict[str, ThreadPoolExecutor] = {}
_slots: threading.BoundedSemaphore | None = None
_lock = threading.Lock()


def _pool(kind: str) -> ThreadPoolExecutor:
    pool = _pools.get(kind)
    if pool is None:
        with _lock:
            pool = _pools.get(kind)
            if pool is None:
                threads = settings.DB_THREADS if kind == "actions" else HOUSEKEEPING_THREADS
                pool = _pools[kind] = ThreadPoolExecutor(threads, thread_name_prefix=f"db-{kind}")
    return pool


def _queue_slots() -> threading.BoundedSemaphore:
    global _slots
    if _slots is None:
        _slots = threading.BoundedSemaphore(settings.DB_QUEUE_LIMIT)
    return _slots


def reset() -> None:
    """Forget the pools and the queue's size (tests that change the settings)."""
    global _slots
    for pool in _pools.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _pools.clear()
    _slots = None


def _call(function: Callable[..., T], args: tuple, kwargs: dict) -> T:
    try:
        return function(*args, **kwargs)
    finally:
        close_old_connections()  # drops a connection that broke or outlived CONN_MAX_AGE


def _settle(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future,
    function: Callable[..., Any],
    args: tuple,
    kwargs: dict,
) -> None:
    """On a pool's thread: run the call unless its coroutine was cancelled meanwhile (the
    socket went away), and hand its result or exception to the loop's future."""
    if future.cancelled():
        return
    result, error = None, None
    try:
        result = _call(function, args, kwargs)
    except BaseException as failure:  # raised in the waiting coroutine
        error = failure
    with contextlib.suppress(RuntimeError):  # the loop closed: the process is stopping
        loop.call_soon_threadsafe(_resolve, future, result, error)


def _resolve(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


async def _submit(kind: str, function: Callable[..., T], args: tuple, kwargs: dict) -> T:
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    _pool(kind).submit(_settle, loop, future, function, args, kwargs)
    return await future


async def run(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a member's action on a database thread; ``rate_limited`` when too many wait."""
    slots = _queue_slots()
    if not slots.acquire(blocking=False):
        raise TableError("rate_limited", _("The server is busy; try again in a moment."))
    try:
        return await _submit("actions", function, args, kwargs)
    finally:
        slots.release()


async def run_unbounded(
    function: Callable[..., T], *args: Any, urgent: bool = False, **kwargs: Any
) -> T:
    """For what must not be refused: a socket opening (``urgent``: with the members'
    actions), and housekeeping (a socket closing, presence, deadlines) on its own pool."""
    return await _submit("actions" if urgent else "housekeeping", function, args, kwargs)
