from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Members")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from accounts.events import session_sockets_close

        def close_session_sockets(sender, request, user, **kwargs) -> None:
            key = getattr(getattr(request, "session", None), "session_key", None)
            if key:
                session_sockets_close(key)

        user_logged_out.connect(
            close_session_sockets, weak=False, dispatch_uid="accounts-logout-sockets"
        )

        from django.db import transaction
        from django.db.models.signals import pre_save

        from accounts.events import member_standing_changed
        from accounts.models import User

        def watch_standing(sender, instance: User, **kwargs) -> None:
            """A new password or a deactivation: the member's sockets look again."""
            update_fields = kwargs.get("update_fields")
            if instance.pk is None or (
                update_fields is not None and not {"password", "is_active"} & set(update_fields)
            ):
                return  # a new member, or a save of other columns (a login's last_login)
            before = User.objects.filter(pk=instance.pk).values("password", "is_active").first()
            if before and (
                before["password"] != instance.password or before["is_active"] != instance.is_active
            ):
                member_id = instance.pk
                transaction.on_commit(lambda: member_standing_changed(member_id))

        pre_save.connect(
            watch_standing, sender=User, weak=False, dispatch_uid="accounts-standing-sockets"
        )
