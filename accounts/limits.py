"""Rate limits, one way for the whole site: a ``Limit`` is declared beside the code that
names it, and ``limit.hit(key, now=...)`` counts one action of ``key`` (a member's id, a
socket's channel name) and answers False when it would go over. The caller refuses with
its own error (``rate_limited``, HTTP 429) and message.

    LOBBY_ACTIONS = Limit("lobby-actions", 10, 60, setting="LOBBY_ACTIONS_PER_MINUTE")
    if not LOBBY_ACTIONS.hit(member.pk, now=now):
        raise TableError("rate_limited", ...)

The counts live in Django's cache (Redis, shared by every process), one key per key and
window: a fixed window of ``seconds`` (a new window, a new allowance; a burst across the
boundary may reach twice the count, which a limit against floods allows). A refused
action is not counted. Counting only: the cache never says who may go ahead of whom
("at most N at once" is a database row lock or constraint), and a lost count costs a
little leniency, never correctness.

What one object receives alone (a socket's own messages: they all come to it, in one
process) is counted on that object instead, the same way: ``limit.tally()`` gives a
``Tally`` whose ``hit(now=...)`` answers as ``hit`` would, without a round trip to the
cache on the event loop for every frame.

A limit with ``setting`` reads that setting at each call (tests and deployments change
it): ``(count, seconds)`` or a count alone; the declared figures are its defaults.

This module is at the bottom of the apps' graph (``lobby -> games -> ratings ->
accounts``) so that every app declares its limits with it.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache

#: ``ACCOUNT_RATE_LIMITS["login_failed"]`` for allauth (config/settings.py): failed
#: logins per address (5 in 5 minutes), and per name from any address with a higher
#: ceiling (50), so that a stranger trying a member's name cannot lock that member out.
LOGIN_FAILED_RATE = "5/5m/ip,50/5m/key"


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions per key in each window of ``seconds`` (or the figures
    of ``setting``, read at each call). A window's count is kept ``seconds`` after its
    first action, by the cache's own clock.

    >>> Limit("lobby-actions", 10, 60).rate()
    (10, 60.0)
    """

    name: str
    count: int
    seconds: float
    setting: str | None = None

    def rate(self) -> tuple[int, float]:
        """``(count, seconds)`` as they are now: the setting's when it is set."""
        value = getattr(settings, self.setting, None) if self.setting else None
        if value is None:
            return self.count, float(self.seconds)
        if isinstance(value, tuple | list):
            count, seconds = value
            return int(count), float(seconds)
        return int(value), float(self.seconds)

    def hit(self, key: object, *, now: datetime | float) -> bool:
        """Count one action of ``key`` at ``now`` (a datetime or POSIX seconds): True when
        it is within the limit, False (and not counted) when it would go over."""
        count, seconds = self.rate()
        window = self._window(key, now, seconds)
        cache.add(window, 0, timeout=int(seconds) + 1)
        try:
            counted = cache.incr(window)
        except ValueError:  # the window's key expired between the two calls
            cache.add(window, 0, timeout=int(seconds) + 1)
            counted = cache.incr(window)
        if counted > count:
            with contextlib.suppress(ValueError):
                cache.decr(window)
            return False
        return True

    def tally(self) -> Tally:
        """A count of this limit kept by its one holder (``Tally``)."""
        return Tally(self)

    def over(self, key: object, *, now: datetime | float) -> bool:
        """Whether one more action of ``key`` at ``now`` would go over (counts nothing)."""
        count, seconds = self.rate()
        return cache.get(self._window(key, now, seconds), 0) >= count

    def retry_after(self, *, now: datetime | float) -> int:
        """Whole seconds from ``now`` until the window ends: when a refused action may
        be tried again (at least 1)."""
        seconds = self.rate()[1]
        at = now.timestamp() if isinstance(now, datetime) else float(now)
        return max(1, math.ceil(seconds - at % seconds))

    def _window(self, key: object, now: datetime | float, seconds: float) -> str:
        return self._key(key, _window_index(now, seconds))

    def _key(self, key: object, index: int) -> str:
        return f"limit:{self.name}:{key}:{index}"


@dataclass
class Tally:
    """One key's count of ``limit`` kept by the one object all its actions come to (a
    socket: its messages), in the same fixed windows as ``Limit.hit``; it lives and dies
    with its holder, so no other process needs to see it."""

    limit: Limit
    window: int | None = None
    used: int = 0

    def hit(self, *, now: datetime | float) -> bool:
        """Count one action at ``now``: True within the limit, False (not counted) over it."""
        count, seconds = self.limit.rate()
        window = _window_index(now, seconds)
        if window != self.window:
            self.window, self.used = window, 0
        if self.used >= count:
            return False
        self.used += 1
        return True


def _window_index(now: datetime | float, seconds: float) -> int:
    at = now.timestamp() if isinstance(now, datetime) else float(now)
    return int(at // seconds)


# Every socket of the site (``games.sockets``, each socket's own ``tally``): a member's
# messages, and a visitor's smaller budget (SPEC §7 ``rate_limited``). A bot's token
# shares the member's budget across processes (``lobby.bot_api``, keyed by the token).
SOCKET_MESSAGES = Limit("socket", 30, 10, setting="SOCKET_RATE")
VISITOR_SOCKET_MESSAGES = Limit("visitor-socket", 3, 10, setting="VISITOR_SOCKET_RATE")
