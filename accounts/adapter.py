from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest, HttpResponse
from django.urls import translate_url

from accounts.views import banned_response


class AccountAdapter(DefaultAccountAdapter):
    def pre_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse | None:
        if getattr(user, "is_banned", None) and user.is_banned():
            from allauth.account.internal.stagekit import clear_login

            clear_login(request)
            return banned_response(request, user)
        return super().pre_login(request, user, **kwargs)

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        url = super().get_login_redirect_url(request)
        language = getattr(request.user, "language", "")
        return translate_url(url, language) if language else url
