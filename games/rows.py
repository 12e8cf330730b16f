"""The statements of a move and of a socket opening, written out, and the engine state
each process keeps of the tables it changed.

A move locks the match, reads its seats, stores the move and saves the match's changed
columns; a socket opening reads the table and its chat. Built by the ORM, composing
those statements cost more CPU than running them (docs/performance.md), so the hot
paths write them once here. Everything else uses the ORM as usual.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.contrib.sessions.models import Session
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import DateTimeField

from accounts.models import User
from games import pipeline
from games.engine.match import MatchState
from games.models import ChatMessage, Match, Move, Presence, Seat
from games.state import SeatRow

# The engine state of the last version of each table this process committed, with the
# state column as it was stored: the next move there neither reads nor parses it again.
# With it, where the commit had them, the match's columns and its seats (``kept_table``).
# Filled only after commit; nothing changes a stored state in place.
_committed: dict[int, tuple[int, MatchState, dict[str, Any], _Table | None]] = {}
COMMITTED_KEPT = 4096

# What this process heard of the versions other processes committed: each table's last
# state event carries its table as plain data (``portable``), kept here as it came
# (``heard``) and made into a kept table only when a move here needs it (``kept_table``).
# So a table's next move is worked out without the lock whichever process committed the
# last one, and a process that only serves spectators of a table stores a reference.
_heard: dict[int, tuple[int, dict[str, Any]]] = {}


@dataclass(frozen=True, slots=True)
class _Table:
    """A committed version's match columns (``_match_select``'s) and seats."""

    values: tuple
    seats: tuple[SeatRow, ...]


class Moved(Exception):
    """A move worked out from a kept version was not stored: the table moved on since
    (another process, the worker), the mover's session ended or their standing changed,
    or the move does more than a move. Nothing was stored; the caller takes the lock."""


@dataclass(frozen=True, slots=True)
class Guard:
    """What a move worked out from a kept version is stored on (``match_save``): the
    match still at ``version``, and the mover's session (when given) and standing valid
    at ``now``, checked by the save itself."""

    version: int
    member_id: int
    session_key: str | None
    now: datetime


# The lock of a move: PostgreSQL's function of migration 0009.
TABLE_LOCKED = "SELECT * FROM games_table_locked(%s, %s, %s, %s)"


def _db():
    """This thread's default connection: what ``django.db.connection`` stands for, looked
    up once per call here rather than at every attribute."""
    return connections[DEFAULT_DB_ALIAS]


def engine_state(match: Match) -> MatchState:
    """The match's engine state, from this process's last commit when it is the same
    version, else from the row. Engine states are immutable: sharing one is safe."""
    kept = _committed.get(match.pk)
    if kept is not None and kept[0] == match.version:
        return kept[1]
    return MatchState.from_dict(match.state)


def kept(match: Match, seats: Iterable[SeatRow]) -> _Table:
    """A match's columns and seats as just saved, for ``remember``."""
    names = _match_select(_db().vendor)[0]
    # What the rows say of a member's session is the locker's own: never kept.
    return _Table(
        tuple(getattr(match, name) for name in names),
        tuple(row._replace(session_ok=True) for row in seats),
    )


def remember(
    match_id: int,
    version: int,
    state: MatchState,
    stored: dict[str, Any],
    table: _Table | None = None,
) -> None:
    """Keep the state a transaction committed and its column (call it after commit);
    with the ``table`` as committed (``kept``), the next move can be worked out from it
    (``kept_table``)."""
    if len(_committed) >= COMMITTED_KEPT:
        _committed.clear()  # a cache of the hot tables: starting over costs one parse each
    _committed[match_id] = (version, state, stored, table)


def portable(table: _Table) -> dict[str, Any]:
    """A kept table as plain data, for the state event that other processes hear."""
    return {
        "values": [_plain(value) for value in table.values],
        "seats": [[_plain(value) for value in row] for row in table.seats],
    }


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def heard(match_id: int, event: dict[str, Any]) -> None:
    """A table's state event arrived (on the event loop): keep the table it carries,
    unless this process committed or heard that version or a later one."""
    payload = event.get("kept")
    if payload is None:
        return
    version = event["version"]
    for known in (_committed.get(match_id), _heard.get(match_id)):
        if known is not None and known[0] >= version:
            return
    if len(_heard) >= COMMITTED_KEPT:
        _heard.clear()
    _heard[match_id] = (version, payload)


