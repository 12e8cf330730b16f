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
