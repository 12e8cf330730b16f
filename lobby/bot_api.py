"""The API of programs that play (SPEC §15, docs/bot-api.md): the bot's actions and the
challenges, over HTTP with a personal token (``lobby.api_access``). Each view parses its
fields as the table's socket parses a frame (``games.protocol.message``) and calls the
very service the socket or the lobby's forms call, so a move or a challenge is checked,
limited and stored one way whatever sent it; its refusal is the same code, as JSON. The
streams are in ``lobby.bot_streams``.

A token's calls share the budget of a table's socket (``accounts.limits.SOCKET_MESSAGES``,
counted per token): a move accepted in turn never counts, a refused one and any other call
does; over it every call is refused with ``rate_limited`` until the window ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext_lazy as _

from accounts.limits import SOCKET_MESSAGES
from accounts.models import ApiToken
from accounts.selectors import member_by_username
from games import protocol, timing
from games import services as tables
from games.errors import TableError
from lobby import services
from lobby.api_access import api_action, api_ok
from lobby.selectors import challenge_public

#: what ``rated`` may say
BOOLEANS = {"true": True, "false": False, "1": True, "0": False, "on": True, "off": False}
BOT_PLAY = ApiToken.Scope.BOT_PLAY
CHALLENGE_WRITE = ApiToken.Scope.CHALLENGE_WRITE


def _limited(token: ApiToken) -> str:
    return f"api-token-{token.pk}"


def _count(token: ApiToken, moment: float) -> None:
    if not SOCKET_MESSAGES.hit(_limited(token), now=moment):
        raise _over_budget(moment)


def _over_budget(moment: float) -> TableError:
    return TableError(
        "rate_limited",
        _("Slow down: too many messages in a short time."),
        retry_after=SOCKET_MESSAGES.retry_after(now=moment),
    )


def acted(token: ApiToken, action: Callable[[], Any], *, move: bool = False) -> Any:
    """Run ``action`` (parsing and one service call) under the token's budget: a move
    counts only when it is refused, anything else before it runs."""
    moment = time.time()
    if SOCKET_MESSAGES.over(_limited(token), now=moment):
        raise _over_budget(moment)
    if not move:
        _count(token, moment)
    try:
        return action()
    except TableError:
        if move:
            _count(token, moment)
        raise


def _colour(value: str) -> int | str:
    """A colour in the path: 1–9, or ``swap``; anything else goes to the parser as it is,
    which refuses it (``bad_message``, or ``illegal_color`` for a number off the
    palette)."""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 3 else value


def _whole(value: str | None) -> int | str | None:
    if value is not None and value.isascii() and value.isdigit() and len(value) <= 6:
        return int(value)
    return value


@api_action(scope=BOT_PLAY)
def account_upgrade(request: HttpRequest, token: ApiToken) -> JsonResponse:
    """``POST /api/bot/account/upgrade``: the token's member becomes a bot account, for
    good (a member who has never played a match)."""
    acted(token, lambda: services.bot_upgrade(member=token.member, now=timing.now()))
    return api_ok()


@api_action(scope=BOT_PLAY, bot=True)
def move(request: HttpRequest, token: ApiToken, match_id: int, colour: str) -> JsonResponse:
    """``POST /api/bot/match/<id>/move/<colour>`` with ``ply``: as the socket's ``move``
    (``games.services.move_play``); stamped as it arrives, for the clock."""
    received_at = request.received_at

    def play():
        parsed = protocol.message(
            {"type": "move", "color": _colour(colour), "ply": _whole(request.POST.get("ply"))}
        )
        tables.move_play(
            match_id=match_id,
            user=token.member,
            ply=parsed.ply,
            color=parsed.color,
            received_at=received_at,
        )

    acted(token, play, move=True)
    return api_ok()


def _table_action(service: Callable[..., Any]):
    """``POST /api/bot/match/<id>/<action>``: one of the socket's simple messages."""

    @api_action(scope=BOT_PLAY, bot=True)
    def view(request: HttpRequest, token: ApiToken, match_id: int) -> JsonResponse:
        now = timing.now()
        acted(token, lambda: service(match_id=match_id, user=token.member, now=now))
        return api_ok()

    view.__name__ = service.__name__
    return view


