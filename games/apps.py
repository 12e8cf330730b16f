from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from accounts.signals import member_deleting
        from games.database import fast_times
        from games.services import member_leave_all

        member_deleting.connect(member_leave_all, dispatch_uid="games-member-leave-all")
        connection_created.connect(fast_times, dispatch_uid="games-fast-times")
