"""What every seat-taking action of the lobby asks first: a member who may play, and
the limit of waiting tables and challenges a member holds (SPEC §10)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.limits import Limit
from accounts.models import User
from games.errors import TableError
from lobby.selectors import waiting_count


def member_check(member: User | None, now: datetime, *, bots: bool = False) -> User:
    """A member who may take a seat this way. A bot account (SPEC §15) plays only the
    challenges it sends or accepts (``bots``): no tables, no Play now, no arenas."""
    if member is None or not member.is_authenticated:
        raise TableError("not_allowed", _("Log in to take a seat."))
    if member.is_banned(now):
        raise TableError("not_allowed", _("A banned member cannot play."))
    if member.is_bot and not bots:
        raise TableError(
            "not_allowed",
            _("A bot account plays only the challenges it sends or accepts, through the API."),
        )
    return member


def waiting_limit_check(member: User) -> None:
    # The member's row lock orders their own requests arriving together.
    User.objects.select_for_update().filter(pk=member.pk).exists()
    limit = settings.WAITING_PER_MEMBER
    if waiting_count(member) >= limit:
        raise TableError(
            "limit",
            _(
                "You already have %(limit)d tables and challenges waiting: cancel one "
                "before opening another."
            )
            % {"limit": limit},
        )


#: Tables and challenges a member opens or cancels: a loop of them would flood everyone's
#: lobby and notices.
LOBBY_ACTIONS = Limit("lobby-actions", 10, 60, setting="LOBBY_ACTIONS_PER_MINUTE")


def lobby_rate_check(member: User, now: datetime) -> None:
    """At most ``LOBBY_ACTIONS_PER_MINUTE`` tables and challenges opened or cancelled by a
    member in a minute (``LOBBY_ACTIONS``)."""
    if not LOBBY_ACTIONS.hit(member.pk, now=now):
        raise TableError(
            "rate_limited",
            _("Slow down: at most %(limit)d tables and challenges a minute.")
            % {"limit": LOBBY_ACTIONS.rate()[0]},
            retry_after=LOBBY_ACTIONS.retry_after(now=now),
        )
