"""What every seat-taking action of the lobby asks first: a member who may play, and
the limit of waiting tables and challenges a member holds (SPEC §10)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import TableError
from lobby.selectors import waiting_count


def member_check(member: User | None, now: datetime) -> User:
    if member is None or not member.is_authenticated:
        raise TableError("not_allowed", _("Log in to take a seat."))
    if member.is_banned(now):
        raise TableError("not_allowed", _("A banned member cannot play."))
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


def lobby_rate_check(member: User, now: datetime) -> None:
    """At most ``LOBBY_ACTIONS_PER_MINUTE`` tables and challenges opened or cancelled by a
    member in a minute: a loop of them would flood everyone's lobby and notices."""
    key = f"lobby-actions:{member.pk}:{int(now.timestamp() // 60)}"
    cache.add(key, 0, timeout=120)
    if cache.incr(key) > settings.LOBBY_ACTIONS_PER_MINUTE:
        raise TableError(
            "rate_limited",
            _("Slow down: at most %(limit)d tables and challenges a minute.")
            % {"limit": settings.LOBBY_ACTIONS_PER_MINUTE},
        )
