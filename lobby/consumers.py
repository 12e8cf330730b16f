"""The site's socket on every page of a signed-in member (and on the lobby for anyone):
notifications for the member, and on the lobby page the lobby's changes."""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any
from urllib.parse import parse_qs

from django.utils.translation import gettext_lazy as _

from games import protocol, selectors, timing
from games.errors import TableError
from games.events import LOBBY_GROUP
from games.sockets import MemberSocket, Opening


class SiteConsumer(MemberSocket):
    lobby = False

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.lobby = query.get("lobby") == ["1"]
        await super().connect()

    def _first(self, seat, box):
        """The table of a challenge of the member's just accepted that they were never
        shown (``selectors.unseen_table``): the notice that it started may have gone out
        before this socket opened (a bot accepts at once, as the challenger's page loads)."""
        if self.member is None or self.member.is_bot:
            return None
        return selectors.unseen_table(self.member.pk, now=timing.now())

    async def opened(self, opening: Opening) -> None:
        if self.lobby:
            await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        if opening.first is not None:
            await self.send_json({"type": "notify", "kind": "started", "url": opening.first})

    async def disconnect(self, code: int) -> None:
        if self.opened_ok and self.lobby:
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        await super().disconnect(code)

    async def handle(self, message: protocol.Message, received_at) -> bool:
        if getattr(message, "type", None) == "ping":
            await self.pong()
            return True
        raise TableError("not_allowed", _("This socket only listens."))

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby"})


class ArenaConsumer(SiteConsumer):
    """``/ws/arena/<id>/``: the site's socket of an arena's page, which also hears the
    arena's changes (``{"type": "arena", "version": n}``; the page fetches its table).

    It sends at most one message a second, all kinds together: changes that come
    closer are one message with the newest version, sent a second after the last
    (a flood of joins and withdrawals once made every open page fetch its table 706
    times in 15 s); notices wait their turn in order."""

    #: at most one message in this many seconds
    SPACING = 1.0

    def _first(self, seat, box):
        """The arena's version as the socket opens (0 for no such arena)."""
        from lobby.models import Arena

        arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        return Arena.objects.filter(pk=arena_id).values_list("version", flat=True).first() or 0

    async def opened(self, opening: Opening) -> None:
        self.arena_group = f"arena-{self.scope['url_route']['kwargs']['arena_id']}"
        self.waiting: list[dict[str, Any]] = []  # messages held back, oldest first
        self.sent_at = -math.inf
        self.sender: asyncio.Future | None = None
        await self.channel_layer.group_add(self.arena_group, self.channel_name)
        # Heard from now on: the page compares with the version it shows.
        await self.spaced({"type": "arena", "version": opening.first})

    async def spaced(self, message: dict[str, Any]) -> None:
        """Send ``message`` now if the last went a second ago, else with the next one; a
        newer arena version takes the place of one still waiting."""
        if message["type"] == "arena":
            self.waiting = [m for m in self.waiting if m["type"] != "arena"]
        self.waiting.append(message)
        if self.sender is None or self.sender.done():
            self.sender = asyncio.ensure_future(self._send_spaced())

    async def _send_spaced(self) -> None:
        while self.waiting:
            wait = self.sent_at + self.SPACING - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            self.sent_at = time.monotonic()
            await self.send_json(self.waiting.pop(0))

    async def member_notify(self, event: dict[str, Any]) -> None:
        await self.spaced({"type": "notify", **event["payload"]})

    async def disconnect(self, code: int) -> None:
        if self.opened_ok:
            if self.sender is not None:
                self.sender.cancel()
            await self.channel_layer.group_discard(self.arena_group, self.channel_name)
        await super().disconnect(code)

    async def arena_changed(self, event: dict[str, Any]) -> None:
        await self.spaced({"type": "arena", "version": event["version"]})
