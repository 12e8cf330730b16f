"""Two statements in one round trip to PostgreSQL (libpq's pipeline mode), for the move.

A move's transaction is four statements: ``BEGIN``, the lock (``rows.match_and_seats_locked``),
the save (``rows.match_save``) and ``COMMIT``. Through a cursor that is four round trips,
each with psycopg's and Django's machinery around it. Here ``BEGIN`` travels with the
lock and ``COMMIT`` with the save: two round trips, sent from libpq's own connection
with the parameters and rows adapted by the connection's psycopg adapters, as a cursor
would (docs/performance.md).

Only where the service owns the whole transaction: ``begin_with`` when its atomic block
is the outermost and nothing ran in it yet, ``commit_with`` when the statement is the
last of that transaction (the caller's promise; ``transaction.on_commit`` hooks still run
when the block exits). Elsewhere, and on SQLite, ``owned`` is false and the callers use a
cursor. Statements are prepared once per connection under a name, unless the connection
prepares nothing (``DB_PREPARE_THRESHOLD`` empty, behind a pooler).

Django's query log (``DEBUG``, ``CaptureQueriesContext``) lists the statement sent here
as a cursor's would be listed; ``BEGIN`` and ``COMMIT`` are listed by Django itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import select
import time
import weakref
from collections.abc import Sequence
from functools import cache
from typing import Any

from psycopg import errors, pq
from psycopg.adapt import PyFormat, Transformer


class _Kept:
    """What this module keeps for each of psycopg's connections: the names it prepared
    there, and an adapter of its parameters and rows."""

    __slots__ = ("prepared", "transformer")

    def __init__(self, raw) -> None:
        self.prepared: set[bytes] = set()
        self.transformer = Transformer(raw)


_kept: weakref.WeakKeyDictionary[Any, _Kept] = weakref.WeakKeyDictionary()

# psycopg deallocates every prepared statement of a connection at times (a rollback, a
# DISCARD): the lock's statement is then prepared again (``begin_with``).
UNDEFINED_STATEMENT = "26000"


class _Missing(Exception):
    """A prepared statement of ours is no longer on the server."""

    def __init__(self, error: errors.Error) -> None:
        super().__init__(str(error))
        self.error = error


def owned(connection) -> bool:
    """Whether the connection is PostgreSQL's and inside exactly one atomic block (a
    service's own, with no savepoint): that block's transaction is the caller's."""
    return (
        connection.vendor == "postgresql"
        and connection.in_atomic_block
        and len(connection.atomic_blocks) == 1
        and not connection.savepoint_ids
    )


def idle(connection) -> bool:
    """Whether nothing ran in the connection's current transaction (opening it first)."""
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    return connection.connection.pgconn.transaction_status == pq.TransactionStatus.IDLE


def alone(connection, sql: str, params: Sequence[Any]) -> list[tuple] | None:
    """``BEGIN``, ``sql`` and ``COMMIT`` in one round trip (the caller checked ``owned``
    and ``idle``); the rows of ``sql``. None when a prepared statement of ours was gone:
    nothing ran, the transaction is rolled back, and the next call prepares it again."""
    connection.validate_no_broken_transaction()
    raw = connection.connection
    try:
        return _run(connection, sql, params, before=_begin(raw), after=b"COMMIT")
    except _Missing:
        _kept.pop(raw, None)
        with connection.wrap_database_errors:
            raw.rollback()
        return None


def begin_with(connection, sql: str, params: Sequence[Any]) -> list[tuple]:
    """``BEGIN`` and ``sql`` in one round trip; the rows of ``sql``. If something ran in
    the transaction already, ``sql`` goes through a cursor."""
    connection.validate_no_broken_transaction()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = connection.connection
    if raw.pgconn.transaction_status != pq.TransactionStatus.IDLE:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    try:
        return _run(connection, sql, params, before=_begin(raw))
    except _Missing:
        _kept.pop(raw, None)
        with connection.wrap_database_errors:
            raw.rollback()  # nothing ran in it but the failed statement
        return _run(connection, sql, params, before=_begin(raw))


def commit_with(connection, sql: str, params: Sequence[Any]) -> None:
    """``sql`` and ``COMMIT`` in one round trip: the transaction ends here. Django's
    commit at the end of the atomic block then finds nothing to commit."""
    connection.validate_no_broken_transaction()
    try:
        _run(connection, sql, params, after=b"COMMIT")
    except _Missing as missing:  # deallocated since the lock: the transaction is lost
        with connection.wrap_database_errors:
            raise missing.error from None


