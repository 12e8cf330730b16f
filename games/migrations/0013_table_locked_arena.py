"""``games_table_locked`` (migrations 0009, 0010) also returns the match's ``arena_id``
(migration 0012): its columns are the match's, in the model's order."""

import importlib

from django.db import migrations

previous = importlib.import_module("games.migrations.0010_table_locked_standing")

CREATE = previous.CREATE.replace(
    "spectators integer,", "spectators integer,\n  arena_id integer,", 1
).replace("m.spectators,", "m.spectators,\n    m.arena_id,", 1)


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(previous.DROP)
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(previous.DROP)
        schema_editor.execute(previous.CREATE)


class Migration(migrations.Migration):
    dependencies = [("games", "0012_arena")]

    operations = [migrations.RunPython(forwards, backwards)]
