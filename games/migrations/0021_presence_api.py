"""An API stream of a program counts as presence (SPEC §15): a bot account's seat is
present through its streams only."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_house"),
    ]

    operations = [
        migrations.AddField(
            model_name="presence",
            name="api",
            field=models.BooleanField(default=False),
        ),
    ]
