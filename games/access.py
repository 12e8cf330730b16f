"""Who may do what at a table: the few functions every service and view asks."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from games.errors import TableError
from games.models import Match, Seat


def seat_of(match: Match, user: Any) -> int | None:
    """The seat index of ``user`` at ``match``, or None for spectators and visitors."""
    if user is None or not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.member_id == user.pk:
            return seat.seat
    return None


def player_seat_or_error(match: Match, user: Any) -> int:
    """The seat of a player who may act at this table; raises ``not_a_player`` otherwise."""
    if user is None or not user.is_authenticated:
        raise TableError("not_a_player", "log in and take a seat to play")
    if user.is_banned():
        raise TableError("not_allowed", "your account is banned")
    seat = seat_of(match, user)
    if seat is None:
        raise TableError("not_a_player", "you are not playing at this table")
    return seat


def can_moderate(user: Any) -> bool:
    return bool(
        user is not None and user.is_authenticated and user.has_perm("games.delete_chatmessage")
    )


def locked_match(match_id: int) -> Match:
    """The match row locked for the rest of the transaction (every change takes it)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("member"))
    match = Match.objects.select_for_update().prefetch_related(seats).filter(pk=match_id).first()
    if match is None:
        raise TableError("not_found", "no such table")
    return match
