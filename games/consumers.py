"""The table's websocket: parse, call one service, send events or an error code; and
what a web process does later by itself, on its event loop, for the tables its sockets
serve (a table's timers are dropped when its last socket here closes):

- **Presence**, throttled per table: the first change after a quiet second is refreshed
  at once, later ones together a second after the last refresh, so 400 sockets opening
  cost a handful of states, not 400.
- **A crowd of visitors**: of the visitors' sockets (not logged in) of a table here, the
  first is in the table's group and relays what it hears to the others (``_Table.visitors``):
  300 visitors cost one message and one of Channels' hops to the database thread an
  event, not 300 (they see the same frames). When it closes, the next one joins the group
  before it leaves.
- **A crowd's syncs**: the sockets here that ask for a table's state while a read of it
  waits for its turn share that read (``state_read``), and it waits behind the
  housekeeping slots: 300 visitors sending ``sync`` cost a few reads a second, and a
  move never queues behind them on the database thread.
- **Deadlines**: each process looks at the tables it serves when their deadline comes (a
  flag, an abort, game 2), so the result shows at once. The scheduled Celery task and the
  beat sweep do the same for tables nobody watches; all three call ``match_tick``.

``_tables`` is the one mutable module-level container of the web process: what it holds
per table (the timers, the reads under way, the visitors' sockets) lives on its event loop
and dies with it and its sockets, and nothing else depends on it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.selectors import blocked_ids, blocked_members
from games import events, protocol, selectors, services, state, timing
from games.errors import TableError
from games.events import table_group
from games.services.practice import HINT_RUNNING_SECONDS
from games.sockets import MemberSocket, Opening, db_slots

logger = logging.getLogger(__name__)


@dataclass
class _Table:
    sockets: int = 0
    last_refresh: float = -math.inf
    pending: asyncio.TimerHandle | None = None  # a refresh waiting for its slot
    refreshing: int = 0  # refreshes under way
    deadline: str | None = None
    deadline_timer: asyncio.TimerHandle | None = None
    reading: asyncio.Task | None = None  # a read of the state asked for, not yet begun
    visitors: list[TableConsumer] = field(default_factory=list)  # the first relays


_tables: dict[int, _Table] = {}


def socket_opened(match_id: int) -> None:
    """A socket of this process joined the table."""
    _tables.setdefault(match_id, _Table()).sockets += 1


def socket_closed(match_id: int) -> None:
    """A socket of this process left the table: with the last one, its timers go."""
    table = _tables.get(match_id)
    if table is not None:
        table.sockets -= 1
        _drop_if_unused(match_id, table)


def _drop_if_unused(match_id: int, table: _Table) -> None:
    if table.sockets > 0 or table.pending is not None or table.refreshing:
        return
    if table.deadline_timer is not None:
        table.deadline_timer.cancel()
    del _tables[match_id]


def tables_watched() -> int:
    """How many tables this process keeps timers for."""
    return len(_tables)


def refresh_now_allowed(match_id: int) -> bool:
    """Take the table's refresh slot if a second has passed since the last refresh."""
    table = _tables.setdefault(match_id, _Table())
    now = time.monotonic()
    if table.pending is not None or now - table.last_refresh < settings.PRESENCE_COALESCE_SECONDS:
        return False
    table.last_refresh = now
    return True


def presence_changed(match_id: int) -> None:
    """A socket came or went at the table: refresh its presence, at most once a second."""
    if refresh_now_allowed(match_id):
        _start_refresh(match_id)
        return
    table = _tables[match_id]
    if table.pending is not None:
        return
    delay = max(0.0, table.last_refresh + settings.PRESENCE_COALESCE_SECONDS - time.monotonic())
    table.pending = asyncio.get_running_loop().call_later(delay, _refresh_later, match_id)


def _refresh_later(match_id: int) -> None:
    table = _tables[match_id]
    table.pending = None
    table.last_refresh = time.monotonic()
    _start_refresh(match_id)


def _start_refresh(match_id: int) -> None:
    """A refresh under way keeps the table's entry until it has committed."""
    table = _tables.setdefault(match_id, _Table())
    table.refreshing += 1
    asyncio.get_running_loop().create_task(_refresh(match_id, table))


async def _refresh(match_id: int, table: _Table) -> None:
    try:
        async with db_slots().housekeeping:  # behind members' moves, not ahead of them
            box = await database_sync_to_async(refresh_captured)(match_id)
        await events.flush(box)
    except Exception:
        logger.exception("presence refresh of table %s failed", match_id)
    finally:
        table.refreshing -= 1
        if _tables.get(match_id) is table:
            _drop_if_unused(match_id, table)