def _begin(raw) -> bytes:
    """psycopg's own start of a transaction, with the connection's characteristics."""
    words = [b"BEGIN"]
    if raw.isolation_level is not None:
        words.append(b"ISOLATION LEVEL " + raw.isolation_level.name.replace("_", " ").encode())
    if raw.read_only is not None:
        words.append(b"READ ONLY" if raw.read_only else b"READ WRITE")
    if raw.deferrable is not None:
        words.append(b"DEFERRABLE" if raw.deferrable else b"NOT DEFERRABLE")
    return b" ".join(words)


def _run(
    connection,
    sql: str,
    params: Sequence[Any],
    *,
    before: bytes | None = None,
    after: bytes | None = None,
) -> list[tuple]:
    raw = connection.connection
    pgconn = raw.pgconn
    kept = _kept.get(raw)
    if kept is None:
        kept = _kept[raw] = _Kept(raw)
    transformer = kept.transformer
    started = time.monotonic()
    with connection.wrap_database_errors:
        values = transformer.dump_sequence(params, [PyFormat.TEXT] * len(params))
        name, text = _statement(sql)
        prepare = raw.prepare_threshold is not None
        known = kept.prepared if prepare else set()
        parsed = prepare and name not in known
        pgconn.enter_pipeline_mode()
        try:
            if before is not None:
                pgconn.send_query_params(before, None)
            if parsed:
                pgconn.send_prepare(name, text)
            if prepare:
                pgconn.send_query_prepared(name, values)
            else:
                pgconn.send_query_params(text, values)
            if after is not None:
                pgconn.send_query_params(after, None)
            pgconn.pipeline_sync()
            results = _results(pgconn)
        finally:
            # A connection that broke keeps its error; Django closes it afterwards.
            with contextlib.suppress(errors.OperationalError):
                if pgconn.pipeline_status != pq.PipelineStatus.OFF and not pgconn.is_busy():
                    pgconn.exit_pipeline_mode()
        if parsed and results[1 if before else 0].status == pq.ExecStatus.COMMAND_OK:
            known.add(name)
        for result in results:
            if result.status == pq.ExecStatus.FATAL_ERROR:
                error = errors.error_from_result(result, encoding=raw.info.encoding)
                if error.sqlstate == UNDEFINED_STATEMENT:
                    known.discard(name)
                    raise _Missing(error)
                raise error
    _log(connection, started, text, values)
    found = results[-2 if after else -1]
    transformer.set_pgresult(found)
    return transformer.load_rows(0, found.ntuples, tuple)


@cache
def _statement(sql: str) -> tuple[bytes, bytes]:
    """A statement's name (from its text) and its text with libpq's ``$n`` placeholders
    for Django's ``%s``."""
    parts = sql.split("%s")
    text = parts[0] + "".join(f"${index}{part}" for index, part in enumerate(parts[1:], 1))
    digest = hashlib.blake2b(sql.encode(), digest_size=8).hexdigest()
    return f"vog_{digest}".encode(), text.encode()


def _results(pgconn) -> list:
    """Every statement's result up to the pipeline's sync point (the first of each)."""
    _flush(pgconn)
    results, current = [], None
    while True:
        while pgconn.is_busy():
            select.select([pgconn.socket], [], [])  # the thread waits without the GIL
            pgconn.consume_input()
        result = pgconn.get_result()
        if result is None:  # the end of one statement's results
            results.append(current)
            current = None
        elif result.status == pq.ExecStatus.PIPELINE_SYNC:
            return results
        elif current is None:
            current = result


def _flush(pgconn) -> None:
    while pgconn.flush():
        readable, _, _ = select.select([pgconn.socket], [pgconn.socket], [])
        if readable:
            pgconn.consume_input()


def _log(connection, started: float, text: bytes, values) -> None:
    """As a cursor's statement is logged (Django logs ``BEGIN`` and ``COMMIT`` itself,
    as the atomic block opens and closes)."""
    if connection.queries_logged:
        shown = [bytes(value).decode() if value is not None else None for value in values]
        connection.queries_log.append(
            {"sql": f"{text.decode()} -- {shown}", "time": f"{time.monotonic() - started:.3f}"}
        )
