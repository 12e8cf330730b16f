"""Who calls the API, and how a refusal answers (SPEC §15, docs/bot-api.md).

Every API call may carry ``Authorization: Bearer <token>``; the calls that act need one
(``api_action``), the read endpoints of SPEC §8 stay open without one and check one when
it is sent (``lobby.api``). The token is checked by ``accounts.services.token_authenticate``
alone; the member it names is who acts, and the services take that member. Calls that act
need no CSRF token: they never read the session, so a page of another site cannot make
a browser act through them.

A refusal is ``{"error": code, "message": text}`` in the member's language (the
request's before the member is known), with the HTTP status of its code (``STATUS``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps

from channels.db import database_sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt

from accounts.errors import Refusal
from accounts.models import ApiToken
from accounts.services import TokenRefused, token_authenticate
from accounts.services.tokens import bearer
from games import timing

logger = logging.getLogger(__name__)


def pooled(function):
    """``function`` as a coroutine run by Channels' ``database_sync_to_async`` on the event
    loop's shared pool of threads (not thread-sensitive), whose few threads keep their
    connections: the API's async views and streams. Thread-sensitive, Django would give
    each request a thread of its own with a new connection, and keep both for as long as
    a stream is open. (Sockets use Channels' default: one database thread a process.)"""
    return database_sync_to_async(function, thread_sensitive=False)


#: the HTTP status of each refusal's code; any other code is 400
STATUS = {
    "unauthorized": 401,
    "missing_scope": 403,
    "not_allowed": 403,
    "not_a_player": 403,
    "not_a_bot": 403,
    "not_found": 404,
    "method": 405,
    "stale": 409,
    "not_your_turn": 409,
    "game_over": 409,
    "limit": 429,
    "rate_limited": 429,
    "too_many_sockets": 429,
    "busy": 429,
    "internal": 500,
}


def api_error(
    code: str, message, *, status: int | None = None, retry_after: int | None = None
) -> JsonResponse:
    """A refusal as JSON, its message in the language active now; ``retry_after``: the
    ``Retry-After`` header of a refusal by a rate limit."""
    response = JsonResponse(
        {"error": code, "message": str(message)},
        status=status or STATUS.get(code, 400),
        json_dumps_params={"ensure_ascii": False},
    )
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def api_ok(data: dict | None = None) -> JsonResponse:
    return JsonResponse(data or {"ok": True}, json_dumps_params={"ensure_ascii": False})


def member_language(request: HttpRequest, member=None) -> str:
    """The member's language when they chose one, else the request's: its path's prefix
    (``/bg/api/…``), else its language cookie or ``Accept-Language``. (The pages' rule,
    an unprefixed path being English, is not the API's: a program says its language in
    its headers.)"""
    chosen = getattr(member, "language", "") or ""
    if chosen in dict(settings.LANGUAGES):
        return chosen
    return translation.get_language_from_request(request, check_path=True)


def authenticate(request: HttpRequest, *, scope: str | None, bot: bool = False) -> ApiToken:
    """The token the request carries, if it may make this call (``token.member`` acts);
    ``bot``: only a bot account may (``not_a_bot`` otherwise). Raises ``Refusal``."""
    token = token_authenticate(
        raw=bearer(request.headers.get("Authorization")), scope=scope, now=timing.now()
    )
    if bot and not token.member.is_bot:
        raise Refusal(
            "not_a_bot",
            _("Only bot accounts play through the API: upgrade this account first."),
        )
    return token


def refusal_response(request: HttpRequest, refusal: Refusal, member=None) -> JsonResponse:
    """A refusal in the member's language (the request's when no member is known)."""
    with translation.override(member_language(request, member)):
        status = refusal.status if isinstance(refusal, TokenRefused) else None
        return api_error(
            refusal.code, refusal.message, status=status, retry_after=refusal.retry_after
        )


def api_action(*, scope: str, bot: bool = False, methods: tuple[str, ...] = ("POST",)):
    """A view of the API that acts: the method checked, the token checked (``authenticate``),
    then ``view(request, token, ...)`` in the member's language, on the API's pool of
    threads (``pooled``); a ``Refusal`` it raises is answered as JSON. No CSRF
    token is asked for (see the module's docstring)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @csrf_exempt
        @wraps(view)
        async def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            # Stamped as it reaches the view, before waiting for a thread: a move's time
            # for the clock, as the socket stamps a frame when it arrives.
            request.received_at = timing.now()
            return await pooled(acting)(request, *args, **kwargs)

        def acting(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method not in methods:
                with translation.override(member_language(request)):
                    response = api_error(
                        "method",
                        _("Use %(methods)s here.") % {"methods": " or ".join(methods)},
                    )
                response["Allow"] = ", ".join(methods)
                return response
            try:
                token = authenticate(request, scope=scope, bot=bot)
            except Refusal as refusal:
                return refusal_response(request, refusal)
            with translation.override(member_language(request, token.member)):
                try:
                    return view(request, token, *args, **kwargs)
                except Refusal as refusal:
                    return api_error(refusal.code, refusal.message, retry_after=refusal.retry_after)
                except Exception:
                    logger.exception("API call %s failed", request.path)
                    return api_error("internal", _("Something went wrong on the server."))

        return wrapped

    return decorate
