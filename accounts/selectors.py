"""Reads of members that are more than a ``.get()``."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.sessions.models import Session
from django.http import HttpRequest

from accounts.models import Theme, User
from accounts.moderation import MODERATORS_GROUP

#: where a visitor's theme is kept (members keep theirs on their row)
THEME_COOKIE_NAME = "theme"


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


def preferred_theme(request: HttpRequest) -> str:
    """The theme a page is drawn in: the member's saved choice, else the visitor's cookie,
    else the device's (``Theme.DEVICE``). A cookie that names no theme is ignored."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        theme = user.theme
    else:
        theme = request.COOKIES.get(THEME_COOKIE_NAME, "")
    return theme if theme in Theme.values else Theme.DEVICE