def refresh_captured(match_id: int) -> events.Outbox:
    """Refresh a table's presence on this thread; return the messages to send."""
    with events.capture() as box:
        services.presence_refresh(match_id=match_id, now=timing.now())
    return box


def visitor_came(socket: TableConsumer) -> bool:
    """Count a visitor's socket in at its table; whether it relays (joins the group)."""
    visitors = _tables.setdefault(socket.table_id, _Table()).visitors
    visitors.append(socket)
    return len(visitors) == 1


def visitor_went(socket: TableConsumer) -> tuple[bool, TableConsumer | None]:
    """Count a visitor's socket out: whether it relayed, and the next relay then."""
    table = _tables.get(socket.table_id)
    visitors = table.visitors if table is not None else []
    relayed = bool(visitors) and visitors[0] is socket
    if socket in visitors:
        visitors.remove(socket)
    return relayed, visitors[0] if relayed and visitors else None


def visitors_besides(socket: TableConsumer) -> list[TableConsumer]:
    """The table's other visitors here, when ``socket`` relays to them."""
    table = _tables.get(socket.table_id)
    if table is None or not table.visitors or table.visitors[0] is not socket:
        return []
    return table.visitors[1:]


async def state_read(match_id: int) -> dict[str, Any] | None:
    """The table's state read after this ask (``sync``): asks of this process's sockets
    that come while a read waits for its housekeeping slot share it, and a read that has
    begun serves only the asks before it, so nobody gets a state older than their ask."""
    loop = asyncio.get_running_loop()
    table = _tables.get(match_id) or _Table()  # its sockets keep the entry while they ask
    if table.reading is None or table.reading.get_loop() is not loop:
        table.reading = loop.create_task(_state_read(match_id, table))
    return await asyncio.shield(table.reading)


async def _state_read(match_id: int, table: _Table) -> dict[str, Any] | None:
    async with db_slots().housekeeping:
        if table.reading is asyncio.current_task():
            table.reading = None  # asks from now on wait for the next read
        return await database_sync_to_async(selectors.table_event)(match_id)


def watch_deadline(match_id: int, deadline: str | None) -> None:
    """Look at the table when ``deadline`` (ISO 8601, as events send it) comes; None
    forgets it. Only for tables a socket of this process serves."""
    table = _tables.get(match_id)
    if not settings.WEB_DEADLINE_TIMERS or table is None or table.deadline == deadline:
        return
    if table.deadline_timer is not None:
        table.deadline_timer.cancel()
    table.deadline, table.deadline_timer = deadline, None
    if deadline is None:
        return
    delay = max(0.0, (datetime.fromisoformat(deadline) - timing.now()).total_seconds())
    table.deadline_timer = asyncio.get_running_loop().call_later(
        delay, _deadline_due, match_id, deadline
    )


def _deadline_due(match_id: int, deadline: str) -> None:
    table = _tables.get(match_id)
    if table is not None and table.deadline == deadline:
        table.deadline, table.deadline_timer = None, None
    asyncio.get_running_loop().create_task(_tick(match_id, deadline))


async def _tick(match_id: int, deadline: str) -> None:
    try:
        box = await database_sync_to_async(tick_captured)(match_id, deadline)
        await events.flush(box)
    except Exception:
        logger.exception("deadline of table %s failed", match_id)


def tick_captured(match_id: int, deadline: str) -> events.Outbox:
    with events.capture() as box:
        services.match_tick(
            match_id=match_id, now=timing.now(), deadline=datetime.fromisoformat(deadline)
        )
    return box


