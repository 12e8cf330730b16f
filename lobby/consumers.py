"""The site's socket on every page of a signed-in member (and on the lobby for anyone):
notifications for the member, and on the lobby page the lobby's changes."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from django.utils.translation import gettext_lazy as _

from games import protocol
from games.errors import TableError
from games.events import LOBBY_GROUP
from games.sockets import MemberSocket, Opening


class SiteConsumer(MemberSocket):
    lobby = False

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.lobby = query.get("lobby") == ["1"]
        await super().connect()

    async def opened(self, opening: Opening) -> None:
        if self.lobby:
            await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)

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
    arena's changes (``{"type": "arena", "version": n}``; the page fetches its table)."""

    def _first(self, seat, box):
        """The arena's version as the socket opens (0 for no such arena)."""
        from lobby.models import Arena

        arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        return Arena.objects.filter(pk=arena_id).values_list("version", flat=True).first() or 0

    async def opened(self, opening: Opening) -> None:
        self.arena_group = f"arena-{self.scope['url_route']['kwargs']['arena_id']}"
        await self.channel_layer.group_add(self.arena_group, self.channel_name)
        # Heard from now on: the page compares with the version it shows.
        await self.send_json({"type": "arena", "version": opening.first})

    async def disconnect(self, code: int) -> None:
        if self.opened_ok:
            await self.channel_layer.group_discard(self.arena_group, self.channel_name)
        await super().disconnect(code)

    async def arena_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "arena", "version": event["version"]})
