from django.db import migrations

from accounts.moderation import grant_to_moderators, revoke_from_moderators

# Moderators work the reports' queue (SPEC §14); the audit log is for superusers only.
PERMISSIONS = [("accounts", "view_report"), ("accounts", "close_report")]


def grant(apps, schema_editor):
    grant_to_moderators(apps, PERMISSIONS)


def revoke(apps, schema_editor):
    revoke_from_moderators(apps, PERMISSIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_reports_warnings_audit"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
