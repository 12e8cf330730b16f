from django.db import migrations, models


def fill(apps, schema_editor):
    """Both folds of every member's name, as accounts/names.py makes them now."""
    from accounts.names import look, skeleton

    User = apps.get_model("accounts", "User")
    for member in User.objects.only("pk", "username").iterator():
        User.objects.filter(pk=member.pk).update(
            name_skeleton=skeleton(member.username), name_look=look(member.username)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_verified_email_unique"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_look",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=300),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
