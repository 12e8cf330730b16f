"""The "Moderators" group and exactly the permissions moderators need."""

MODERATORS_GROUP = "Moderators"

# (app_label, codename). Other apps add their own with a migration that calls
# ``grant_to_moderators`` (for example the games app: view and delete chat messages).
MODERATOR_PERMISSIONS = [
    ("accounts", "view_user"),
    ("accounts", "ban_member"),
    ("accounts", "mute_member"),
]


def ensure_permissions(apps, app_labels: list[str]) -> None:
    """Permissions are normally created after migrate; a data migration needs them now."""
    from django.contrib.auth.management import create_permissions

    for label in app_labels:
        app_config = apps.get_app_config(label)
        app_config.models_module = True
        create_permissions(app_config, verbosity=0, apps=apps)
        app_config.models_module = None


def grant_to_moderators(apps, permissions: list[tuple[str, str]]) -> None:
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ensure_permissions(apps, sorted({app for app, _ in permissions}))
    group, _ = Group.objects.get_or_create(name=MODERATORS_GROUP)
    for app_label, codename in permissions:
        group.permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )


def revoke_from_moderators(apps, permissions: list[tuple[str, str]]) -> None:
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=MODERATORS_GROUP).first()
    if group is None:
        return
    for app_label, codename in permissions:
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label=app_label, codename=codename)
        )
