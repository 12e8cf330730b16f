"""Chat at a table."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts import events as member_events
from accounts.models import User
from games import events, protocol
from games.access import seat_of, seats_for
from games.errors import Revoked, TableError
from games.models import ChatMessage, Match
from games.protocol import check_text


def chat_post(
    *,
    match_id: int,
    user: User | None,
    text: str,
    now: datetime,
    players_only: bool = False,
) -> ChatMessage:
    """Post a chat message. During rated matches spectators chat among themselves.
    ``players_only``: only a player of the table may (a bot's chat over the API).

    The member's row is read afresh and locked: a mute or ban set a moment ago counts, and
    two sockets of one member take turns for the rate limit (a sliding window)."""
    if user is None or not user.is_authenticated:
        raise TableError("not_allowed", _("Log in to chat."))
    text = check_text(text)
    with transaction.atomic():
        member = User.objects.select_for_update().filter(pk=user.pk, is_active=True).first()
        if member is None:
            raise Revoked(member_events.CLOSE_ACCOUNT_DELETED)
        if member.is_banned(now):
            raise Revoked(member_events.CLOSE_BANNED)
        if member.is_chat_muted(now):
            raise TableError("not_allowed", _("The moderators have muted your chat."))
        limit, window = settings.CHAT_RATE
        recent = ChatMessage.objects.filter(
            author=member, created_at__gt=now - timedelta(seconds=window)
        ).count()
        if recent >= limit:
            raise TableError(
                "rate_limited",
                _("Slow down: at most %(limit)d messages in %(window)d seconds.")
                % {"limit": limit, "window": window},
            )
        match = Match.objects.filter(pk=match_id).values("rated", "status").first()
        if match is None:
            raise TableError("not_found", _("This table does not exist."))
        in_play = match["status"] in (Match.Status.PLAYING, Match.Status.BETWEEN_GAMES)
        spectator = seat_of(seats_for(match_id), member) is None
        if spectator and players_only:
            raise TableError("not_a_player", _("You are not playing at this table."))
        audience = (
            ChatMessage.Audience.SPECTATORS
            if match["rated"] and in_play and spectator
            else ChatMessage.Audience.EVERYONE
        )
        message = ChatMessage.objects.create(
            match_id=match_id, author=member, text=text, audience=audience, created_at=now
        )
        payload = protocol.chat(
            message.pk,
            member.username,
            text,
            now,
            audience == ChatMessage.Audience.SPECTATORS,
        )
        transaction.on_commit(partial(events.chat_posted, match_id, audience, member.pk, payload))
    return message
