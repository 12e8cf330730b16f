from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.signals import member_banned, member_blocked, member_deleting
        from games.services import (
            member_leave_all,
            member_seats_renamed,
            rematch_offers_between_end,
        )

        member_deleting.connect(member_leave_all, dispatch_uid="games-member-leave-all")
        member_deleting.connect(member_seats_renamed, dispatch_uid="games-member-seats-renamed")
        member_banned.connect(member_leave_all, dispatch_uid="games-member-banned")
        member_blocked.connect(rematch_offers_between_end, dispatch_uid="games-member-blocked")
