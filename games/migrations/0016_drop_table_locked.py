"""Moves take the match's lock through the ORM (``games.access.locked_table``): the
function of migrations 0009, 0010 and 0013, which repeated ``Match``'s columns by hand,
goes. Reversed, it comes back as 0013 left it."""

import importlib

from django.db import migrations

previous = importlib.import_module("games.migrations.0013_table_locked_arena")
standing = importlib.import_module("games.migrations.0010_table_locked_standing")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(standing.DROP)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(previous.CREATE)


class Migration(migrations.Migration):
    dependencies = [("games", "0015_work_under_way")]

    operations = [migrations.RunPython(forwards, backwards)]
