"""A PostgreSQL function that locks a match and then reads it with its seats: a move's
first round trip (``games.store.table_locked``).

Written as a function so that PostgreSQL keeps its plans (the two statements it replaces
went as one text, parsed and planned on every move), and so that the read after the lock
takes a snapshot of its own: a VOLATILE function's every statement does, so seats that
the lock's previous holder changed are read as it committed them.

Its columns are the match's (all but ``board``) and then the seat's. A column added to
``Match`` must be added here too, by a migration that replaces the function;
``tests/games/test_concurrency.py`` fails until it is. Nothing is created on SQLite.
"""

from django.db import migrations

MATCH_COLUMNS = [
    ("id", "bigint"),
    ("variant", "varchar"),
    ("rated", "boolean"),
    ("format", "varchar"),
    ("clock", "varchar"),
    ("status", "varchar"),
    ("seed", "bigint"),
    ("state", "jsonb"),
    ("clock_state", "jsonb"),
    ("version", "integer"),
    ("turn_started_at", "timestamptz"),
    ("deadline", "timestamptz"),
    ("tick_due", "timestamptz"),
    ("current_game_id", "bigint"),
    ("token", "varchar"),
    ("private", "boolean"),
    ("practice", "boolean"),
    ("result_reason", "varchar"),
    ("spectators", "integer"),
    ("rematch_id", "bigint"),
    ("rematch_offered_at", "timestamptz"),
    ("rematch_accepted", "jsonb"),
    ("created_by_id", "bigint"),
    ("created_at", "timestamptz"),
    ("started_at", "timestamptz"),
    ("finished_at", "timestamptz"),
    ("updated_at", "timestamptz"),
]
SEAT_COLUMNS = [
    ("seat_seat", "smallint", "s.seat"),
    ("seat_member_id", "bigint", "s.member_id"),
    ("seat_username", "varchar", "u.username"),
    ("seat_rating", "double precision", "s.rating"),
    ("seat_connected", "boolean", "s.connected"),
    ("seat_absent_since", "timestamptz", "s.absent_since"),
    ("seat_banned_at", "timestamptz", "u.banned_at"),
    ("seat_banned_until", "timestamptz", "u.banned_until"),
    (
        "seat_session_valid",
        "boolean",
        "(p_session IS NULL OR EXISTS (SELECT 1 FROM django_session d "
        "WHERE d.session_key = p_session AND d.expire_date > p_now))",
    ),
    ("seat_bot_level", "smallint", "s.bot_level"),
]

_returns = ",\n  ".join(
    [f"{name} {kind}" for name, kind in MATCH_COLUMNS]
    + [f"{name} {kind}" for name, kind, _ in SEAT_COLUMNS]
)
_select = ",\n    ".join(
    [
        # the state is left out when the caller keeps this version of it (p_known)
        "CASE WHEN m.version = p_known THEN NULL ELSE m.state END"
        if name == "state"
        else f"m.{name}"
        for name, _ in MATCH_COLUMNS
    ]
    + [expression for _, _, expression in SEAT_COLUMNS]
)

CREATE = f"""
CREATE OR REPLACE FUNCTION games_table_locked(
  p_match bigint, p_known integer, p_session varchar, p_now timestamptz
) RETURNS TABLE (
  {_returns}
) LANGUAGE plpgsql VOLATILE AS $function$
BEGIN
  PERFORM 1 FROM games_match m WHERE m.id = p_match FOR UPDATE OF m;
  RETURN QUERY SELECT
    {_select}
  FROM games_match m
  LEFT JOIN games_seat s ON s.match_id = m.id
  LEFT JOIN accounts_user u ON u.id = s.member_id
  WHERE m.id = p_match
  ORDER BY s.seat;
END
$function$;
"""

DROP = "DROP FUNCTION IF EXISTS games_table_locked(bigint, integer, varchar, timestamptz);"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_tick_due"),
        ("accounts", "0001_initial"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(create, drop)]
