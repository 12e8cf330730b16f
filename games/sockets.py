"""What every socket of the site shares: presence, the member's current standing, a
rate limit, errors in the person's language, and the close codes of docs/protocol.md.

A subclass says which table it serves (``table_id``, None elsewhere), what to do once
open (``opened``) and how to handle a parsed message (``handle``). Services run through
``act``: on a database thread, after re-reading the member's standing, with the events
they cause sent afterwards from this event loop.
"""

from __future__ import annotations

import copy
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import events as member_events
from games import events, protocol, services, threads, timers, timing
from games.errors import Revoked, TableError

logger = logging.getLogger(__name__)


class RateWindow:
    """At most ``limit`` counted messages in any ``seconds`` (a sliding window)."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.times: deque[float] = deque()

    def full(self, now: float) -> bool:
        while self.times and self.times[0] <= now - self.seconds:
            self.times.popleft()
        return len(self.times) >= self.limit

    def add(self, now: float) -> None:
        self.times.append(now)


@dataclass(frozen=True, slots=True)
class Opening:
    """What ``MemberSocket._open`` read: the member's seat at the table, the events the
    opening caused, and what the page sends first (``_first``)."""

    seat: int | None
    box: events.Outbox
    first: Any


class MemberSocket(AsyncWebsocketConsumer):
    table_id: int | None = None
    opened_ok = False

    # --- dispatch ----------------------------------------------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the handler a message's type names, by Channels' documented rule ("a.b"
        calls ``a_b``). Channels' own ``dispatch`` first closes stale database
        connections on its sync thread, a hop to a thread for every frame and every
        group message; these sockets never touch the database on the event loop, and
        every call on the database threads closes stale connections after itself
        (``games.threads``), so the hop would only cost (about a sixth of a saturated
        process's CPU, docs/performance.md)."""
        name = message["type"].replace(".", "_")
        handler = None if name.startswith("_") else getattr(self, name, None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # --- opening and closing -----------------------------------------------------------

    async def connect(self) -> None:
        self.member, self.session_key = None, None
        self.language = self._language()
        self.rate = RateWindow(*settings.SOCKET_RATE)
        self.seen = timing.now()
        await self.accept()
        table = self.scope["url_route"]["kwargs"].get("match_id")
        if table is not None:
            timers.socket_opened(table)  # the table's timers here live while it has sockets
        refresh = self._refresh_at_open()
        # A socket with a session opens before anything else; a crowd of cookie-less
        # sockets opens with the housekeeping, never ahead of the members' actions.
        session = self.scope.get("session")
        urgent = bool(session is not None and session.session_key)
        try:
            opening = await threads.run_unbounded(self._open, refresh, urgent=urgent)
        except TableError as failure:
            if table is not None:
                timers.socket_closed(table)
            await self._refuse(failure)
            return
        if table is None and self.table_id is not None:  # a private table, by its token
            timers.socket_opened(self.table_id)
        self.opened_ok = True
        if self.member is not None:
            await self.channel_layer.group_add(
                member_events.member_group(self.member.pk), self.channel_name
            )
            if self.session_key:
                await self.channel_layer.group_add(
                    member_events.session_group(self.session_key), self.channel_name
                )
        await self.opened(opening)
        await events.flush(opening.box)
        if self.table_id is not None and not refresh:
            timers.presence_changed(self.table_id)  # later, with the others

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
        """Everything a socket reads as it opens, in one call on a database thread: the
        member's standing (a banned member is turned away), the page's own reads
        (``_find``, ``_first``), and the socket counted."""
        now = timing.now()
        self._identify(now)
        self._find()
        seat = services.socket_open(
            channel_name=self.channel_name,
            member=self.member,
            match_id=self.table_id,
            now=now,
            client=(self.scope.get("client") or (None,))[0],
        )
        if self.member is None:  # a visitor's budget of messages is smaller
            self.rate = RateWindow(*settings.VISITOR_SOCKET_RATE)
        with events.capture() as box:
            if refresh:
                services.presence_refresh(match_id=self.table_id, now=now)
        return Opening(seat, box, self._first(seat, box))

    def _identify(self, now) -> None:
        """The member Channels' ``AuthMiddleware`` found for the session (an expired
        session, a changed password or a deactivated account give none); a banned member
        is turned away."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            if user.is_banned(now):
                raise Revoked(member_events.CLOSE_BANNED)
            # The member itself, not Channels' lazy wrapper: every attribute read of a
            # wrapper is a call (``LazyObject``'s copy protocol hands back the object).
            self.member = copy.copy(user)
            self.session_key = self.scope["session"].session_key
            self.password = user.password  # what each action checks the member still has
            self.language = self._language()

    def _find(self) -> None:
        """Find what the socket serves (``table_id``); ``TableError`` if it does not exist."""

    def _first(self, seat: int | None, box: events.Outbox) -> Any:
        """What the page's socket sends first (read with the opening)."""
        return None

    async def opened(self, opening: Opening) -> None:
        """Called once the socket counts as present."""

    async def disconnect(self, code: int) -> None:
        if not self.opened_ok:
            return
        if self.member is not None:
            await self.channel_layer.group_discard(
                member_events.member_group(self.member.pk), self.channel_name
            )
            if self.session_key:
                await self.channel_layer.group_discard(
                    member_events.session_group(self.session_key), self.channel_name
                )
        try:
            await threads.run_unbounded(
                services.socket_close, channel_name=self.channel_name, now=timing.now()
            )
        except Exception:  # presence expires by itself; nothing else depends on this
            logger.exception("closing socket %s", self.channel_name)
        if self.table_id is not None:
            timers.presence_changed(self.table_id)
            timers.socket_closed(self.table_id)

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
        if self.member is None or not self.session_key:
            return
        password = await threads.run_unbounded(self._standing)
        if password is None:
            await self.close(code=member_events.CLOSE_SESSION_ENDED)
        else:
            self.password = password

    def _standing(self) -> str | None:
        """The member's password now, if this socket's session still authenticates them
        (as Django checks a request's: the session's hash of the password), else None."""
        from importlib import import_module

        from django.contrib.auth import HASH_SESSION_KEY
        from django.utils.crypto import constant_time_compare

        from accounts.models import User

        member = User.objects.filter(pk=self.member.pk, is_active=True).first()
        session = import_module(settings.SESSION_ENGINE).SessionStore(self.session_key)
        kept = session.get(HASH_SESSION_KEY)
        if member is None or not kept:
            return None
        if not constant_time_compare(kept, member.get_session_auth_hash()):
            return None
        return member.password

    async def socket_close(self, event: dict[str, Any]) -> None:
        """The member was banned, deleted their account or logged out (accounts.events)."""
        await self.close(code=event["code"])

    # --- messages ---------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        received_at = timing.now()  # a move's stamp for the clock
        moment = time.monotonic()
        try:
            message = protocol.parse(text_data, bytes_data)
            if self.rate.full(moment):
                raise TableError("rate_limited", _("Slow down: too many messages in a short time."))
            counts = await self.handle(message, received_at)
            if counts:
                self.rate.add(moment)
        except Revoked as revoked:
            await self.close(code=revoked.close_code)
        except TableError as failure:
            self.rate.add(moment)
            await self.send_error(failure.code, failure.message)
        except Exception:
            # The frame is not logged: it is the sender's, of any size and content.
            logger.exception(
                "socket %s: a message of %s characters", self.channel_name, len(text_data or "")
            )
            await self.send_error("internal", _("Something went wrong on the server."))

    async def send_error(self, code: str, message) -> None:
        """An error for this socket, in its language (messages are translated only here)."""
        with translation.override(self.language):
            await self.send_json(protocol.error(code, message))

    async def handle(self, message: protocol.Message, received_at) -> bool:
        """Handle a parsed message; return False when it must not count against the rate
        limit (a move accepted in turn)."""
        raise TableError("not_allowed", _("That is not possible here or now."))

    async def act(self, function: Callable[..., Any] | None, **kwargs: Any) -> Any:
        """Run a service on a database thread and send what it caused once it committed.
        The service re-reads the member's standing with the rows it locks (the socket's
        session is passed on), so a ban or a logout a moment ago already counts."""
        now = timing.now()
        touch = (now - self.seen).total_seconds() > settings.PRESENCE_EXPIRY_SECONDS / 3
        if touch:
            self.seen = now
        if function is None:  # a sync or a ping: at most the presence, as housekeeping
            if touch:
                await threads.run_unbounded(
                    services.socket_seen, channel_name=self.channel_name, now=now
                )
            return None
        if self.member is not None:
            kwargs["session_key"] = self.session_key or ""
            kwargs["password"] = self.password
        result, box, refused = await threads.run(self._act, function, kwargs, touch)
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
