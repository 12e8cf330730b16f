"""Reads of members that are more than a ``.get()``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import Exists
from django.http import HttpRequest

from accounts.models import User
from accounts.moderation import MODERATORS_GROUP


@dataclass(frozen=True, slots=True)
class Standing:
    """What a member may do now, read afresh for every message of a socket."""

    present: bool  # the account exists and is active, and the session is still valid
    banned: bool
    muted: bool


GONE = Standing(present=False, banned=False, muted=False)


def member_standing(*, member_id: int, session_key: str | None, now: datetime) -> Standing:
    """The member's current standing, in one query (ban, mute, deleted account, and the
    session the socket was opened with still valid)."""
    row = (
        User.objects.filter(pk=member_id, is_active=True)
        .annotate(
            session_ok=Exists(
                Session.objects.filter(session_key=session_key or "", expire_date__gt=now)
            )
        )
        .values_list("session_ok", "banned_at", "banned_until", "chat_muted_at", "chat_muted_until")
        .first()
    )
    if row is None or not row[0]:
        return GONE
    _, banned_at, banned_until, muted_at, muted_until = row
    return Standing(
        present=True,
        banned=banned_at is not None and (banned_until is None or banned_until > now),
        muted=muted_at is not None and (muted_until is None or muted_until > now),
    )


def member_session_valid(session_key: str, now: datetime) -> bool:
    return Session.objects.filter(session_key=session_key, expire_date__gt=now).exists()


def is_moderator(member: User) -> bool:
    return (
        member.is_superuser
        or member.is_staff
        or member.groups.filter(name=MODERATORS_GROUP).exists()
    )


def may_sanction(by: User | None, member: User) -> bool:
    """Moderators ban and mute ordinary members only; superusers also moderators; nobody
    sanctions a superuser or themselves."""
    if member.is_superuser or (by is not None and by.pk == member.pk):
        return False
    if by is None or by.is_superuser:
        return True
    return not is_moderator(member)


def member_by_username(username: str) -> User | None:
    return User.objects.filter(username__iexact=username, is_active=True).first()


def preferred_language(request: HttpRequest) -> str | None:
    """The language a visitor chose: the member's saved choice, else the cookie."""
    user = getattr(request, "user", None)
    language = user.language if user is not None and user.is_authenticated else ""
    if not language:
        language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return language if language in dict(settings.LANGUAGES) else None
