"""Reads of tables: the public state every socket gets, each player's own part, chat."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from games.engine import Position
from games.engine.clock import Clock
from games.engine.match import MatchState
from games.models import SEAT_LETTERS, ChatMessage, Game, Match, Seat

CHAT_HISTORY = 100


def _letters(seats) -> list[str]:
    return [SEAT_LETTERS[s] for s in seats]


def match_for_table(match_id: int) -> Match | None:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("member"))
    games = Prefetch("games", queryset=Game.objects.prefetch_related("moves"))
    return Match.objects.prefetch_related(seats, games).filter(pk=match_id).first()


def table_state(match_id: int, *, now: datetime | None = None) -> dict[str, Any] | None:
    """The public state of a table (SPEC §7 ``state`` without ``you``)."""
    match = match_for_table(match_id)
    if match is None:
        return None
    return build_table_state(match, now=now or timezone.now())


def build_table_state(match: Match, *, now: datetime) -> dict[str, Any]:
    state = MatchState.from_dict(match.state)
    game = state.current
    position = game.position
    out = set(state.out) | set(position.out)
    seats = [
        {
            "seat": seat.letter,
            "username": seat.member.username if seat.member_id else None,
            "rating": seat.rating,
            "connected": seat.connections > 0,
            "out": seat.seat in out,
        }
        for seat in match.seats.all()
    ]
    result = None
    if state.reason is not None:
        result = {"winners": _letters(state.winners), "reason": state.reason}
    rows = {g.number: g for g in match.games.all()}
    clock = None
    if match.clock_state:
        c = Clock.from_dict(match.clock_state)
        at = int(now.timestamp() * 1000)
        clock = {
            "remaining_ms": [c.remaining(s, at) for s in range(position.seats)],
            "increment_ms": c.increment_ms,
            "running": None if c.running is None else SEAT_LETTERS[c.running],
        }
    rematch_offer = None
    if match.rematch_offered_at and not match.rematch_id:
        rematch_offer = {
            "seats": _letters(match.rematch_accepted),
            "expires_at": (match.rematch_offered_at.timestamp() + 60) * 1000,
        }
    return {
        "type": "state",
        "version": match.version,
        "match": {
            "id": match.pk,
            "variant": match.variant,
            "rated": match.rated,
            "format": match.format,
            "clock": match.clock or None,
            "status": match.status,
            "seats": seats,
            "points": list(state.points),
            "totals": list(state.totals),
            "result": result,
            "rematch": match.rematch_id,
            "rematch_offer": rematch_offer,
            "ready": _letters(sorted(state.ready)),
            "spectators": match.spectators,
        },
        "game": {
            "number": game.number,
            "ply": game.ply,
            "to_move": SEAT_LETTERS[position.to_move],
            "position": position.to_text(),
            "scores": list(position.scores),
            "needed_to_win": position.needed_to_win,
            "figures": [
                {
                    "seats": _letters(f.seats),
                    "score": f.score,
                    "potential": f.potential,
                    "to_equator": f.to_equator,
                    "lead": f.lead,
                }
                for f in position.side_figures()
            ],
            "over": game.over,
            "winners": _letters(game.winners),
            "reason": game.reason,
        },
        "games": [
            {
                "number": g.number,
                "scores": list(g.side_scores_by_seat()),
                "winners": _letters(g.winners),
                "reason": g.reason,
                "moves": _moves(rows.get(g.number)),
            }
            for g in state.games
        ],
        "clock": clock,
    }


def _moves(row: Game | None) -> list[dict[str, Any]]:
    if row is None:
        return []
    return [
        {
            "ply": move.ply,
            "seat": SEAT_LETTERS[move.seat],
            "color": "swap" if move.color is None else move.color,
            "gained": move.gained,
        }
        for move in row.moves.all()
    ]


def table_you(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A player's own part of the state: legal colours with reasons, and previews when it
    is their turn. Spectators get ``seat: null`` and nothing else."""
    if seat is None:
        return {"seat": None, "legal": {}, "previews": {}, "can_swap": False}
    position = Position.from_text(state["game"]["position"])
    legal = position.legal_colors(seat)
    previews: dict[str, list[int]] = {}
    playing = state["match"]["status"] == Match.Status.PLAYING and not state["game"]["over"]
    if playing and position.to_move == seat:
        previews = {
            str(colour): sorted(position.preview(colour))
            for colour, reason in legal.items()
            if reason is None
        }
    return {
        "seat": SEAT_LETTERS[seat],
        "legal": {str(colour): reason for colour, reason in legal.items()},
        "previews": previews,
        "can_swap": bool(playing and position.to_move == seat and position.can_swap),
    }


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
    """Tables being played now, newest first, for the lobby."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("member"))
    active = [Match.Status.PLAYING, Match.Status.BETWEEN_GAMES]
    return list(Match.objects.filter(status__in=active).prefetch_related(seats)[:limit])


def recent_matches_of(member, limit: int = 20) -> list[Match]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("member"))
    return list(
        Match.objects.filter(seats__member=member)
        .prefetch_related(seats)
        .order_by("-created_at")[:limit]
    )
