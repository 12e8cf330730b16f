from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = _("Lobby")

    def ready(self) -> None:
        from accounts.signals import member_banned, member_blocked, member_deleting
        from games.signals import arena_match_ended, match_started
        from lobby.services.arena_play import arena_match_scored
        from lobby.services.arena_rescoring import arenas_rescore
        from lobby.services.challenges import challenges_between_end
        from lobby.services.withdrawals import on_match_started, on_member_banned
        from ratings.signals import scale_recalculated

        match_started.connect(on_match_started, dispatch_uid="lobby-match-started")
        arena_match_ended.connect(arena_match_scored, dispatch_uid="lobby-arena-scored")
        member_banned.connect(on_member_banned, dispatch_uid="lobby-member-banned")
        member_deleting.connect(on_member_banned, dispatch_uid="lobby-member-deleting")
        member_blocked.connect(challenges_between_end, dispatch_uid="lobby-member-blocked")
        scale_recalculated.connect(arenas_rescore, dispatch_uid="lobby-arenas-rescored")
