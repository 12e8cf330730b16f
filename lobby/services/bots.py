"""Bot accounts (SPEC §15): a member becomes one through the API, for good, before they
have played: a bot plays only through the API, never at a table of the lobby, never in
an arena."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.services import member_bot_mark
from games.errors import TableError
from games.models import Match, Seat
from lobby.models import Arena, ArenaEntry
from lobby.services.members import member_check


def bot_upgrade(*, member: User, now: datetime) -> User:
    """Make the member a bot account. Only a member who never sat at a match that was
    played (finished, or in play now), has no table waiting and takes part in no arena;
    a bot stays one (asking again answers the same)."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=member.pk)
        if locked.is_bot:
            return locked
        member_check(locked, now)
        seats = Seat.objects.filter(member=locked).exclude(match__status=Match.Status.ABORTED)
        if seats.exclude(match__status=Match.Status.WAITING).exists():
            raise TableError(
                "not_allowed",
                _("Only an account that has never played a match can become a bot."),
            )
        if seats.exists():
            raise TableError(
                "not_allowed", _("Cancel or leave your waiting tables before becoming a bot.")
            )
        entered = ArenaEntry.objects.filter(
            member=locked,
            active=True,
            arena__status__in=[Arena.Status.UPCOMING, Arena.Status.RUNNING],
        )
        if entered.exists():
            raise TableError("not_allowed", _("Withdraw from your arenas before becoming a bot."))
        return member_bot_mark(member=locked)