ready = _table_action(tables.match_ready)
abort = _table_action(tables.match_abort_unplayed)
claim = _table_action(tables.match_claim)


@api_action(scope=BOT_PLAY, bot=True)
def resign(request: HttpRequest, token: ApiToken, match_id: int) -> JsonResponse:
    """``POST /api/bot/match/<id>/resign`` with ``scope`` (``game`` or ``match``)."""
    now = timing.now()

    def give_up():
        parsed = protocol.message({"type": "resign", "scope": request.POST.get("scope")})
        service = tables.game_resign if parsed.scope == "game" else tables.match_resign
        service(match_id=match_id, user=token.member, now=now)

    acted(token, give_up)
    return api_ok()


@api_action(scope=BOT_PLAY, bot=True)
def chat(request: HttpRequest, token: ApiToken, match_id: int) -> JsonResponse:
    """``POST /api/bot/match/<id>/chat`` with ``text``: a line at the bot's own table."""
    now = timing.now()

    def say():
        parsed = protocol.message({"type": "chat", "text": request.POST.get("text")})
        tables.chat_post(
            match_id=match_id, user=token.member, text=parsed.text, now=now, players_only=True
        )

    acted(token, say)
    return api_ok()


# --- challenges (scope challenge:write; members use them too) ---------------------------


@api_action(scope=CHALLENGE_WRITE)
def challenge_create(request: HttpRequest, token: ApiToken, username: str) -> JsonResponse:
    """``POST /api/challenge/<username>`` with ``variant``, ``clock`` (``m+s`` or empty),
    ``rated`` (``true``/``false``) and ``format`` (``match``, the default, or ``single``):
    as the challenge form of a member's page (``lobby.services.challenge_send``, which
    checks the settings as for any table)."""
    now = timing.now()

    def send():
        challenged = member_by_username(username)
        if challenged is None:
            raise TableError("not_found", _("No member has that name."))
        fields = request.POST
        if fields.get("format", "match") not in ("match", "single"):
            raise TableError("invalid", _("Choose a match or a single game."))
        rated = fields.get("rated", "false").strip().lower()
        if rated not in BOOLEANS:
            raise TableError("bad_message", _("'rated' must be true or false."))
        return services.challenge_send(
            challenger=token.member,
            challenged=challenged,
            variant=fields.get("variant", ""),
            clock=fields.get("clock", "").strip(),
            single_game=fields.get("format") == "single",
            rated=BOOLEANS[rated],
            now=now,
        )

    challenge = acted(token, send)
    return api_ok({"challenge": challenge_public(challenge)})


@api_action(scope=CHALLENGE_WRITE)
def challenge_accept(request: HttpRequest, token: ApiToken, challenge_id: int) -> JsonResponse:
    """``POST /api/challenge/<id>/accept``: the match starts at once (its id answers)."""
    now = timing.now()
    match = acted(
        token,
        lambda: services.challenge_accept(challenge_id=challenge_id, member=token.member, now=now),
    )
    return api_ok({"ok": True, "match": {"id": match.pk}})


def _challenge_answer(service: Callable[..., Any]):
    @api_action(scope=CHALLENGE_WRITE)
    def view(request: HttpRequest, token: ApiToken, challenge_id: int) -> JsonResponse:
        now = timing.now()
        acted(token, lambda: service(challenge_id=challenge_id, member=token.member, now=now))
        return api_ok()

    view.__name__ = service.__name__
    return view


challenge_decline = _challenge_answer(services.challenge_decline)
challenge_cancel = _challenge_answer(services.challenge_cancel)
