"""Database work of the sockets, off the event loop, on a bounded pool of threads.

Channels' ``database_sync_to_async`` runs every call of a process on one thread; under
load that thread was the bottleneck while the loop sat idle, and calls queued without
bound until handlers were killed waiting. Here calls run on ``DB_THREADS`` threads and at
most ``DB_QUEUE_LIMIT`` may wait: beyond that a request is refused at once.

One thread takes the calls; the others take them only while it has been held up on one
call for more than ``DB_STALL_MS`` (a lock wait, a slow statement). Threads that all
take calls contend for the interpreter's lock with each other and with the event loop:
a move then cost about 15 % more CPU than on one thread (docs/performance.md). With
``DB_STALL_MS`` 0 every thread takes calls.

What people wait for comes first: a member's action (``run``) and a socket opening
(``run_unbounded(..., urgent=True)``) are taken before housekeeping (a socket closing, a
presence refresh, a deadline), so after a flood the backlog of closing sockets does not
hold up the next move.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections
from django.utils.translation import gettext_lazy as _

from games.errors import TableError

T = TypeVar("T")

URGENT, LATER = 0, 1

_executor: PriorityPool | None = None
_waiting = 0


class PriorityPool:
    """``threads`` daemon threads taking calls by priority (lower first), then in the
    order they came: the first thread always, the others while the first has been held
    up on one call for more than ``stall`` seconds (every thread always when ``stall``
    is 0)."""

    def __init__(self, threads: int, *, stall: float = 0.0) -> None:
        self._queue: queue.PriorityQueue = queue.PriorityQueue()
        self._order = itertools.count()
        self._stall = stall
        self._held_since: float | None = None  # when the first thread began its call
        for index in range(threads):
            spare = index > 0 and stall > 0
            threading.Thread(
                target=self._help if spare else self._work, name=f"db_{index}", daemon=True
            ).start()

    def submit(self, priority: int, function: Callable[[], T]) -> Future:
        future: Future = Future()
        self.put(priority, function, future)
        return future

    def put(self, priority: int, function: Callable[[], Any], future: Future | _Settle) -> None:
        """Queue a call; ``future`` (a concurrent one, or an event loop's through
        ``_Settle``) gets its result."""
        self._queue.put((priority, next(self._order), function, future))

    def _work(self) -> None:
        while True:
            call = self._queue.get()
            self._held_since = time.monotonic()
            try:
                self._run(*call)
            finally:
                self._held_since = None

    def _help(self) -> None:
        """A spare thread: it looks twice per ``stall`` whether the first is held up."""
        while True:
            time.sleep(self._stall / 2)
            while self._held():
                try:
                    call = self._queue.get_nowait()
                except queue.Empty:
                    break
                self._run(*call)

    def _held(self) -> bool:
        since = self._held_since
        return since is not None and time.monotonic() - since > self._stall

    @staticmethod
    def _run(_priority, _order, function: Callable[[], Any], future: Future | _Settle) -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = function()
        except BaseException as error:  # handed to the waiting coroutine
            future.set_exception(error)
        else:
            future.set_result(result)


class _Settle:
    """What the pool's threads need of a future, for an event loop's own: its result
    reaches the loop in one call, without the concurrent future, its lock and the two
    chained callbacks of ``asyncio.wrap_future``."""

    __slots__ = ("future", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future) -> None:
        self.loop, self.future = loop, future

    def set_running_or_notify_cancel(self) -> bool:
        return not self.future.cancelled()  # a socket that went away needs no answer

    def set_result(self, result: Any) -> None:
        self._settle(result, None)

    def set_exception(self, error: BaseException) -> None:
        self._settle(None, error)

    def _settle(self, result: Any, error: BaseException | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: the process is stopping
            self.loop.call_soon_threadsafe(_resolve, self.future, result, error)


def _resolve(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _pool() -> PriorityPool:
    global _executor
    if _executor is None:
        _executor = PriorityPool(settings.DB_THREADS, stall=settings.DB_STALL_MS / 1000)
    return _executor


def _call(function: Callable[..., T], args: tuple, kwargs: dict) -> T:
    try:
        return function(*args, **kwargs)
    finally:
        close_old_connections()  # drops a connection that broke or outlived CONN_MAX_AGE


async def _submit(priority: int, function: Callable[..., T], args: tuple, kwargs: dict) -> T:
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    _pool().put(priority, functools.partial(_call, function, args, kwargs), _Settle(loop, future))
    return await future


async def run(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a member's action on a database thread; ``rate_limited`` when too many wait."""
    global _waiting
    if _waiting >= settings.DB_QUEUE_LIMIT:
        raise TableError("rate_limited", _("The server is busy; try again in a moment."))
    _waiting += 1
    try:
        return await _submit(URGENT, function, args, kwargs)
    finally:
        _waiting -= 1


async def run_unbounded(
    function: Callable[..., T], *args: Any, urgent: bool = False, **kwargs: Any
) -> T:
    """For what must not be refused: a socket opening (``urgent``), and housekeeping that
    may wait behind members' actions (a socket closing, presence, deadlines)."""
    return await _submit(URGENT if urgent else LATER, function, args, kwargs)