class TableConsumer(MemberSocket):
    seat: int | None = None
    #: the members whose chat this socket's member does not see (those they blocked),
    #: read when the first line comes: a socket opening costs no query for it
    hidden: frozenset[int] | None = None
    version: int = -1
    refreshed = False  # the socket refreshed its table's presence as it opened
    #: the version this socket last asked a hint at, until when its answer is awaited
    #: (``table_hint``), and the hint it got for a version: asked again, nothing is read
    hint_asked: tuple[int, float] = (-1, 0.0)
    hint_known: tuple[int, dict[str, Any] | None] = (-1, None)

    async def connect(self) -> None:
        route = self.scope["url_route"]["kwargs"].get("match_id")
        if route is not None:
            socket_opened(route)  # the table's timers here live while it has sockets
        await super().connect()
        if not self.opened_ok:
            if route is not None:
                socket_closed(route)
            return
        if route is None:  # a private table, by its token
            socket_opened(self.table_id)
        if not self.refreshed:
            presence_changed(self.table_id)  # later, with the others

    def _refresh_at_open(self) -> bool:
        # By the route's id; a private table's socket (by token) refreshes just after.
        match_id = self.scope["url_route"]["kwargs"].get("match_id")
        self.refreshed = match_id is not None and refresh_now_allowed(match_id)
        return self.refreshed

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

    def _plays_here(self) -> bool:
        """Whether this socket's member may play from it: a bot account plays through the
        API only (SPEC §15), so its pages at its own table are a spectator's."""
        return self.member is None or not self.member.is_bot

    async def opened(self, opening: Opening) -> None:
        self.seat = opening.seat if self._plays_here() else None
        if self.member is not None or visitor_came(self):  # a visitor: only the relay
            await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        event, chat = opening.first
        if event is not None:
            await self.send_personal(event)
        for message in chat:
            await self.send_json(message)

    async def disconnect(self, code: int) -> None:
        if self.opened_ok:
            group = table_group(self.table_id)
            in_group = self.member is not None
            if not in_group:
                in_group, successor = visitor_went(self)
                if successor is not None:  # joins before this one leaves: nothing is lost
                    await successor.channel_layer.group_add(group, successor.channel_name)
            if in_group:
                await self.channel_layer.group_discard(group, self.channel_name)
        await super().disconnect(code)
        if self.opened_ok:
            presence_changed(self.table_id)
            socket_closed(self.table_id)

    async def handle(self, message: protocol.Message, received_at) -> bool:
        match_id = self.table_id
        if not self._plays_here() and getattr(message, "type", None) not in ("ping", "sync"):
            raise TableError(
                "not_allowed", _("A bot account plays through the API, not from this page.")
            )
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
            await self.hint(received_at)
        elif message.type == "takeback":
            await self.act(services.practice_takeback, match_id=match_id, now=received_at)
        else:
            raise TableError("not_allowed", _("That is not possible here or now."))
        return True

    async def hint(self, received_at: datetime) -> None:
        """The hint for the position this socket shows: at once when known here or kept,
        else it comes when worked out (``table_hint``). Asked again at the same version,
        this socket answers from what it got, or waits for the answer it asked for
        (``HINT_RUNNING_SECONDS`` at most): a page asking over and over reads nothing."""
        version, hint = self.hint_known
        if version == self.version and hint is not None:
            await self.send_json(hint)
            return
        version, until = self.hint_asked
        if version == self.version and time.monotonic() < until:
            return
        hint = await self.act(services.practice_hint, match_id=self.table_id, now=received_at)
        if hint is None:
            self.hint_asked = (self.version, time.monotonic() + HINT_RUNNING_SECONDS)
        else:
            self.hint_known = (self.version, hint)
            await self.send_json(hint)

    async def send_state(self, *, force: bool = False) -> None:
        """The table's state read after the ask (``sync``, ``state_read``)."""
        event = await state_read(self.table_id)
        if event is not None:
            await self.send_personal(event, force=force)

    async def send_personal(self, event: dict[str, Any], *, force: bool = False) -> None:
        if event["version"] <= self.version and not force:
            return  # an older or repeated notification
        self.version = max(self.version, event["version"])
        if self.member is not None and self._plays_here():  # the seat as this state has it
            players = event["players"]
            self.seat = players.index(self.member.pk) if self.member.pk in players else None
        await self.send(text_data=state.personal(event, self.seat))
        watch_deadline(self.table_id, event["deadline"])

    # --- group events (sent after commit) -------------------------------------------

    async def table_state(self, event: dict[str, Any]) -> None:
        await self.send_personal(event)
        await self._relay("send_personal", event)

    async def _relay(self, method: str, *args: Any) -> None:
        """What this relaying visitor's socket heard, for the table's other visitors here."""
        for other in visitors_besides(self):
            try:
                await getattr(other, method)(*args)
            except Exception:  # one socket going away must not keep it from the others
                logger.exception("relaying to %s", other.channel_name)

    async def table_hint(self, event: dict[str, Any]) -> None:
        """A hint worked out on the ``bots`` queue: for the sockets of its seat."""
        if self.seat == event["seat"] and event["version"] == self.version:
            self.hint_known = (self.version, event["hint"])
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
