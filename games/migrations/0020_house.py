"""Matches the site keeps going by itself (``Match.house``): VOG TV's match of two
computers, at most one in play, and the demo's table the computer hosts, at most one
waiting."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_seat_shown_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="house",
            field=models.CharField(
                blank=True,
                choices=[("", "—"), ("tv", "VOG TV"), ("table", "a table the computer hosts")],
                default="",
                max_length=8,
                verbose_name="kept by the site",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                condition=models.Q(
                    ("house", "tv"), ("status__in", ["waiting", "playing", "between_games"])
                ),
                fields=("house",),
                name="one_tv_match_in_play",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                condition=models.Q(("house", "table"), ("status", "waiting")),
                fields=("house",),
                name="one_house_table_waiting",
            ),
        ),
    ]
