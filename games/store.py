"""The hot path's SQL: a table's rows read under the lock, a move stored, a socket opened.

A move (``games.services.playing``) locks the match and reads it with its seats, then
saves the match's changed columns and the move's row. Composed by the ORM, these few
statements cost more CPU than running them (docs/performance.md), so they are written out
here once, with public APIs only: Django's cursor, ``Model.from_db`` and the fields'
``get_db_prep_value``. Everything else uses the ORM.

The same code serves SQLite and PostgreSQL but for one statement: on PostgreSQL the lock
and the read are one call of ``games_table_locked`` (migration 0009: its plans are kept,
and its read after the lock sees the seats as the lock's previous holder committed them);
SQLite, whose IMMEDIATE transactions take the write lock as they begin, reads the match
and its seats with two plain statements. The SQLite pass of ``make test`` runs the tests
of both. Columns come back as each driver gives them: datetimes that SQLite returns
naive or as text, JSON text, and SQLite's integer booleans are turned into Python values
here (``_python``).

On PostgreSQL a match's save and its move's row are also one statement (a ``WITH``);
SQLite, which allows no ``INSERT`` inside a ``WITH``, runs the two in turn.

A process also keeps the engine state of each table version it committed itself
(``remember``). The next move from that version is worked out from it without the lock
and saved on condition that the row is still at that version and the mover may still act
(``Guard``): a conditional ``UPDATE``, on PostgreSQL one statement and so a transaction of
its own (``guarded``). Nothing heard on the channel layer is ever kept.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.contrib.sessions.models import Session
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction

from accounts.models import Block, User
from games.engine.match import MatchState
from games.models import ChatMessage, Match, Move, Presence, Seat
from games.state import SeatRow

# A cache of the hot tables, cleared whole when full: starting over costs one read each.
KEPT_TABLES = 4096


@dataclass(frozen=True, slots=True)
class Kept:
    """A table as this process committed it: its version, the engine state and the state
    column as stored, the match's columns (``fields()`` order) and its seats."""

    version: int
    state: MatchState
    stored: dict[str, Any]
    values: tuple
    seats: tuple[SeatRow, ...]


_kept: dict[int, Kept] = {}


class Moved(Exception):
    """A move worked out from a kept version was not stored: the table moved on since
    (another process, the worker), or the mover's session ended or their standing
    changed. Nothing was stored; the caller takes the lock."""


@dataclass(frozen=True, slots=True)
class Guard:
    """What a move worked out from a kept version is stored on (``match_save``): the match
    still at ``version``, and the mover not banned, their session (when given) valid at
    ``now`` and their password and active flag (when given) what the socket opened with."""

    version: int
    member_id: int
    session_key: str | None
    now: datetime
    password: str | None = None


# --- columns --------------------------------------------------------------------------


@cache
def fields() -> tuple[models.Field, ...]:
    """The match's columns read here: all but its board (read once, at the start)."""
    return tuple(f for f in Match._meta.concrete_fields if f.attname != "board")


def _moment(value: Any) -> datetime | None:
    """A datetime column: PostgreSQL gives an aware datetime; SQLite a naive one in UTC
    (Django's converter for the column's declared type) or, in an expression, its text."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _json(value: Any) -> Any:
    """A JSON column: text on both databases (Django reads ``jsonb`` as text)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _kind(field: models.Field) -> Callable[[Any], Any] | None:
    if isinstance(field, models.DateTimeField):
        return _moment
    if isinstance(field, models.JSONField):
        return _json
    if isinstance(field, models.BooleanField):
        return _flag
    return None


@cache
def _match_columns() -> tuple[tuple[str, ...], tuple[Callable | None, ...]]:
    return tuple(f.attname for f in fields()), tuple(_kind(f) for f in fields())


def _python(row: Iterable[Any], kinds: Iterable[Callable | None]) -> list[Any]:
    return [value if kind is None else kind(value) for value, kind in zip(row, kinds, strict=True)]


# The seat's columns: seat, member, name, rating, connected, absent since, the member's
# ban (from, until), whether the acting session is valid, computer level.
_SEAT_KINDS = (None, None, None, None, _flag, _moment, _moment, _moment, _flag, None)


def _seats(rows: Iterable[Iterable[Any]]) -> list[SeatRow]:
    return [SeatRow(*_python(row, _SEAT_KINDS)) for row in rows]


def _match(values: Iterable[Any]) -> Match:
    return Match.from_db(DEFAULT_DB_ALIAS, _match_columns()[0], list(values))


