"""``games_table_locked`` (migration 0009) also checks that the acting member's password
and active flag are what they were when their socket opened (``p_password``): a changed
password or a deactivated account acts no more."""

import importlib

from django.db import migrations

previous = importlib.import_module("games.migrations.0009_table_locked_function")

STANDING = (
    "(p_session IS NULL OR EXISTS (SELECT 1 FROM django_session d "
    "WHERE d.session_key = p_session AND d.expire_date > p_now)) "
    "AND (p_password IS NULL OR (u.password = p_password AND u.is_active))"
)

CREATE = previous.CREATE.replace(
    "p_match bigint, p_known integer, p_session varchar, p_now timestamptz",
    "p_match bigint, p_known integer, p_session varchar, p_now timestamptz, p_password varchar",
).replace(
    [expression for name, _, expression in previous.SEAT_COLUMNS if name == "seat_session_valid"][
        0
    ],
    STANDING,
)
DROP = "DROP FUNCTION IF EXISTS games_table_locked(bigint, integer, varchar, timestamptz, varchar);"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(previous.DROP)
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)
        schema_editor.execute(previous.CREATE)


class Migration(migrations.Migration):
    dependencies = [("games", "0009_table_locked_function")]

    operations = [migrations.RunPython(forwards, backwards)]
