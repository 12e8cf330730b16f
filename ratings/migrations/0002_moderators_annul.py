from django.db import migrations

from accounts.moderation import grant_to_moderators, revoke_from_moderators

PERMISSIONS = [
    ("ratings", "view_ratedmatch"),
    ("ratings", "annul_ratedmatch"),
    ("ratings", "view_playerrating"),
    ("ratings", "view_ratingchange"),
]


def grant(apps, schema_editor):
    grant_to_moderators(apps, PERMISSIONS)


def revoke(apps, schema_editor):
    revoke_from_moderators(apps, PERMISSIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_initial"),
        ("accounts", "0002_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