def _heard_table(match_id: int, version: int) -> None:
    """Make the table heard at ``version`` this process's kept one (``remember``), when
    it heard that version and committed none as late."""
    found = _heard.get(match_id)
    mine = _committed.get(match_id)
    if found is None or found[0] != version or (mine is not None and mine[0] >= version):
        return
    names = _match_select(_db().vendor)[0]
    moments, seat_moments = _moments(tuple(names))
    values = tuple(
        _moment(value) if i in moments else value for i, value in enumerate(found[1]["values"])
    )
    seats = tuple(
        SeatRow(*(_moment(value) if i in seat_moments else value for i, value in enumerate(row)))
        for row in found[1]["seats"]
    )
    stored = values[names.index("state")]
    remember(match_id, version, MatchState.from_dict(stored), stored, _Table(values, seats))


SEAT_MOMENTS = ("absent_since", "banned_at", "banned_until")


@cache
def _moments(names: tuple[str, ...]) -> tuple[frozenset[int], frozenset[int]]:
    """Which of the match's columns and of a seat's fields are datetimes."""
    match = {i for i, name in enumerate(names) if isinstance(_field(Match, name), DateTimeField)}
    seat = {i for i, name in enumerate(SeatRow._fields) if name in SEAT_MOMENTS}
    return frozenset(match), frozenset(seat)


def _field(model, name: str):
    """A model's field by its attribute name (a foreign key's ``…_id`` too)."""
    return model._meta.get_field(name.removesuffix("_id"))


def _moment(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def kept_table(match_id: int, version: int) -> tuple[Match, list[SeatRow]] | None:
    """The match and its seats at ``version`` as this process committed them, or as it
    heard another process did (``heard``), when that is the last version it knows there
    (on PostgreSQL; None otherwise). A move worked out from them is stored with a
    ``Guard``: the row may have moved on since."""
    connection = _db()
    kept = _committed.get(match_id)
    if kept is None or kept[0] != version:
        _heard_table(match_id, version)
        kept = _committed.get(match_id)
    if kept is None or kept[0] != version or kept[3] is None or connection.vendor != "postgresql":
        return None
    names = _match_select(connection.vendor)[0]
    match = Match.from_db(connection.alias, names, list(kept[3].values))
    return match, list(kept[3].seats)


def _converters(model, names: list[str]) -> list[list]:
    """What the ORM applies to each column read (JSON, datetimes on SQLite, …)."""
    connection = _db()
    result = []
    for name in names:
        field = _field(model, name)
        column = field.get_col(model._meta.db_table)
        result.append(
            connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        )
    return result


def _convert(row, converters) -> list:
    connection = _db()
    values = []
    for value, functions in zip(row, converters, strict=True):
        for function in functions:
            value = function(value, None, connection)
        values.append(value)
    return values


@cache
def _match_select(vendor: str, lock: bool = True) -> tuple[list[str], str, list[list]]:
    """The match's columns (all but its board), its statement and converters."""
    connection = _db()
    fields = [f for f in Match._meta.concrete_fields if f.attname != "board"]
    names = [f.attname for f in fields]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    table = quote(Match._meta.db_table)
    lock_sql = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    return (
        names,
        f"SELECT {columns} FROM {table} WHERE id = %s{lock_sql}",
        _converters(Match, names),
    )


def match_locked(match_id: int) -> Match | None:
    """``SELECT … FOR UPDATE`` of a match (all but its board), as a model instance."""
    return match_read(match_id, lock=True)


def match_read(match_id: int, *, lock: bool = False) -> Match | None:
    """A match (all but its board) as a model instance, locked or not."""
    connection = _db()
    names, sql, converters = _match_select(connection.vendor, lock)
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return Match.from_db(connection.alias, names, _convert(row, converters))


def _seats_sql(session_key: str | None, now: datetime | None) -> tuple[str, list[Any]]:
    """The seats' statement; its parameters, but for the match id that comes last."""
    connection = _db()
    seat, user, session = (
        connection.ops.quote_name(model._meta.db_table) for model in (Seat, User, Session)
    )
    valid = "TRUE"
    params: list[Any] = []
    if session_key is not None:
        valid = f"EXISTS (SELECT 1 FROM {session} WHERE session_key = %s AND expire_date > %s)"
        params += [session_key, connection.ops.adapt_datetimefield_value(now)]
    sql = (
        f"SELECT s.seat, s.member_id, u.username, s.rating, s.connected, s.absent_since, "
        f"u.banned_at, u.banned_until, {valid}, s.bot_level "
        f"FROM {seat} s LEFT JOIN {user} u ON u.id = s.member_id "
        f"WHERE s.match_id = %s ORDER BY s.seat"
    )
    return sql, params


def _seat_rows(rows) -> list[SeatRow]:
    connection = _db()
    converters = _seat_converters(connection.vendor)
    return [SeatRow(*_convert(row, converters)) for row in rows]


def seats_read(match_id: int, *, session_key: str | None, now: datetime | None) -> list[SeatRow]:
    """The seats with their members' names and bans, and whether ``session_key`` is still
    valid (one statement)."""
    connection = _db()
    sql, params = _seats_sql(session_key, now)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, match_id])
        return _seat_rows(cursor.fetchall())


