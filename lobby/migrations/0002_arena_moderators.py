from django.db import migrations

from accounts.moderation import grant_to_moderators, revoke_from_moderators

PERMISSIONS = [
    ("lobby", "view_arena"),
    ("lobby", "add_arena"),
    ("lobby", "change_arena"),
    ("lobby", "view_arenaschedule"),
    ("lobby", "add_arenaschedule"),
    ("lobby", "change_arenaschedule"),
    ("lobby", "delete_arenaschedule"),
]


def grant(apps, schema_editor):
    grant_to_moderators(apps, PERMISSIONS)


def revoke(apps, schema_editor):
    revoke_from_moderators(apps, PERMISSIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("lobby", "0001_arenas"),
        ("accounts", "0002_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