def _db():
    """This thread's default connection (``django.db.connection`` looked up once)."""
    return connections[DEFAULT_DB_ALIAS]


def _table(model: type[models.Model]) -> str:
    return _db().ops.quote_name(model._meta.db_table)


_MOMENT = models.DateTimeField()


def _at(moment: datetime | None) -> Any:
    """A datetime as the database takes it as a parameter."""
    return _MOMENT.get_db_prep_value(moment, _db())


# --- reading --------------------------------------------------------------------------


@cache
def _match_sql(lock: bool) -> str:
    quote = _db().ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields())
    lock_sql = " FOR UPDATE" if lock and _db().features.has_select_for_update else ""
    return f"SELECT {columns} FROM {_table(Match)} WHERE id = %s{lock_sql}"


@cache
def _seats_sql(with_session: bool, with_password: bool) -> str:
    checks = []
    if with_session:
        checks.append(
            f"EXISTS (SELECT 1 FROM {_table(Session)} WHERE session_key = %s AND expire_date > %s)"
        )
    if with_password:
        checks.append("(u.password = %s AND u.is_active)")
    valid = " AND ".join(checks) or "TRUE"
    return (
        f"SELECT s.seat, s.member_id, u.username, s.rating, s.connected, s.absent_since, "
        f"u.banned_at, u.banned_until, {valid}, s.bot_level "
        f"FROM {_table(Seat)} s LEFT JOIN {_table(User)} u ON u.id = s.member_id "
        f"WHERE s.match_id = %s ORDER BY s.seat"
    )


def match_read(match_id: int, *, lock: bool = False) -> Match | None:
    """A match (all but its board), locked for the transaction or not."""
    with _db().cursor() as cursor:
        cursor.execute(_match_sql(lock), [match_id])
        row = cursor.fetchone()
    return None if row is None else _match(_python(row, _match_columns()[1]))


def seats_read(
    match_id: int,
    *,
    session_key: str | None,
    now: datetime | None,
    password: str | None = None,
) -> list[SeatRow]:
    """The seats with their members' names and bans, and whether the acting member's
    standing holds: ``session_key`` still valid, their ``password`` and active flag what
    the socket opened with (``SeatRow.session_ok``). One statement."""
    params = [session_key, _at(now)] if session_key is not None else []
    if password is not None:
        params.append(password)
    sql = _seats_sql(session_key is not None, password is not None)
    with _db().cursor() as cursor:
        cursor.execute(sql, [*params, match_id])
        return _seats(cursor.fetchall())


# The lock of a move on PostgreSQL (migrations 0009, 0010): the match's columns (its state
# left out when it is at the version the caller keeps), then each seat's, prefixed
# ``seat_``.
TABLE_LOCKED = "SELECT * FROM games_table_locked(%s, %s, %s, %s, %s)"


def table_locked(
    match_id: int,
    *,
    session_key: str | None,
    now: datetime | None,
    password: str | None = None,
) -> tuple[Match | None, list[SeatRow]]:
    """Lock the match, and read it (all but its board) with its seats as ``seats_read``
    does. The state column is not read again when this process committed that version."""
    connection = _db()
    if connection.vendor != "postgresql":
        match = match_read(match_id, lock=True)
        seats = (
            seats_read(match_id, session_key=session_key, now=now, password=password)
            if match
            else []
        )
        return match, seats
    kept = _kept.get(match_id)
    params = [match_id, kept.version if kept else None, session_key, _at(now), password]
    with connection.cursor() as cursor:
        cursor.execute(TABLE_LOCKED, params)
        found = cursor.fetchall()
        if not found:
            return None, []
        split = _seat_columns_from(cursor)
    match = _match(_python(found[0][:split], _match_columns()[1]))
    if match.state is None:  # at the kept version: the state is the one kept
        match.state = kept.stored
    if found[0][split] is None:  # no seats yet (the LEFT JOIN's one row)
        return match, []
    return match, _seats(row[split:] for row in found)


_seat_split: int | None = None  # where the seats' columns begin, once checked


def _seat_columns_from(cursor) -> int:
    """Where ``games_table_locked``'s seat columns begin, checked against Match's columns
    on the first call of the process (reading a result's description costs as much as a
    small statement)."""
    global _seat_split
    if _seat_split is None:
        names = [column.name for column in cursor.description]
        split = next(i for i, name in enumerate(names) if name.startswith("seat_"))
        if names[:split] != [f.column for f in fields()]:
            raise RuntimeError("games_table_locked's columns differ from Match's: add a migration")
        _seat_split = split
    return _seat_split


