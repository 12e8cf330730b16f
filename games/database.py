"""How the site's PostgreSQL connections read times.

Django reads every ``timestamptz`` through its own loader, a subclass of psycopg's
pure-Python one, so each time column of each row is parsed in Python: a move's lock
reads fourteen of them, about a tenth of its CPU (docs/performance.md). On a connection
whose session time zone is UTC, as the site's are, psycopg's compiled loader gives the
same aware UTC datetime; ``fast_times`` puts it in front of Django's for the whole
connection.
"""

from __future__ import annotations

from datetime import UTC
from functools import cache
from typing import Any

try:
    from psycopg import adapters, postgres
    from psycopg.adapt import Loader
    from psycopg.pq import Format
except ImportError:  # SQLite only (make run without PostgreSQL's driver installed)
    Loader = object  # type: ignore[assignment,misc]


class UtcTimestampLoader(Loader):  # type: ignore[misc,valid-type]
    """``timestamptz`` as text, parsed by psycopg's compiled loader. ``timezone`` is what
    Django's cursors compare with the connection's (they re-register theirs otherwise)."""

    timezone = UTC

    def __init__(self, oid: int, context: Any = None) -> None:
        super().__init__(oid, context)
        self._load = _compiled()(oid, context).load

    def load(self, data: Any) -> Any:
        return self._load(data)


@cache
def _compiled() -> type:
    return adapters.get_loader(postgres.types["timestamptz"].oid, Format.TEXT)


def fast_times(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: read times with the compiled loader (PostgreSQL, UTC)."""
    if connection.vendor != "postgresql" or connection.timezone_name != "UTC":
        return
    raw = connection.connection
    if raw.info.parameter_status("TimeZone") != "UTC":
        return  # the compiled loader follows the session's zone: only UTC is the same
    raw.adapters.register_loader("timestamptz", UtcTimestampLoader)
