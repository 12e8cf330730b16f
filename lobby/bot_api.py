"""The API of programs that play (SPEC §15, docs/bot-api.md): the bot's actions and the
challenges, over HTTP with a personal token (``lobby.api_access``). Each view parses its
fields and calls the very service the table's socket or the lobby's forms call, so a move
or a challenge is checked, limited and stored one way whatever sent it; its refusal is
the same code, as JSON. The streams are in ``lobby.bot_streams``."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from accounts.models import ApiToken
from games import timing
from lobby import services
from lobby.api_access import api_action, api_ok

BOT_PLAY = ApiToken.Scope.BOT_PLAY
CHALLENGE_WRITE = ApiToken.Scope.CHALLENGE_WRITE


@api_action(scope=BOT_PLAY)
def account_upgrade(request: HttpRequest, token: ApiToken) -> JsonResponse:
    """``POST /api/bot/account/upgrade``: the token's member becomes a bot account, for
    good (a member who has never played a match)."""
    services.bot_upgrade(member=token.member, now=timing.now())
    return api_ok()