def match_and_seats_locked(
    match_id: int, *, session_key: str | None, now: datetime | None
) -> tuple[Match | None, list[SeatRow]]:
    """``match_locked`` and then ``seats_read``. On PostgreSQL one call of the function
    ``games_table_locked`` (migration 0009) does both: its plans are kept, and its read
    after the lock sees the seats as the lock's previous holder committed them."""
    connection = _db()
    if connection.vendor != "postgresql":
        return match_locked(match_id), seats_read(match_id, session_key=session_key, now=now)
    kept = _committed.get(match_id)
    params = [
        match_id,
        kept[0] if kept is not None else None,
        session_key,
        connection.ops.adapt_datetimefield_value(now),
    ]
    if pipeline.owned(connection):  # BEGIN goes with it, in one round trip
        found = pipeline.begin_with(connection, TABLE_LOCKED, params)
    else:
        with connection.cursor() as cursor:
            cursor.execute(TABLE_LOCKED, params)
            found = cursor.fetchall()
    if not found:
        return None, []
    names, _, converters = _match_select(connection.vendor)
    split = len(names)  # the function's columns: the match's, then the seat's
    match = Match.from_db(connection.alias, names, _convert(found[0][:split], converters))
    if match.state is None:  # the row is at the kept version: its state is the kept one
        match.state = kept[2]
    if found[0][split] is None:  # no seats yet (the LEFT JOIN's one row)
        return match, []
    return match, _seat_rows(row[split:] for row in found)


def _client_binding_cursor():
    """A cursor that binds parameters into the text, as the simple query protocol needs
    to carry two statements at once (the site's other cursors bind on the server)."""
    from django.db.backends.postgresql.base import Cursor

    connection = _db()
    connection.ensure_connection()
    wrap = connection.make_debug_cursor if connection.queries_logged else connection.make_cursor
    return wrap(Cursor(connection.connection))


@cache
def _seat_converters(vendor: str) -> list[list]:
    when = _converters(Seat, ["absent_since"])[0]  # datetimes: text on SQLite
    flag = [lambda value, expression, connection: bool(value)]
    return [[], [], [], [], flag, when, when, when, flag, []]


def _move_values(move: dict) -> list:
    connection = _db()
    return [
        move["game_id"],
        move["ply"],
        move["seat"],
        move["color"],
        move["gained"],
        move["clock_ms"],
        connection.ops.adapt_datetimefield_value(move["played_at"]),
    ]


MOVE_COLUMNS = "(game_id, ply, seat, color, gained, clock_ms, played_at)"


