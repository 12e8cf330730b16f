"""Services whose transactions PostgreSQL may end to break a deadlock run again."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.db import OperationalError, transaction

Service = TypeVar("Service", bound=Callable[..., Any])
DEADLOCK = "40P01"  # PostgreSQL's code for a transaction it ended to break a deadlock
DEADLOCK_ATTEMPTS = 3


def deadlock_retried(service: Service) -> Service:
    """Run ``service`` again when PostgreSQL ends its transaction to break a deadlock.

    A match's start locks its own row (the waiting table, the challenge, the finished
    match of a rematch) and then withdraws its members' other waiting tables and
    challenges, locking those too (SPEC §10); a ban or a deletion locks the member's row
    and then the same tables. Two such changes for one member at the same moment (two of a
    host's tables joined at once, a bot taking a member's rematch as a table of theirs
    fills, a ban as a table of the member's fills) may each hold a row the other needs.
    PostgreSQL ends one of the two; it runs again from the start and finds what the other
    did (that table gone, that challenge withdrawn, that match to end), so its caller
    gets the same answer as a moment later. Only a service called outside any
    transaction runs again: inside one, the failure goes up to whoever opened it."""

    @wraps(service)
    def run(*args, **kwargs):
        for attempt in range(1, DEADLOCK_ATTEMPTS + 1):
            try:
                return service(*args, **kwargs)
            except OperationalError as failure:
                cause = getattr(failure.__cause__, "sqlstate", None)
                if (
                    cause != DEADLOCK
                    or attempt == DEADLOCK_ATTEMPTS
                    or transaction.get_connection().in_atomic_block
                ):
                    raise

    return run  # type: ignore[return-value]
