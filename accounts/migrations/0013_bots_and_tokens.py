"""Bot accounts and personal API tokens (SPEC §15): a member is marked a bot for good;
tokens are kept as digests."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0012_name_digits"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="is_bot",
            field=models.BooleanField(
                default=False,
                help_text="A program that plays through the API; marked BOT wherever its name shows.",
                verbose_name="bot account",
            ),
        ),
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("description", models.CharField(max_length=100, verbose_name="description")),
                ("scopes", models.JSONField(default=list, verbose_name="scopes")),
                ("prefix", models.CharField(max_length=16, verbose_name="prefix")),
                ("digest", models.CharField(editable=False, max_length=64, unique=True)),
                ("created_at", models.DateTimeField(verbose_name="created")),
                (
                    "last_used_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="last used"),
                ),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked")),
                (
                    "member",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="member",
                    ),
                ),
            ],
            options={
                "verbose_name": "API token",
                "verbose_name_plural": "API tokens",
                "ordering": ["-created_at", "-pk"],
            },
        ),
    ]
