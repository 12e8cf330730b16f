"""Database work of the sockets, off the event loop, on standard thread pools.

Members' actions and socket openings run on one thread (a
``concurrent.futures.ThreadPoolExecutor`` of one); a call that has waited ``DB_STALL_MS``
for it (the thread is held up by a lock wait or a slow statement) is offered to the
``DB_THREADS`` - 1 spare threads too, by a timer on the event loop, and runs on whichever
takes it first. Threads that all take calls contend for the interpreter's lock with each
other and with the event loop: with two, a saturated process switched threads about
three times as often a move and spent about a fifth more CPU on it
(docs/performance.md). With ``DB_STALL_MS`` 0 every thread takes calls.

At most ``DB_QUEUE_LIMIT`` actions may wait or run at once (a semaphore): beyond that a
member's action is refused at once with ``rate_limited`` instead of queueing for
seconds. Housekeeping (a socket closing, a presence refresh, a deadline) runs on a pool
of its own, so after a flood the backlog of closing sockets never holds up the next
move. A call whose socket went away before a thread took it never runs (the waiting
coroutine was cancelled).

A call's result reaches the event loop in one ``call_soon_threadsafe`` from the thread
that ran it: ``run_in_executor`` would chain a concurrent future to the loop's through
two callbacks and a lock, which cost a saturated process's event loop about a tenth of
its time (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
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
#: when the actions thread began the call it is running (``time.monotonic``), or None
_held_since: float | None = None


def _stall() -> float:
    """Seconds a call waits before the spare threads may take it; 0: no spares."""
    return settings.DB_STALL_MS / 1000 if settings.DB_THREADS > 1 else 0.0


def _pool(kind: str) -> ThreadPoolExecutor:
    pool = _pools.get(kind)
    if pool is None:
        with _lock:
            pool = _pools.get(kind)
            if pool is None:
                threads = {
                    "actions": 1 if _stall() else settings.DB_THREADS,
                    "spare": settings.DB_THREADS - 1,
                    "housekeeping": HOUSEKEEPING_THREADS,
                }[kind]
                pool = _pools[kind] = ThreadPoolExecutor(threads, thread_name_prefix=f"db-{kind}")
    return pool


def _queue_slots() -> threading.BoundedSemaphore:
    global _slots
    if _slots is None:
        _slots = threading.BoundedSemaphore(settings.DB_QUEUE_LIMIT)
    return _slots


def reset() -> None:
    """Forget the pools and the queue's size (tests that change the settings)."""
    global _slots, _held_since
    for pool in _pools.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _pools.clear()
    _slots, _held_since = None, None


def _call(function: Callable[..., T], args: tuple, kwargs: dict) -> T:
    try:
        return function(*args, **kwargs)
    finally:
        close_old_connections()  # drops a connection that broke or outlived CONN_MAX_AGE


class _Call:
    """One call for a pool's thread; it runs once, on the first thread to take it, unless
    its coroutine was cancelled meanwhile (the socket went away), and hands its result or
    exception to the loop's future."""

    __slots__ = ("args", "function", "future", "kwargs", "loop", "taken")

    def __init__(self, loop, future, function, args, kwargs) -> None:
        self.loop, self.future = loop, future
        self.function, self.args, self.kwargs = function, args, kwargs
        self.taken = threading.Lock()

    def run(self) -> None:
        if self.future.cancelled() or not self.taken.acquire(blocking=False):
            return
        result, error = None, None
        try:
            result = _call(self.function, self.args, self.kwargs)
        except BaseException as failure:  # raised in the waiting coroutine
            error = failure
        with contextlib.suppress(RuntimeError):  # the loop closed: the process is stopping
            self.loop.call_soon_threadsafe(_resolve, self.future, result, error)

    def run_first(self) -> None:
        """On the actions thread: it is held up from now until the call ends."""
        global _held_since
        _held_since = time.monotonic()
        try:
            self.run()
        finally:
            _held_since = None


def _resolve(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _offer(call: _Call, stall: float) -> None:
    """On the loop, ``stall`` after a call was queued and while it waits: when the
    actions thread has been on one call for ``stall`` (a lock wait, a slow statement), a
    spare thread may take this one; when it is merely busy, look again later."""
    if call.taken.locked() or call.future.done():
        return
    since = _held_since
    if since is not None and time.monotonic() - since >= stall:
        _pool("spare").submit(call.run)
    else:
        call.loop.call_later(stall, _offer, call, stall)


async def _submit(kind: str, function: Callable[..., T], args: tuple, kwargs: dict) -> T:
    loop = asyncio.get_running_loop()
    call = _Call(loop, loop.create_future(), function, args, kwargs)
    stall = _stall() if kind == "actions" else 0.0
    if not stall:
        _pool(kind).submit(call.run)
        return await call.future
    _pool(kind).submit(call.run_first)
    timer = loop.call_later(stall, _offer, call, stall)
    try:
        return await call.future
    finally:
        timer.cancel()


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