# --- the kept versions ----------------------------------------------------------------


def engine_state(match: Match) -> MatchState:
    """The match's engine state: the one this process committed when it is that version,
    else parsed from the row. Engine states are immutable: sharing one is safe."""
    kept = _kept.get(match.pk)
    if kept is not None and kept.version == match.version:
        return kept.state
    return MatchState.from_dict(match.state)


def remember(match: Match, state: MatchState, seats: Iterable[SeatRow]) -> Callable[[], None]:
    """What to call after the commit that saved ``match`` (``transaction.on_commit``): keep
    the version as saved, so the next move there starts from it. The columns are copied
    now, since the caller may change the instance before the commit."""
    names = _match_columns()[0]
    kept = Kept(
        match.version,
        state,
        match.state,
        tuple(getattr(match, name) for name in names),
        # What the rows said of the acting member's session is that member's own.
        tuple(row._replace(session_ok=True) for row in seats),
    )

    def keep() -> None:
        if len(_kept) >= KEPT_TABLES:
            _kept.clear()
        _kept[match.pk] = kept

    return keep


def forget(match_id: int) -> None:
    """Drop what this process kept of a table (its sockets here all left)."""
    _kept.pop(match_id, None)


def kept_table(match_id: int, version: int) -> tuple[Match, list[SeatRow]] | None:
    """The match and its seats at ``version`` as this process committed them, if that is
    the last version it committed there; a move worked out from them is saved with a
    ``Guard``, since the row may have moved on."""
    kept = _kept.get(match_id)
    if kept is None or kept.version != version:
        return None
    return _match(kept.values), list(kept.seats)


# --- saving ---------------------------------------------------------------------------


MOVE_COLUMNS = "(game_id, ply, seat, color, gained, clock_ms, played_at)"


@cache
def _move_sql() -> str:
    return f"INSERT INTO {_table(Move)} {MOVE_COLUMNS} VALUES (%s, %s, %s, %s, %s, %s, %s)"


@cache
def _typed(model: type[models.Model], names: tuple[str, ...]) -> str:
    """Parameters for ``names`` of ``model``, typed as its columns where the database
    infers no types from an ``INSERT … SELECT`` (PostgreSQL's; SQLite needs none)."""
    connection = _db()
    if connection.vendor != "postgresql":
        return ", ".join("%s" for _ in names)
    fields = [model._meta.get_field(name.removesuffix("_id")) for name in names]
    return ", ".join(f"%s::{field.cast_db_type(connection)}" for field in fields)


def _move_casts() -> str:
    return _typed(Move, tuple(MOVE_COLUMNS.strip("()").split(", ")))


@cache
def _guard_sql(with_session: bool, with_password: bool) -> str:
    standing = " AND password = %s AND is_active" if with_password else ""
    sql = (
        f" AND version = %s AND EXISTS (SELECT 1 FROM {_table(User)} WHERE id = %s"
        f" AND (banned_at IS NULL OR banned_until <= %s){standing})"
    )
    if with_session:
        sql += (
            f" AND EXISTS (SELECT 1 FROM {_table(Session)}"
            f" WHERE session_key = %s AND expire_date > %s)"
        )
    return sql


def _one_statement() -> bool:
    """Whether a match's save and its move go in one statement (PostgreSQL's ``WITH``;
    SQLite allows no ``INSERT`` inside a ``WITH``). One round trip less: about a third of
    a move's CPU in the services (docs/performance.md)."""
    return _db().vendor == "postgresql"


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """The transaction of a move from a kept version (``Guard``). On PostgreSQL its save
    is one statement, a transaction by itself, so none is opened around it: no ``BEGIN``
    and ``COMMIT`` round trips. On SQLite its two statements share Django's atomic block.
    Inside a caller's transaction the move is part of it."""
    if _one_statement() and transaction.get_autocommit():
        yield
        return
    with transaction.atomic():
        yield


