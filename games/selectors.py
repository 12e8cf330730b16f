"""Reads of tables: the public state every socket gets, chat, the lists of matches."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Prefetch

from games import state, timing
from games.access import seats_for
from games.engine.match import MatchState
from games.models import ChatMessage, Match, Seat

CHAT_HISTORY = 100


def match_for_table(match_id: int) -> Match | None:
    return Match.objects.filter(pk=match_id).defer("board").first()


def table_match(*, match_id: int | None = None, token: str | None = None) -> Match | None:
    """The match behind a table page or socket: a public one by id, any by its token (a
    private table is never found by id)."""
    if token is not None:
        return Match.objects.filter(token=token).first()
    return Match.objects.filter(pk=match_id, private=False).first()


def table_id(*, match_id: int | None = None, token: str | None = None) -> int | None:
    match = table_match(match_id=match_id, token=token)
    return None if match is None else match.pk


def waiting_seats(match: Match) -> list[Seat]:
    """The members seated at a waiting table, in the order they came."""
    return list(match.seats.select_related("member").order_by("joined_at", "pk"))


def table_state(match_id: int, *, now: datetime | None = None) -> dict[str, Any] | None:
    """The public state of a table (SPEC §7 ``state`` without ``you``): two queries, the
    match and its seats, and the same message a change sends."""
    match = match_for_table(match_id)
    if match is None or not match.state:
        return None
    engine_state = MatchState.from_dict(match.state)
    return state.build(match, engine_state, seats_for(match_id), now=now or timing.now())


def table_event(match_id: int, *, now: datetime | None = None) -> dict[str, Any] | None:
    """The state as the group event a change sends (``state.encode``), for a socket that
    connects or asks for ``sync``."""
    match = match_for_table(match_id)
    if match is None or not match.state:
        return None
    engine_state = MatchState.from_dict(match.state)
    message = state.build(match, engine_state, seats_for(match_id), now=now or timing.now())
    return state.encode(message, engine_state.current.position, deadline=match.deadline)


def chat_payload(message: ChatMessage) -> dict[str, Any]:
    return {
        "type": "chat",
        "id": message.pk,
        "username": message.author.username if message.author_id else None,
        "text": message.text,
        "at": message.created_at.isoformat(),
        "spectators_only": message.audience == ChatMessage.Audience.SPECTATORS,
    }


def chat_history(match_id: int, *, player: bool) -> list[dict[str, Any]]:
    """The latest messages a socket may see (players never see spectators-only chat)."""
    messages = ChatMessage.objects.filter(match_id=match_id).select_related("author")
    if player:
        messages = messages.exclude(audience=ChatMessage.Audience.SPECTATORS)
    latest = list(messages.order_by("-created_at", "-pk")[:CHAT_HISTORY])
    return [chat_payload(m) for m in reversed(latest)]


def live_matches(limit: int = 50) -> list[Match]:
    """Public tables being played now, newest first, for the lobby."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("member"))
    active = [Match.Status.PLAYING, Match.Status.BETWEEN_GAMES]
    return list(
        Match.objects.filter(status__in=active, private=False).prefetch_related(seats)[:limit]
    )


def recent_matches_of(member, limit: int = 20) -> list[Match]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("member"))
    return list(
        Match.objects.filter(seats__member=member)
        .prefetch_related(seats)
        .order_by("-created_at")[:limit]
    )
