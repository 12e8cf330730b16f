"""What every socket of the site shares: who its member is and whether they may still
act, presence, a rate limit, errors in the person's language, and the close codes of
docs/protocol.md.

A subclass says which table it serves (``table_id``, None elsewhere), what to do once
open (``opened``) and how to handle a parsed message (``handle``). Every service runs
through ``act``: the member's standing is checked (``standing``), the service runs through
Channels' ``database_sync_to_async`` (thread-sensitive, as it comes: a process's sockets
share one database thread and its connection), and the events it committed are sent
from this event loop afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any
from urllib.parse import parse_qs

from channels.auth import get_user
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import events as member_events
from accounts.limits import SOCKET_MESSAGES, VISITOR_SOCKET_MESSAGES
from games import events, protocol, services, timing
from games.errors import Revoked, TableError

logger = logging.getLogger(__name__)

#: how often a socket looks whether it has been silent for ``PRESENCE_EXPIRY_SECONDS``:
#: a silent socket is closed within this long of that (SPEC: caps count open sockets)
SILENCE_CHECK_SECONDS = 4

#: the process's housekeeping on the database thread at once (a closed socket's presence,
#: its table's refresh, a ping's or sync's presence, a sync's read): the rest wait their
#: turn here, not on the thread, so a burst of sockets closing together (a process's
#: hundreds of tables ending at once) or a crowd's syncs hold a move or an opening back
#: by two such calls, not by hundreds
HOUSEKEEPING_DB_CALLS = 2


@dataclass(frozen=True, slots=True)
class _Slots:
    """This process's bounds on its database calls from the event loop (``loop``):
    members' ``actions`` waiting or running (beyond ``DB_QUEUE_LIMIT`` an action is
    refused at once, ``rate_limited``, instead of queueing for seconds) and its
    ``housekeeping`` (``HOUSEKEEPING_DB_CALLS``)."""

    loop: asyncio.AbstractEventLoop
    actions: asyncio.Semaphore
    housekeeping: asyncio.Semaphore


_slots: _Slots | None = None


def db_slots() -> _Slots:
    """The bounds, made on first use in the loop that runs (settings are read then; a
    semaphore serves one loop, and a test's loop is not the next one's)."""
    global _slots
    loop = asyncio.get_running_loop()
    if _slots is None or _slots.loop is not loop:
        _slots = _Slots(
            loop,
            asyncio.Semaphore(settings.DB_QUEUE_LIMIT),
            asyncio.Semaphore(HOUSEKEEPING_DB_CALLS),
        )
    return _slots


@dataclass(frozen=True, slots=True)
class Opening:
    """What ``MemberSocket._open`` read: the member's seat at the table, the events the
    opening caused, and what the page sends first (``_first``)."""

    seat: int | None
    box: events.Outbox
    first: Any


class MemberSocket(AsyncWebsocketConsumer):
    table_id: int | None = None
    quiet_until = 0.0  # refused by the rate limit until then (``time.time``)
    opened_ok = False
    member = None
    session_key: str | None = None

    # --- who acts ------------------------------------------------------------------------

    async def standing(self, *, opening: bool = False):
        """The socket's member as their session says now, or None for a visitor; raises
        ``Revoked`` when the session no longer authenticates them (a logout, a changed
        password, a deactivated account: Channels' ``get_user`` checks it as Django does)
        or they are banned. Checked as the socket opens (``opening``: the member Channels'
        ``AuthMiddleware`` has just found with ``get_user``) and before every action (the
        session read afresh)."""
        if not self.session_key:
            return None
        if opening:
            user = self.scope["user"]
        else:
            session = import_module(settings.SESSION_ENGINE).SessionStore(self.session_key)
            user = await get_user({**self.scope, "session": session})
        if not user.is_authenticated or user.pk != self.scope["user"].pk:
            raise Revoked(member_events.CLOSE_SESSION_ENDED)
        if user.is_banned(timing.now()):
            raise Revoked(member_events.CLOSE_BANNED)
        return user

    # --- opening and closing -----------------------------------------------------------

    async def connect(self) -> None:
        self.language = self._language()
        self.tally = SOCKET_MESSAGES.tally()
        self.seen = timing.now()
        self.heard_at = time.monotonic()
        self.silence: asyncio.Task | None = None
        await self.accept()
        user, session = self.scope.get("user"), self.scope.get("session")
        if user is not None and user.is_authenticated and session is not None:
            self.session_key = session.session_key
        refresh = self._refresh_at_open()
        try:
            self.member = await self.standing(opening=True)
            self.language = self._language()
            opening = await database_sync_to_async(self._open)(refresh)
        except TableError as failure:
            await self._refuse(failure)
            return
        self.opened_ok = True
        self.silence = asyncio.ensure_future(self._close_when_silent())
        if self.member is not None:
            await self.channel_layer.group_add(
                member_events.member_group(self.member.pk), self.channel_name
            )
            await self.channel_layer.group_add(
                member_events.session_group(self.session_key), self.channel_name
            )
        await self.opened(opening)
        await events.flush(opening.box)

    async def _refuse(self, failure: TableError) -> None:
        """The socket cannot open: a banned member (closed with their code), or a table
        that does not exist, or too many sockets (an error first, then the close)."""
        if isinstance(failure, Revoked):
            await self.close(code=failure.close_code)
            return
        await self.send_error(failure.code, failure.message)
        code = (
            member_events.CLOSE_TOO_MANY_SOCKETS
            if failure.code == "too_many_sockets"
            else member_events.CLOSE_NOT_FOUND
        )
        await self.close(code=code)

    def _refresh_at_open(self) -> bool:
        """Whether the socket refreshes its table's presence as it opens (the table's
        slot is free): then the first state it gets already shows it."""
        return False

    def _open(self, refresh: bool) -> Opening:
        """Everything a socket reads as it opens, in one database call: the page's own
        reads (``_find``, ``_first``), and the socket counted."""
        now = timing.now()
        self._find()
        seat = services.socket_open(
            channel_name=self.channel_name,
            member=self.member,
            match_id=self.table_id,
            now=now,
            client=(self.scope.get("client") or (None,))[0],
        )
        if self.member is None:  # a visitor's budget of messages is smaller
            self.tally = VISITOR_SOCKET_MESSAGES.tally()
        with events.capture() as box:
            if refresh:
                services.presence_refresh(match_id=self.table_id, now=now)
        return Opening(seat, box, self._first(seat, box))

    def _find(self) -> None:
        """Find what the socket serves (``table_id``); ``TableError`` if it does not exist."""

    def _first(self, seat: int | None, box: events.Outbox) -> Any:
        """What the page's socket sends first (read with the opening)."""
        return None

    async def opened(self, opening: Opening) -> None:
        """Called once the socket counts as present."""

    async def _close_when_silent(self) -> None:
        """Close the socket (4408) once it has sent nothing for ``PRESENCE_EXPIRY_SECONDS``
        (a page pings every ``PRESENCE_PING_SECONDS``): a silent socket no longer counts
        as present, and it no longer holds a place under the caps either."""
        while True:
            await asyncio.sleep(SILENCE_CHECK_SECONDS)
            silent = time.monotonic() - self.heard_at
            if silent >= settings.PRESENCE_EXPIRY_SECONDS:
                await self.close(code=member_events.CLOSE_SILENT)
                return

    async def disconnect(self, code: int) -> None:
        if self.silence is not None:
            self.silence.cancel()
        if not self.opened_ok:
            return
        if self.member is not None:
            await self.channel_layer.group_discard(
                member_events.member_group(self.member.pk), self.channel_name
            )
            await self.channel_layer.group_discard(
                member_events.session_group(self.session_key), self.channel_name
            )
        try:
            async with db_slots().housekeeping:
                await database_sync_to_async(services.socket_close)(
                    channel_name=self.channel_name, now=timing.now()
                )
        except Exception:  # presence expires by itself; nothing else depends on this
            logger.exception("closing socket %s", self.channel_name)

    async def member_notify(self, event: dict[str, Any]) -> None:
        """A notice for the member on whatever page this socket serves (events.member_notify)."""
        await self.send_json({"type": "notify", **event["payload"]})

    async def member_blocks(self, event: dict[str, Any]) -> None:
        """The member blocked or unblocked someone (``accounts.events``): only a table's
        socket cares (``TableConsumer``)."""

    async def socket_standing(self, event: dict[str, Any]) -> None:
        """The member's password or active flag changed (``accounts.events``): this
        socket's session still authenticates the member (the one that changed the
        password), or the socket closes as at a logout."""
        try:
            await self.standing()
        except Revoked as revoked:
            await self.close(code=revoked.close_code)

    async def socket_close(self, event: dict[str, Any]) -> None:
        """The member was banned, deleted their account or logged out (accounts.events)."""
        await self.close(code=event["code"])

    # --- messages ---------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        received_at = timing.now()  # a move's stamp for the clock
        moment, self.heard_at = time.time(), time.monotonic()
        counted = False
        try:
            if moment < self.quiet_until:  # over the limit: refused here, no look-up
                raise TableError("rate_limited", _("Slow down: too many messages in a short time."))
            message = protocol.parse(text_data, bytes_data)
            # A move counts only when it is refused (a move accepted in turn never does);
            # anything else counts before it is handled.
            if not isinstance(message, protocol.Move):
                counted = True
                self.count(moment)
            await self.handle(message, received_at)
        except Revoked as revoked:
            await self.close(code=revoked.close_code)
        except TableError as failure:
            if not counted and failure.code != "rate_limited":
                with contextlib.suppress(TableError):
                    self.count(moment)
            await self.send_error(failure.code, failure.message)
        except Exception:
            # The frame is not logged: it is the sender's, of any size and content.
            logger.exception(
                "socket %s: a message of %s characters", self.channel_name, len(text_data or "")
            )
            await self.send_error("internal", _("Something went wrong on the server."))

    def count(self, moment: float) -> None:
        """Count a message against the socket's limit (its own ``accounts.limits.Tally``:
        no call leaves the event loop); over it, ``rate_limited``, and the socket refuses
        by itself until the window ends."""
        if not self.tally.hit(now=moment):
            seconds = self.tally.limit.rate()[1]
            self.quiet_until = (moment // seconds + 1) * seconds
            raise TableError("rate_limited", _("Slow down: too many messages in a short time."))

    async def send_error(self, code: str, message) -> None:
        """An error for this socket, in its language (messages are translated only here)."""
        with translation.override(self.language):
            await self.send_json(protocol.error(code, message))

    async def handle(self, message: protocol.Message, received_at) -> bool:
        """Handle a parsed message (a move counts against the rate limit only when it is
        refused: ``receive``)."""
        raise TableError("not_allowed", _("That is not possible here or now."))

    async def act(self, function: Callable[..., Any] | None, **kwargs: Any) -> Any:
        """Run a service for the socket's member (``user``, as ``standing`` finds them now)
        and send what it caused once it committed. ``function`` None: a sync or a ping,
        which only keeps the socket present."""
        now = timing.now()
        touch = (now - self.seen).total_seconds() > settings.PRESENCE_EXPIRY_SECONDS / 3
        if touch:
            self.seen = now
        if function is None:
            if touch:
                async with db_slots().housekeeping:
                    await database_sync_to_async(services.socket_seen)(
                        channel_name=self.channel_name, now=now
                    )
            return None
        slots = db_slots().actions
        if slots.locked():
            raise TableError("rate_limited", _("The server is busy; try again in a moment."))
        async with slots:
            user = await self.standing()
            result, box, refused = await database_sync_to_async(self._act)(
                function, {**kwargs, "user": user}, touch
            )
        await events.flush(box)
        if refused is not None:
            raise refused
        return result

    def _act(
        self, function: Callable[..., Any], kwargs: dict[str, Any], touch: bool
    ) -> tuple[Any, events.Outbox, TableError | None]:
        """The service's result, what it committed to send, and its refusal: a refusal
        may follow a commit (a move that came after the flag: the flag is stored, and
        its state is sent like any other)."""
        if touch:
            services.socket_seen(channel_name=self.channel_name, now=timing.now())
        with events.capture() as box:
            try:
                result = function(**kwargs)
            except TableError as refused:
                return None, box, refused
        return result, box, None

    async def pong(self) -> None:
        """Answer a ping; the socket's presence is refreshed on the way."""
        await self.act(None)
        await self.send_json({"type": "pong"})

    # --- helpers ----------------------------------------------------------------------

    def _language(self) -> str:
        """The page's language, passed as ``?lang=`` by the script; else the member's."""
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        languages = dict(settings.LANGUAGES)
        for candidate in (
            (query.get("lang") or [""])[0],
            getattr(self.member, "language", "") or "",
        ):
            if candidate in languages:
                return candidate
        return settings.LANGUAGE_CODE

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))
