"""The table's websocket: parse, call one service, send events or an error code."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils.translation import gettext_lazy as _

from accounts.selectors import blocked_ids, blocked_members
from games import protocol, selectors, services, state, timers
from games.errors import TableError
from games.events import table_group
from games.sockets import MemberSocket, Opening


class TableConsumer(MemberSocket):
    seat: int | None = None
    #: the members whose chat this socket's member does not see (those they blocked),
    #: read when the first line comes: a socket opening costs no query for it
    hidden: frozenset[int] | None = None
    version: int = -1

    def _refresh_at_open(self) -> bool:
        # By the route's id; a private table's socket (by token) refreshes just after.
        match_id = self.scope["url_route"]["kwargs"].get("match_id")
        return match_id is not None and timers.refresh_now_allowed(match_id)

    def _find(self) -> None:
        # A private table's socket is reached by its token only (SPEC §9).
        route = self.scope["url_route"]["kwargs"]
        self.table_id = selectors.table_id(match_id=route.get("match_id"), token=route.get("token"))
        if self.table_id is None:
            raise TableError("not_found", _("This table does not exist."))

    def _first(self, seat: int | None, box) -> tuple[dict[str, Any] | None, list[dict]]:
        """The state (the one the presence refresh just made, else read) and the chat."""
        event = next(
            (
                event
                for group, event in box
                if group == table_group(self.table_id) and event["type"] == "table.state"
            ),
            None,
        ) or selectors.table_event(self.table_id)
        viewer = self.member.pk if self.member is not None else None
        chat = selectors.chat_history(self.table_id, player=seat is not None, viewer=viewer)
        return event, chat

    async def opened(self, opening: Opening) -> None:
        self.seat = opening.seat
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        event, chat = opening.first
        if event is not None:
            await self.send_personal(event)
        for message in chat:
            await self.send_json(message)

    async def disconnect(self, code: int) -> None:
        if self.opened_ok:
            await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        await super().disconnect(code)

    async def handle(self, message: protocol.Message, received_at) -> bool:
        match_id = self.table_id
        if isinstance(message, protocol.Move):
            await self.act(
                services.move_play,
                match_id=match_id,
                ply=message.ply,
                color=message.color,
                received_at=received_at,
            )
            return False  # a move accepted in turn never counts against the rate limit
        if isinstance(message, protocol.Resign):
            resign = services.game_resign if message.scope == "game" else services.match_resign
            await self.act(resign, match_id=match_id, now=received_at)
        elif isinstance(message, protocol.Chat):
            await self.act(
                services.chat_post, match_id=match_id, text=message.text, now=received_at
            )
        elif message.type in ("ready", "rematch", "claim", "abort", "berserk"):
            service = {
                "ready": services.match_ready,
                "rematch": services.rematch_offer,
                "claim": services.match_claim,
                "abort": services.match_abort_unplayed,
                "berserk": services.match_berserk,
            }[message.type]
            await self.act(service, match_id=match_id, now=received_at)
        elif message.type == "sync":
            await self.act(None)
            await self.send_state(force=True)
        elif message.type == "ping":
            await self.pong()
        elif message.type == "hint":
            hint = await self.act(services.practice_hint, match_id=match_id, now=received_at)
            if hint is not None:  # else it comes when worked out (table_hint)
                await self.send_json(hint)
        elif message.type == "takeback":
            await self.act(services.practice_takeback, match_id=match_id, now=received_at)
        else:
            raise TableError("not_allowed", _("That is not possible here or now."))
        return True

    async def send_state(self, *, force: bool = False) -> None:
        """The table's state read now (``sync``)."""
        event = await database_sync_to_async(selectors.table_event)(self.table_id)
        if event is not None:
            await self.send_personal(event, force=force)

    async def send_personal(self, event: dict[str, Any], *, force: bool = False) -> None:
        if event["version"] <= self.version and not force:
            return  # an older or repeated notification
        self.version = max(self.version, event["version"])
        if self.member is not None:  # the member's seat as this state has it
            players = event["players"]
            self.seat = players.index(self.member.pk) if self.member.pk in players else None
        await self.send(text_data=state.personal(event, self.seat))
        timers.watch_deadline(self.table_id, event["deadline"])

    # --- group events (sent after commit) -------------------------------------------

    async def table_state(self, event: dict[str, Any]) -> None:
        await self.send_personal(event)

    async def table_hint(self, event: dict[str, Any]) -> None:
        """A hint worked out on the ``bots`` queue: for the sockets of its seat."""
        if self.seat == event["seat"] and event["version"] == self.version:
            await self.send_json(event["hint"])

    async def table_waiting(self, event: dict[str, Any]) -> None:
        """The waiting table changed (joined, left, cancelled): the page looks again."""
        message = {"type": "waiting", "cancelled": event.get("cancelled", False)}
        await self.send_json(message)

    async def table_analysis(self, event: dict[str, Any]) -> None:
        """How far the computer's review of the match is (SPEC §13): everyone hears it."""
        message = {key: event[key] for key in ("status", "done", "total")}
        message["type"] = "analysis"
        await self.send_json(message)

    async def table_chat(self, event: dict[str, Any]) -> None:
        if event["audience"] == "spectators" and self.seat is not None:
            return  # no coaching: players never see spectators' chat during rated play
        if self.member is not None and self.hidden is None:
            self.hidden = frozenset(await database_sync_to_async(blocked_ids)(self.member.pk))
        if self.hidden and event["author"] in self.hidden:
            return  # a member this one blocked (SPEC §14)
        await self.send_json(event["message"])

    async def member_blocks(self, event: dict[str, Any]) -> None:
        """The member blocked or unblocked someone: whose chat is hidden, read again, and
        the page hides the lines already shown of whom it names (``chat_hide``)."""
        if self.member is not None:
            blocked = await database_sync_to_async(blocked_members)(self.member.pk)
            self.hidden = frozenset(blocked)
            await self.send_json({"type": "chat_hide", "usernames": sorted(blocked.values())})