def match_save(
    match: Match, changed: Iterable[str], *, move: dict | None = None, guard: Guard | None = None
) -> None:
    """``UPDATE`` the ``changed`` columns of a match (as ``save(update_fields=…)`` does)
    and store ``move`` (the ``Move`` row's columns) with it. With ``guard`` (a move worked
    out from a kept version, no lock taken) only where the guard holds; ``Moved``, with
    nothing stored, where it does not."""
    connection = _db()
    quote = connection.ops.quote_name
    assignments, params = [], []
    for name in sorted(changed):
        field = Match._meta.get_field(name)
        assignments.append(f"{quote(field.column)} = %s")
        params.append(field.get_db_prep_save(field.pre_save(match, add=False), connection))
    sql = f"UPDATE {_table(Match)} SET {', '.join(assignments)} WHERE id = %s"
    params.append(match.pk)
    if guard is not None:
        sql += _guard_sql(guard.session_key is not None, guard.password is not None)
        params += [guard.version, guard.member_id, _at(guard.now)]
        if guard.password is not None:
            params.append(guard.password)
        if guard.session_key is not None:
            params += [guard.session_key, _at(guard.now)]
    values = None
    if move is not None:
        values = [move[name] for name in MOVE_COLUMNS.strip("()").split(", ")]
        values[-1] = _at(values[-1])
    with connection.cursor() as cursor:
        if values is not None and _one_statement():
            # The move's row is stored only with the match's update (none when a guard
            # failed): ``saved`` lists the updated match.
            cursor.execute(
                f"WITH saved AS ({sql} RETURNING id), stored AS (INSERT INTO {_table(Move)} "
                f"{MOVE_COLUMNS} SELECT {_move_casts()} FROM saved) SELECT count(*) FROM saved",
                [*params, *values],
            )
            if cursor.fetchone()[0] != 1:
                raise Moved
            return
        cursor.execute(sql, params)
        if guard is not None and cursor.rowcount != 1:
            raise Moved
        if values is not None:
            cursor.execute(_move_sql(), values)


# --- a socket's opening -----------------------------------------------------------------


def presence_open(
    *,
    channel_name: str,
    member_id: int,
    match_id: int | None,
    seat: int | None,
    now: datetime,
    horizon: datetime,
    caps: tuple[int, int],
) -> bool:
    """A member's socket opened: the member is seen ``now`` (their row's lock orders
    their sockets opening together), and the socket is stored unless the member already
    has ``caps`` present sockets (anywhere, at this table). Whether it was stored. Two
    statements on both databases; through the ORM it took five."""
    presence, user = _table(Presence), _table(User)
    at, since = _at(now), _at(horizon)
    anywhere, here = caps
    mine = f"SELECT count(*) FROM {presence} WHERE member_id = %s AND NOT closed AND last_seen > %s"
    columns = ("channel_name", "member_id", "match_id", "seat", "opened_at", "last_seen", "closed")
    sql = (
        f"INSERT INTO {presence} ({', '.join(columns)}) "
        f"SELECT {_typed(Presence, columns)} WHERE ({mine}) < %s"
    )
    params = [channel_name, member_id, match_id, seat, at, at, False, member_id, since, anywhere]
    if match_id is not None:
        sql += f" AND ({mine} AND match_id = %s) < %s"
        params += [member_id, since, match_id, here]
    with _db().cursor() as cursor:
        cursor.execute(f"UPDATE {user} SET last_seen = %s WHERE id = %s", [at, member_id])
        cursor.execute(sql, params)
        return cursor.rowcount == 1


def chat_rows(match_id: int, *, player: bool, limit: int, viewer: int | None = None) -> list[tuple]:
    """The latest ``limit`` chat messages of a table, newest first: (id, author's name,
    text, time, audience); a player's socket never gets spectators-only messages, and
    the member ``viewer`` not the messages of the members they blocked (one statement)."""
    chat, user, block = _table(ChatMessage), _table(User), _table(Block)
    spectators = "AND c.audience <> %s " if player else ""
    blocked = (
        f"AND NOT EXISTS (SELECT 1 FROM {block} b WHERE b.blocker_id = %s "
        f"AND b.blocked_id = c.author_id) "
        if viewer is not None
        else ""
    )
    sql = (
        f"SELECT c.id, u.username, c.text, c.created_at, c.audience FROM {chat} c "
        f"LEFT JOIN {user} u ON u.id = c.author_id WHERE c.match_id = %s {spectators}"
        f"{blocked}ORDER BY c.created_at DESC, c.id DESC LIMIT %s"
    )
    params = [
        match_id,
        *([ChatMessage.Audience.SPECTATORS] if player else []),
        *([viewer] if viewer is not None else []),
        limit,
    ]
    with _db().cursor() as cursor:
        cursor.execute(sql, params)
        return [(pk, name, text, _moment(at), audience) for pk, name, text, at, audience in cursor]
