"""The NDJSON streams of the bot API (SPEC §15, docs/bot-api.md): ``GET /api/stream/event``
and ``GET /api/bot/match/<id>/stream``, one JSON object a line, an empty line at least
every ``BOT_KEEPALIVE_SECONDS``.

A stream is an async iterator that Django serves under ASGI (Daphne): it holds no thread
while it waits. It hears the groups the table's sockets and the member's notices already
use (``games.events``: ``table-<id>``, ``member-<id>``), plus its token's group
(``accounts.events.token_group``), through a channel of the channel layer read into a
bounded queue (``Feed``). Nothing is sent twice for it: the services send what they sent
before. Messages are notifications only: the match stream sends the state a message
carries when its ``version`` follows the one sent last, and reads the state afresh when
it sees a gap; the event stream compares the database with what it has told.

Which streams are open is the database's ``Presence`` rows (``api``), opened and closed as
the table's sockets open and close theirs: a bot's seat is present while its match stream
is, and the presence rules (abandonment, deserted tables) apply when it is gone. One event
stream per token: a new one sends ``stream.replace`` to the token's group and the older
ends. A revoked token (``stream.end``), a ban or a deleted account (``socket.close`` to the
member's group) ends the token's streams at once; each stream also checks its token at
every keep-alive, so a lost message still ends it within seconds. A stream whose reader
falls more than ``BOT_STREAM_BACKLOG`` messages behind is ended (its client connects
again and reads the state afresh).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt

from accounts import events as member_events
from accounts.errors import Refusal
from accounts.models import ApiToken
from accounts.selectors import blocked_ids
from accounts.services import token_still_valid
from games import events, selectors, services, state, timing
from games.access import seat_of, seats_for
from games.consumers import refresh_captured
from games.models import Challenge, Match
from lobby import selectors as lobby_selectors
from lobby.api_access import (
    api_error,
    authenticate,
    member_language,
    pooled,
    refusal_response,
)

logger = logging.getLogger(__name__)

KEEP_ALIVE = b"\n"
ENDED = (Match.Status.FINISHED, Match.Status.ABORTED)
#: messages that end a stream: a ban or a deleted account (the member's group), a revoked
#: token (the token's group)
CLOSING = ("socket.close", "stream.end")
#: how often an event stream compares the database with what it told, should the channel
#: layer have lost a notice (each notice makes it compare at once)
RESYNC_SECONDS = 30
#: how far back from its last look an event stream asks which of its bot's challenges ended
SENT_ENDED_MARGIN = timedelta(seconds=5)


class Behind(Exception):
    """The stream's reader fell ``BOT_STREAM_BACKLOG`` messages behind."""


def line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


