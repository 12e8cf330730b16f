from django.db import migrations

from accounts.moderation import MODERATOR_PERMISSIONS, MODERATORS_GROUP, grant_to_moderators


def create_group(apps, schema_editor):
    grant_to_moderators(apps, MODERATOR_PERMISSIONS)


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=MODERATORS_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