def match_save(
    match: Match,
    fields: Iterable[str],
    *,
    move: dict | None = None,
    last: bool = False,
    guard: Guard | None = None,
) -> None:
    """``UPDATE`` the given columns of a match (what ``save(update_fields=…)`` does), and
    store ``move`` (the ``Move`` row's columns) with it: on PostgreSQL in the same
    statement, so a move costs one round trip less. ``last``: nothing follows in the
    service's transaction, so on PostgreSQL ``COMMIT`` goes with it (``games.pipeline``).
    With ``guard`` (a move worked out from a kept version, no lock taken): ``BEGIN``, the
    save and ``COMMIT`` in one round trip, the save made only where the guard holds;
    ``Moved`` where it does not, or where this cannot be the transaction's only
    statement."""
    connection = _db()
    assignments, params = [], []
    for name in sorted(fields):
        field = Match._meta.get_field(name)
        value = field.pre_save(match, add=False)
        assignments.append(f"{connection.ops.quote_name(field.column)} = %s")
        params.append(field.get_db_prep_save(value, connection))
    params.append(match.pk)
    table = connection.ops.quote_name(Match._meta.db_table)
    moves = connection.ops.quote_name(Move._meta.db_table)
    update = f"UPDATE {table} SET {', '.join(assignments)} WHERE id = %s"
    if guard is not None:
        _guarded_save(connection, update, params, move, guard)
        return
    insert = f"INSERT INTO {moves} {MOVE_COLUMNS} VALUES (%s, %s, %s, %s, %s, %s, %s)"
    if move is not None and connection.vendor == "postgresql":  # one statement for both
        update, params = f"WITH stored AS ({insert}) {update}", [*_move_values(move), *params]
        move = None
    if move is None and last and pipeline.owned(connection):
        pipeline.commit_with(connection, update, params)
        return
    with connection.cursor() as cursor:
        if move is not None:
            cursor.execute(insert, _move_values(move))
        cursor.execute(update, params)


def _guarded_save(connection, update: str, params: list, move: dict | None, guard: Guard) -> None:
    """The save of ``match_save`` with ``guard``: the row updated only while it is at the
    guard's version and the mover may act (a valid session, not banned), the move stored
    only with it; one round trip with ``BEGIN`` and ``COMMIT``."""
    if not pipeline.owned(connection) or not pipeline.idle(connection):
        raise Moved  # something ran in the transaction already: the lock's way
    quote = connection.ops.quote_name
    user, session = (quote(model._meta.db_table) for model in (User, Session))
    now = connection.ops.adapt_datetimefield_value(guard.now)
    update += (
        f" AND version = %s AND EXISTS (SELECT 1 FROM {user} WHERE id = %s"
        f" AND (banned_at IS NULL OR banned_until <= %s))"
    )
    params = [*params, guard.version, guard.member_id, now]
    if guard.session_key is not None:
        update += (
            f" AND EXISTS (SELECT 1 FROM {session} WHERE session_key = %s AND expire_date > %s)"
        )
        params += [guard.session_key, now]
    sql = f"WITH saved AS ({update} RETURNING id)"
    if move is not None:
        moves = quote(Move._meta.db_table)
        sql += f", stored AS (INSERT INTO {moves} {MOVE_COLUMNS} SELECT {_move_casts()} FROM saved)"
        params += _move_values(move)
    found = pipeline.alone(connection, f"{sql} SELECT count(*) FROM saved", params)
    if found is None or found[0][0] != 1:
        raise Moved


@cache
def _move_casts() -> str:
    """The move's parameters typed as its columns (an ``INSERT … SELECT`` does not infer
    them)."""
    connection = _db()
    names = MOVE_COLUMNS.strip("()").split(", ")
    fields = [Move._meta.get_field(name.removesuffix("_id")) for name in names]
    return ", ".join(f"%s::{field.cast_db_type(connection)}" for field in fields)


