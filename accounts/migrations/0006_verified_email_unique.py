"""A verified e-mail address belongs to one member, whatever its case: a unique index on
the lower-cased addresses that are verified. Existing duplicates stop the migration with
a list of them (a moderator decides whose address it is first)."""

from django.db import migrations

INDEX = "accounts_verified_email_unique"


def create(apps, schema_editor):
    from django.db.models import Count
    from django.db.models.functions import Lower

    EmailAddress = apps.get_model("account", "EmailAddress")
    duplicates = (
        EmailAddress.objects.filter(verified=True)
        .annotate(address=Lower("email"))
        .values("address")
        .annotate(members=Count("user", distinct=True), rows=Count("pk"))
        .filter(rows__gt=1)
    )
    found = [row["address"] for row in duplicates]
    if found:
        raise RuntimeError(
            "Verified e-mail addresses held more than once (case aside): "
            + ", ".join(sorted(found))
            + ". Keep one of each, then migrate again."
        )
    table = schema_editor.quote_name(EmailAddress._meta.db_table)
    schema_editor.execute(f"CREATE UNIQUE INDEX {INDEX} ON {table} (LOWER(email)) WHERE verified")


def drop(apps, schema_editor):
    schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_name_skeleton"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(create, drop)]
