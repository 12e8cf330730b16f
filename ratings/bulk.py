"""Bulk writes of a replay: many rating changes in, many player rows updated.

A whole scale is 100,000 matches: building a model instance per change and Django's
``bulk_update`` (one CASE per field) cost more than the maths. On PostgreSQL the changes
go in with COPY; player rows are updated from a VALUES list on every database.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import connection

from ratings.models import PlayerRating, RatingChange

#: The columns of a change row, in the order :func:`changes_insert` takes them.
CHANGE_COLUMNS = (
    "rated_match_id",
    "player_id",
    "scale",
    "finished_at",
    "rating_before",
    "rd_before",
    "volatility_before",
    "rating_after",
    "rd_after",
    "volatility_after",
    "score",
    "opponents",
    "outcome",
)
#: The columns of a player row, in the order :func:`players_update` takes them (id first).
PLAYER_COLUMNS = (
    "id",
    "rating",
    "rd",
    "volatility",
    "last_played_at",
    "matches",
    "wins",
    "draws",
    "losses",
)
_PG_TYPES = (
    "bigint",
    "double precision",
    "double precision",
    "double precision",
    "timestamp with time zone",
    "integer",
    "integer",
    "integer",
    "integer",
)
BATCH = 1000


def changes_insert(rows: Sequence[tuple]) -> None:
    """Insert rating changes given as tuples in ``CHANGE_COLUMNS`` order."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(RatingChange._meta.db_table)
        columns = ", ".join(connection.ops.quote_name(c) for c in CHANGE_COLUMNS)
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
        return
    RatingChange.objects.bulk_create(
        (RatingChange(**dict(zip(CHANGE_COLUMNS, row, strict=True))) for row in rows),
        batch_size=BATCH,
    )


PlayerRow = tuple[int, float, float, float, datetime | None, int, int, int, int]


def players_update(rows: Sequence[PlayerRow]) -> None:
    """Update player rows given as tuples in ``PLAYER_COLUMNS`` order (id first)."""
    quote = connection.ops.quote_name
    table = quote(PlayerRating._meta.db_table)
    names = ", ".join(quote(c) for c in PLAYER_COLUMNS)
    if connection.vendor == "postgresql":
        placeholder = "(" + ", ".join(f"%s::{t}" for t in _PG_TYPES) + ")"
    else:
        placeholder = "(" + ", ".join("%s" for _ in PLAYER_COLUMNS) + ")"
        adapt = connection.ops.adapt_datetimefield_value
        rows = [(*row[:4], adapt(row[4]), *row[5:]) for row in rows]
    assignments = ", ".join(f"{quote(c)} = v.{quote(c)}" for c in PLAYER_COLUMNS[1:])
    match = f"{table}.{quote('id')} = v.{quote('id')}"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            batch = rows[start : start + BATCH]
            values = ", ".join([placeholder] * len(batch))
            cursor.execute(
                f"WITH v ({names}) AS (VALUES {values}) "
                f"UPDATE {table} SET {assignments} FROM v WHERE {match}",
                [value for row in batch for value in row],
            )