def chat_rows(match_id: int, *, player: bool, limit: int) -> list[tuple]:
    """The latest ``limit`` chat messages of a table, newest first: (id, author's name,
    text, time, audience); players' sockets never get spectators-only messages."""
    connection = _db()
    chat, user = (connection.ops.quote_name(m._meta.db_table) for m in (ChatMessage, User))
    hidden = "AND c.audience <> %s " if player else ""
    sql = (
        f"SELECT c.id, u.username, c.text, c.created_at, c.audience FROM {chat} c "
        f"LEFT JOIN {user} u ON u.id = c.author_id WHERE c.match_id = %s {hidden}"
        f"ORDER BY c.created_at DESC, c.id DESC LIMIT %s"
    )
    params = [match_id, *([ChatMessage.Audience.SPECTATORS] if player else []), limit]
    converters = _chat_converters(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [tuple(_convert(row, converters)) for row in cursor.fetchall()]


@cache
def _chat_converters(vendor: str) -> list[list]:
    return [[], [], [], _converters(ChatMessage, ["created_at"])[0], []]


def presence_close(channel_name: str, now: datetime) -> bool:
    """Mark a socket's presence closed and its member seen ``now``, in one statement on
    PostgreSQL; False elsewhere (the caller uses the ORM)."""
    connection = _db()
    if connection.vendor != "postgresql":
        return False
    presence, user = (connection.ops.quote_name(m._meta.db_table) for m in (Presence, User))
    at = connection.ops.adapt_datetimefield_value(now)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH closed AS (UPDATE {presence} SET closed = TRUE, last_seen = %s "
            f"WHERE channel_name = %s RETURNING member_id) "
            f"UPDATE {user} SET last_seen = %s WHERE id IN (SELECT member_id FROM closed)",
            [at, channel_name, at],
        )
    return True


def presence_open(
    *,
    channel_name: str,
    member_id: int,
    match_id: int | None,
    seat: int | None,
    now: datetime,
    horizon: datetime,
    caps: tuple[int, int],
) -> bool | None:
    """A member's socket opened, on PostgreSQL in one round trip: the member seen ``now``
    (the row's lock orders their sockets opening at the same moment; the next statement
    reads after it), their sockets counted, and this one stored unless that makes more
    than ``caps`` (anywhere, at this table). Whether it was stored; None elsewhere (the
    caller uses the ORM)."""
    connection = _db()
    if connection.vendor != "postgresql":
        return None
    presence, user = (connection.ops.quote_name(m._meta.db_table) for m in (Presence, User))
    at, since = (connection.ops.adapt_datetimefield_value(t) for t in (now, horizon))
    anywhere, here = caps
    sql = (
        f"UPDATE {user} SET last_seen = %s WHERE id = %s; "
        f"WITH mine AS (SELECT count(*) AS anywhere, "
        f"count(*) FILTER (WHERE match_id = %s) AS here FROM {presence} "
        f"WHERE member_id = %s AND NOT closed AND last_seen > %s), "
        f"stored AS (INSERT INTO {presence} "
        f"(channel_name, member_id, match_id, seat, opened_at, last_seen, closed) "
        f"SELECT %s, %s, %s, %s, %s, %s, FALSE FROM mine "
        f"WHERE anywhere < %s AND (%s::bigint IS NULL OR here < %s) RETURNING 1) "
        f"SELECT count(*) FROM stored"
    )
    params = [at, member_id, match_id, member_id, since]
    params += [channel_name, member_id, match_id, seat, at, at, anywhere, match_id, here]
    with _client_binding_cursor() as cursor:
        cursor.execute(sql, params)
        cursor.nextset()
        return cursor.fetchone()[0] == 1


def presence_sweep_table(match_id: int, horizon: datetime) -> list[tuple[Any, datetime, bool]]:
    """A table's sockets as (seat, last seen, gone), forgetting the gone ones: closed, or
    silent since ``horizon``. On PostgreSQL one statement; elsewhere a read and a delete."""
    connection = _db()
    presence = connection.ops.quote_name(Presence._meta.db_table)
    since = connection.ops.adapt_datetimefield_value(horizon)
    gone = "(closed OR last_seen <= %s)"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"WITH gone AS (DELETE FROM {presence} WHERE match_id = %s AND {gone} "
                f"RETURNING seat, last_seen) "
                f"SELECT seat, last_seen, FALSE FROM {presence} "
                f"WHERE match_id = %s AND NOT {gone} "
                f"UNION ALL SELECT seat, last_seen, TRUE FROM gone",
                [match_id, since, match_id, since],
            )
            found = cursor.fetchall()
        else:
            cursor.execute(
                f"SELECT seat, last_seen, {gone}, channel_name FROM {presence} WHERE match_id = %s",
                [since, match_id],
            )
            found = cursor.fetchall()
            names = [row[3] for row in found if row[2]]
            if names:
                marks = ", ".join(["%s"] * len(names))
                cursor.execute(f"DELETE FROM {presence} WHERE channel_name IN ({marks})", names)
    converters = _presence_converters(connection.vendor)
    return [(seat, *_convert((seen, bool(gone_)), converters)) for seat, seen, gone_, *_ in found]


@cache
def _presence_converters(vendor: str) -> list[list]:
    return [_converters(Presence, ["last_seen"])[0], []]


def seat_presence_save(match_id: int, seat: int, connected: bool, absent_since) -> None:
    """Store whether a seat is connected, and since when it is not."""
    connection = _db()
    table = connection.ops.quote_name(Seat._meta.db_table)
    since = connection.ops.adapt_datetimefield_value(absent_since)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET connected = %s, absent_since = %s "
            f"WHERE match_id = %s AND seat = %s",
            [connected, since, match_id, seat],
        )
