"""The table's websocket: parse, call one service, send events or an error code."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.utils.translation import gettext_lazy as _

from accounts.selectors import blocked_ids, blocked_members
from games import protocol, selectors, services, state, threads, timers
from games.errors import TableError
from games.events import table_group
from games.sockets import MemberSocket, Opening

logger = logging.getLogger(__name__)

# Per table, the state read under way on this process (``TableConsumer.send_state``).
_reads_under_way: dict[int, asyncio.Future] = {}


class Visitors:
    """The visitors' sockets (not logged in) of each table on this process. One of them,
    the table's *relay*, is in the table's group and hands each event it gets to the
    others: a crowd of visitors costs the channel layer and Channels' dispatch one
    message an event, not one a socket (they all see the same frames). When the relay
    closes, another joins the group before it leaves."""

    def __init__(self) -> None:
        self.sockets: dict[int, list[TableConsumer]] = {}

    def others(self, socket: TableConsumer) -> list[TableConsumer]:
        sockets = self.sockets.get(socket.table_id) or []
        return sockets[1:] if sockets and sockets[0] is socket else []

    def add(self, socket: TableConsumer) -> bool:
        """Count the socket in; whether it is the table's relay (and joins the group)."""
        sockets = self.sockets.setdefault(socket.table_id, [])
        sockets.append(socket)
        return len(sockets) == 1

    def remove(self, socket: TableConsumer) -> TableConsumer | None:
        """Count the socket out; the table's next relay if it was the relay."""
        sockets = self.sockets.get(socket.table_id) or []
        was_relay = bool(sockets) and sockets[0] is socket
        if socket in sockets:
            sockets.remove(socket)
        if not sockets:
            self.sockets.pop(socket.table_id, None)
            return None
        return sockets[0] if was_relay else None


visitors = Visitors()


class TableConsumer(MemberSocket):
    seat: int | None = None
    #: the members whose chat this socket's member does not see (those they blocked),
    #: read when the first line comes: a socket opening costs no query for it
    hidden: frozenset[int] | None = None
    version: int = -1
    relaying = False  # a visitor's socket in the table's group for the others (Visitors)

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
        self.relaying = self.member is None and visitors.add(self)
        if self.member is not None or self.relaying:
            await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        event, chat = opening.first
        if event is not None:
            await self.send_personal(event)
        for message in chat:
            await self.send_json(message)

    async def disconnect(self, code: int) -> None:
        if self.opened_ok:
            group = table_group(self.table_id)
            if self.member is None:
                successor = visitors.remove(self)
                if successor is not None:  # joins before this one leaves: no event lost
                    successor.relaying = True
                    await successor.channel_layer.group_add(group, successor.channel_name)
            if self.member is not None or self.relaying:
                await self.channel_layer.group_discard(group, self.channel_name)
        await super().disconnect(code)

    async def handle(self, message: protocol.Message, received_at) -> bool:
        user, match_id = self.member, self.table_id
        if isinstance(message, protocol.Move):
            await self.act(
                services.move_play,
                match_id=match_id,
                user=user,
                ply=message.ply,
                color=message.color,
                received_at=received_at,
                version=self.version if self.version >= 0 else None,  # the state it saw
            )
            return False  # a move accepted in turn never counts against the rate limit
        if isinstance(message, protocol.Resign):
            resign = services.game_resign if message.scope == "game" else services.match_resign
            await self.act(resign, match_id=match_id, user=user, now=received_at)
        elif isinstance(message, protocol.Chat):
            await self.act(
                services.chat_post, match_id=match_id, user=user, text=message.text, now=received_at
            )
        elif message.type in ("ready", "rematch", "claim", "abort", "berserk"):
            service = {
                "ready": services.match_ready,
                "rematch": services.rematch_offer,
                "claim": services.match_claim,
                "abort": services.match_abort_unplayed,
                "berserk": services.match_berserk,
            }[message.type]
            await self.act(service, match_id=match_id, user=user, now=received_at)
        elif message.type == "sync":
            await self.act(None)
            await self.send_state(force=True)
        elif message.type == "ping":
            await self.pong()
        elif message.type == "hint":
            hint = await self.act(
                services.practice_hint, match_id=match_id, user=user, now=received_at
            )
            if hint is not None:  # else it comes when worked out (table_hint)
                await self.send_json(hint)
        elif message.type == "takeback":
            await self.act(
                services.practice_takeback, match_id=match_id, user=user, now=received_at
            )
        else:
            raise TableError("not_allowed", _("That is not possible here or now."))
        return True

    async def send_state(self, *, force: bool = False) -> None:
        """The table's state read now (``sync``). The sockets of one table on this process
        share a read under way: a crowd asking at once costs one read, and visitors' reads
        run with the housekeeping, never before the members' actions."""
        reads = _reads_under_way
        read = reads.get(self.table_id)
        if read is None:
            read = reads[self.table_id] = asyncio.ensure_future(
                threads.run_unbounded(
                    selectors.table_event, self.table_id, urgent=self.member is not None
                )
            )
            read.add_done_callback(lambda _, table_id=self.table_id: reads.pop(table_id, None))
        event = await asyncio.shield(read)
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
        await self._relay("send_personal", event)

    async def _relay(self, method: str, *args: Any) -> None:
        """What this relay socket got, for the table's other visitors on this process."""
        for other in visitors.others(self) if self.relaying else ():
            try:
                await getattr(other, method)(*args)
            except Exception:  # one socket going away must not keep it from the others
                logger.exception("relaying to %s", other.channel_name)

    async def table_hint(self, event: dict[str, Any]) -> None:
        """A hint worked out on the ``bots`` queue: for the sockets of its seat."""
        if self.seat == event["seat"] and event["version"] == self.version:
            await self.send_json(event["hint"])

    async def table_waiting(self, event: dict[str, Any]) -> None:
        """The waiting table changed (joined, left, cancelled): the page looks again."""
        message = {"type": "waiting", "cancelled": event.get("cancelled", False)}
        await self.send_json(message)
        await self._relay("send_json", message)

    async def table_analysis(self, event: dict[str, Any]) -> None:
        """How far the computer's review of the match is (SPEC §13): everyone hears it."""
        message = {key: event[key] for key in ("status", "done", "total")}
        message["type"] = "analysis"
        await self.send_json(message)
        await self._relay("send_json", message)

    async def table_chat(self, event: dict[str, Any]) -> None:
        await self._relay("send_json", event["message"])  # visitors have no seat
        if event["audience"] == "spectators" and self.seat is not None:
            return  # no coaching: players never see spectators' chat during rated play
        if self.member is not None and self.hidden is None:
            self.hidden = frozenset(await threads.run_unbounded(blocked_ids, self.member.pk))
        if self.hidden and event["author"] in self.hidden:
            return  # a member this one blocked (SPEC §14)
        await self.send_json(event["message"])

    async def member_blocks(self, event: dict[str, Any]) -> None:
        """The member blocked or unblocked someone: whose chat is hidden, read again, and
        the page hides the lines already shown of whom it names (``chat_hide``)."""
        if self.member is not None:
            blocked = await threads.run_unbounded(blocked_members, self.member.pk)
            self.hidden = frozenset(blocked)
            await self.send_json({"type": "chat_hide", "usernames": sorted(blocked.values())})
