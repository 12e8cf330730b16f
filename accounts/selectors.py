"""Reads of members that are more than a ``.get()``."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from accounts.models import User


def member_by_username(username: str) -> User | None:
    return User.objects.filter(username__iexact=username, is_active=True).first()


def preferred_language(request: HttpRequest) -> str | None:
    """The language a visitor chose: the member's saved choice, else the cookie."""
    user = getattr(request, "user", None)
    language = user.language if user is not None and user.is_authenticated else ""
    if not language:
        language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return language if language in dict(settings.LANGUAGES) else None
