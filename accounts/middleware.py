from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import translate_url
from django.utils.http import escape_leading_slashes
from django.utils.translation import get_language_from_path

from accounts.selectors import preferred_language
from accounts.views import banned_response


class BannedMemberMiddleware:
    """A banned member is logged out at their next request and told why."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.is_banned():
            logout(request)
            return banned_response(request, user)
        return self.get_response(request)


class PreferredLanguageMiddleware:
    """Send a visitor who chose another language from an unprefixed (English) page to theirs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and not get_language_from_path(request.path_info):
            language = preferred_language(request)
            if language and language != settings.LANGUAGE_CODE:
                # "//host/..." would be read by browsers as another site: a path of
                # this site starts with exactly one slash.
                current = escape_leading_slashes(request.get_full_path())
                target = escape_leading_slashes(translate_url(current, language))
                if target != current:
                    return HttpResponseRedirect(target)
        return self.get_response(request)
