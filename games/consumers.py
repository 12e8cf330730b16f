"""The table's websocket: parse, call one service, send events or an error code."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from games import protocol, selectors, services
from games.errors import TableError
from games.events import group_name

db = database_sync_to_async


class TableConsumer(AsyncWebsocketConsumer):
    match_id: int
    seat: int | None = None
    version: int = -1
    joined: bool = False

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        await self.accept()
        try:
            self.seat = await db(services.presence_join)(match_id=self.match_id, user=self.user)
        except TableError as failure:
            await self.send_json(protocol.error(failure.code, failure.message))
            await self.close(code=4404)
            return
        self.joined = True
        await self.channel_layer.group_add(group_name(self.match_id), self.channel_name)
        await self.send_state()
        for message in await db(selectors.chat_history)(
            self.match_id, player=self.seat is not None
        ):
            await self.send_json(message)

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await self.channel_layer.group_discard(group_name(self.match_id), self.channel_name)
            await db(services.presence_leave)(match_id=self.match_id, seat=self.seat)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        received_at = timezone.now()  # the move's stamp for the clock
        try:
            message = protocol.parse(text_data, bytes_data)
            await self.dispatch_message(message, received_at)
        except TableError as failure:
            await self.send_json(protocol.error(failure.code, failure.message))

    async def dispatch_message(self, message: protocol.Message, received_at) -> None:
        user, match_id = self.user, self.match_id
        if isinstance(message, protocol.Move):
            await db(services.move_play)(
                match_id=match_id,
                user=user,
                ply=message.ply,
                color=message.color,
                received_at=received_at,
            )
        elif isinstance(message, protocol.Resign):
            resign = services.game_resign if message.scope == "game" else services.match_resign
            await db(resign)(match_id=match_id, user=user, now=received_at)
        elif isinstance(message, protocol.Chat):
            await db(services.chat_post)(
                match_id=match_id, user=user, text=message.text, now=received_at
            )
        elif message.type == "ready":
            await db(services.match_ready)(match_id=match_id, user=user, now=received_at)
        elif message.type == "rematch":
            await db(services.rematch_offer)(match_id=match_id, user=user, now=received_at)
        elif message.type == "sync":
            await self.send_state(force=True)
        else:  # claim, hint, takeback
            raise TableError("not_allowed", f"'{message.type}' is not available at this table")

    async def send_state(self, *, force: bool = False) -> None:
        state = await db(selectors.table_state)(self.match_id)
        if state is not None:
            await self.send_personal(state, force=force)

    async def send_personal(self, state: dict[str, Any], *, force: bool = False) -> None:
        if state["version"] <= self.version and not force:
            return  # an older or repeated notification
        self.version = max(self.version, state["version"])
        await self.send_json({**state, "you": selectors.table_you(state, self.seat)})

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

    # --- group events (sent by games.events after commit) ---------------------------

    async def table_state(self, event: dict[str, Any]) -> None:
        await self.send_personal(event["state"])

    async def table_chat(self, event: dict[str, Any]) -> None:
        if event["audience"] == "spectators" and self.seat is not None:
            return  # no coaching: players never see spectators' chat during rated play
        await self.send_json(event["message"])