class Feed:
    """A channel of the channel layer in some groups, read into a bounded queue by a task
    of its own, so a message is taken off the layer at once whatever the stream does."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=settings.BOT_STREAM_BACKLOG)
        self.behind = False
        self.groups: set[str] = set()
        self.layer = get_channel_layer()
        self.channel = ""
        self.pump: asyncio.Future | None = None

    async def open(self, groups) -> None:
        self.channel = await self.layer.new_channel()
        self.pump = asyncio.ensure_future(self._pump())
        for group in groups:
            await self.join(group)

    async def join(self, group: str) -> None:
        if group not in self.groups:
            self.groups.add(group)
            await self.layer.group_add(group, self.channel)

    async def leave(self, group: str) -> None:
        if group in self.groups:
            self.groups.discard(group)
            await self.layer.group_discard(group, self.channel)

    async def _pump(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            try:
                self.queue.put_nowait(message)
            except asyncio.QueueFull:
                self.behind = True
                return

    async def next(self, timeout: float) -> dict | None:
        """The next message, or None after ``timeout`` seconds without one."""
        if self.behind:
            raise Behind
        try:
            return await asyncio.wait_for(self.queue.get(), max(0.0, timeout))
        except TimeoutError:
            return None

    async def close(self) -> None:
        if self.pump is not None:
            self.pump.cancel()  # the layer forgets the channel when its receive is cancelled
            with contextlib.suppress(BaseException):
                await self.pump
        for group in list(self.groups):
            with contextlib.suppress(Exception):
                await self.leave(group)


class Stream:
    """What both streams share: the token, the presence row, the feed, the keep-alive and
    the check of the token at each."""

    def __init__(self, token: ApiToken, presence: str, match_id: int | None) -> None:
        self.token = token
        self.member = token.member
        self.presence = presence
        self.match_id = match_id
        self.feed = Feed()
        self.written = time.monotonic()
        # Spread over the interval: streams opened together (a process starting, a program
        # connecting its bots) must not all check at the same moment.
        self.checked = self.written - random.uniform(0, settings.BOT_KEEPALIVE_SECONDS)
        self.touched = self.written

    @property
    def keepalive(self) -> float:
        return settings.BOT_KEEPALIVE_SECONDS

    async def open(self, groups) -> None:
        await self.feed.open(
            [
                member_events.member_group(self.member.pk),
                member_events.token_group(self.token.pk),
                *groups,
            ]
        )

    async def close(self) -> None:
        await self.feed.close()
        try:
            await pooled(services.socket_close)(channel_name=self.presence, now=timing.now())
            if self.match_id is not None:  # the seat is absent now (at once, not in 45 s)
                await events.flush(await pooled(refresh_captured)(self.match_id))
        except Exception:  # presence expires by itself; nothing else depends on this
            logger.exception("closing stream %s", self.presence)

    async def next(self) -> dict | None:
        """The next message, or None when a keep-alive may be due: then the token has been
        checked and the presence kept (``Ended`` if the stream may not go on). Messages
        that write nothing (another table's moves on the event stream) never hold the
        keep-alive back."""
        remaining = min(self.written, self.checked) + self.keepalive - time.monotonic()
        message = await self.feed.next(remaining) if remaining > 0 else None
        if message is None:
            await self.check()
        return message

    def wrote(self) -> None:
        self.written = time.monotonic()

    async def check(self) -> None:
        """The token and its member may still stream (else ``Ended``); the presence is
        kept (at most every third of its expiry, as sockets do)."""
        self.checked = time.monotonic()
        touch = self.checked - self.touched > settings.PRESENCE_EXPIRY_SECONDS / 3
        if touch:
            self.touched = self.checked
        valid = await pooled(_still_on)(self.token.pk, self.presence, touch)
        if not valid:
            raise Ended

    def closing(self, message: dict) -> bool:
        return message["type"] in CLOSING

    def keep_alive_due(self) -> bool:
        # A little early rather than late: the check before it took some time.
        return time.monotonic() - self.written >= self.keepalive - 0.5


class Ended(Exception):
    """The stream may not go on (its token was revoked, its member banned)."""


def _still_on(token_id: int, presence: str, touch: bool) -> bool:
    now = timing.now()
    if touch:
        services.socket_seen(channel_name=presence, now=now)
    return token_still_valid(token_id=token_id, now=now)


def _presence_key() -> str:
    """The stream's ``Presence`` row's key (a channel name's place: unique, never sent to)."""
    return f"api-stream.{uuid.uuid4().hex}"


def _streaming(lines: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each line on at once
    return response


async def _authenticated(request: HttpRequest) -> ApiToken | HttpResponse:
    """The token of a stream's request (scope ``bot:play``, a bot account), or the
    refusal to answer."""
    if request.method != "GET":
        with translation.override(member_language(request)):
            response = api_error("method", _("Use %(methods)s here.") % {"methods": "GET"})
        response["Allow"] = "GET"
        return response
    try:
        return await pooled(authenticate)(request, scope=ApiToken.Scope.BOT_PLAY, bot=True)
    except Refusal as refusal:
        return refusal_response(request, refusal)


# --- the event stream ------------------------------------------------------------------


@csrf_exempt  # a POST is answered 405 as JSON, not with the CSRF page
async def event_stream(request: HttpRequest) -> HttpResponse:
    """``GET /api/stream/event``: the bot's matches starting and finishing, and the
    challenges to it (docs/bot-api.md)."""
    token = await _authenticated(request)
    if isinstance(token, HttpResponse):
        return token
    presence = _presence_key()
    try:
        await pooled(services.socket_open)(
            channel_name=presence, member=token.member, match_id=None, now=timing.now(), api=True
        )
    except Refusal as refusal:
        return refusal_response(request, refusal, token.member)
    return _streaming(_event_lines(Stream(token, presence, None)))


class Told:
    """What an event stream has told its bot, to compare with the database."""

    def __init__(self) -> None:
        self.received: dict[int, dict] = {}
        self.in_play: set[int] = set()
        self.read_at = time.monotonic()  # when the database was last compared
        # The bot's own challenges that ended since the last look are told, from the
        # stream's opening on: later from a little before the last look (the process
        # that ends one stamps it by its own clock, and may commit after this stream
        # looked), those told then being left out.
        self.since = timing.now()
        self.sent_ended: set[int] = set()  # those told in the last look


async def _event_lines(stream: Stream) -> AsyncIterator[bytes]:
    opened = (time.time_ns(), "")
    told = Told()
    try:
        await stream.open([])
        opened = (opened[0], stream.feed.channel)
        # Any older event stream of this token ends (SPEC: one per token).
        await stream.feed.layer.group_send(
            member_events.token_group(stream.token.pk),
            {"type": "stream.replace", "opened": opened[0], "channel": opened[1]},
        )
        changes = await _event_changes(stream, told)
        for data in changes:
            yield line(data)
        if not changes:
            # The response starts with its first line: without one now, the program would
            # wait for the first keep-alive to know it is connected.
            yield KEEP_ALIVE
        stream.wrote()
        while True:
            message = await stream.next()
            if message is None:
                if time.monotonic() - told.read_at >= RESYNC_SECONDS:
                    changes = await _event_changes(stream, told)  # the net under the layer
                    for data in changes:
                        yield line(data)
                    if changes:
                        stream.wrote()
                if stream.keep_alive_due():
                    yield KEEP_ALIVE
                    stream.wrote()
                continue
            kind = message["type"]
            if stream.closing(message):
                return
            if kind == "stream.replace":
                if (message["opened"], message["channel"]) > opened:
                    return  # a newer event stream of this token took over
                continue
            if kind == "socket.standing":
                await stream.check()
                continue
            if kind == "table.state":
                if message["status"] in ENDED and message["match"] in told.in_play:
                    told.in_play.discard(message["match"])
                    await stream.feed.leave(events.table_group(message["match"]))
                    yield line({"type": "matchFinish", "match": {"id": message["match"]}})
                    stream.wrote()
                continue
            if kind == "member.notify":
                changes = await _event_changes(stream, told)
                for data in changes:
                    yield line(data)
                if changes:
                    stream.wrote()
    except (Ended, Behind):
        return
    finally:
        await stream.close()


async def _event_changes(stream: Stream, told: Told) -> list[dict]:
    """What changed since the stream last told its bot, read from the database: matches
    started and finished, challenges received, cancelled, declined."""
    now = timing.now()
    told.read_at = time.monotonic()
    found = await pooled(lobby_selectors.bot_events)(stream.member.pk, now, since=told.since)
    out: list[dict] = []
    for match_id in sorted(found.in_play - told.in_play):
        told.in_play.add(match_id)
        await stream.feed.join(events.table_group(match_id))
        out.append({"type": "matchStart", "match": {"id": match_id}})
    for match_id in sorted(told.in_play - found.in_play):
        told.in_play.discard(match_id)
        await stream.feed.leave(events.table_group(match_id))
        out.append({"type": "matchFinish", "match": {"id": match_id}})
    for challenge_id, public in found.received.items():
        if challenge_id not in told.received:
            told.received[challenge_id] = public
            out.append({"type": "challenge", "challenge": public})
    gone = [c for c in told.received if c not in found.received]
    statuses = await pooled(lobby_selectors.challenge_statuses)(gone) if gone else {}
    ended = [(c, statuses.get(c, Challenge.Status.CANCELLED)) for c in gone]
    ended += [(c, s) for c, s in found.sent_ended.items() if c not in told.sent_ended]
    told.since, told.sent_ended = now - SENT_ENDED_MARGIN, set(found.sent_ended)
    for challenge_id, status in ended:
        told.received.pop(challenge_id, None)
        if status == Challenge.Status.DECLINED:
            out.append({"type": "challengeDeclined", "challenge": {"id": challenge_id}})
        elif status != Challenge.Status.ACCEPTED:
            out.append({"type": "challengeCanceled", "challenge": {"id": challenge_id}})
    return out


# --- the match stream ------------------------------------------------------------------


@csrf_exempt
async def match_stream(request: HttpRequest, match_id: int) -> HttpResponse:
    """``GET /api/bot/match/<id>/stream``: the bot's own match, first whole
    (``matchFull``), then at every new version (``matchState``), with the chat."""
    token = await _authenticated(request)
    if isinstance(token, HttpResponse):
        return token
    presence = _presence_key()
    try:
        seat = await pooled(_seat_opened)(token, match_id, presence)
    except Refusal as refusal:
        return refusal_response(request, refusal, token.member)
    return _streaming(_match_lines(Stream(token, presence, match_id), seat))


def _seat_opened(token: ApiToken, match_id: int, presence: str) -> int:
    """The bot's seat at the match (``not_found``, ``not_a_player`` otherwise), and its
    stream counted as the seat's presence."""
    seats = seats_for(match_id)
    started = Match.objects.filter(pk=match_id).exclude(status=Match.Status.WAITING)
    if not seats or not started.exists():
        raise Refusal("not_found", _("This table does not exist."))
    seat = seat_of(seats, token.member)
    if seat is None:
        raise Refusal("not_a_player", _("You are not playing at this table."))
    services.socket_open(
        channel_name=presence, member=token.member, match_id=match_id, now=timing.now(), api=True
    )
    return seat


async def _match_lines(stream: Stream, seat: int) -> AsyncIterator[bytes]:
    match_id = stream.match_id
    version = -1
    hidden: frozenset[int] | None = None
    try:
        await stream.open([events.table_group(match_id)])
        # Present now: the seat shows connected (a new version, heard below).
        await events.flush(await pooled(refresh_captured)(match_id))
        event = await pooled(selectors.table_event)(match_id)
        if event is None:
            return
        version = event["version"]
        yield state.personal(event, seat, kind="matchFull").encode() + b"\n"
        stream.wrote()
        if event["status"] in ENDED:
            return
        while True:
            message = await stream.next()
            if message is None:
                if stream.keep_alive_due():
                    yield KEEP_ALIVE
                    stream.wrote()
                continue
            kind = message["type"]
            if stream.closing(message):
                return
            if kind == "socket.standing":
                await stream.check()
            elif kind == "table.state":
                if message["version"] <= version:
                    continue  # an older or repeated notification
                if message["version"] > version + 1:  # a gap: the state read afresh
                    message = await pooled(selectors.table_event)(match_id)
                    if message is None:
                        return
                    if message["version"] <= version:
                        continue  # the database has nothing newer than what was sent
                version = message["version"]
                yield state.personal(message, seat, kind="matchState").encode() + b"\n"
                stream.wrote()
                if message["status"] in ENDED:
                    return
            elif kind == "table.chat":
                if message["audience"] == "spectators":
                    continue  # no coaching: players never see spectators' chat
                if hidden is None:
                    hidden = frozenset(await pooled(blocked_ids)(stream.member.pk))
                if message["author"] in hidden:
                    continue
                said = message["message"]
                yield line({"type": "chatLine", "username": said["username"], "text": said["text"]})
                stream.wrote()
    except (Ended, Behind):
        return
    finally:
        await stream.close()
