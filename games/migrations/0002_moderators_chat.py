from django.db import migrations

from accounts.moderation import grant_to_moderators, revoke_from_moderators

PERMISSIONS = [
    ("games", "view_chatmessage"),
    ("games", "delete_chatmessage"),
    ("games", "view_match"),
]


def grant(apps, schema_editor):
    grant_to_moderators(apps, PERMISSIONS)


def revoke(apps, schema_editor):
    revoke_from_moderators(apps, PERMISSIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        ("accounts", "0002_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
