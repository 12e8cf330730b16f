"""Who may do what at a table: the few functions every service and view asks."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import TableError
from games.models import Match, Seat
from games.state import SeatRow

SEAT_COLUMNS = ("seat", "member_id", "member__username", "rating", "connected", "absent_since")


def seats_for(match_id: int) -> list[SeatRow]:
    """The seats of a match in letter order: one query, no whole member rows."""
    rows = Seat.objects.filter(match_id=match_id).order_by("seat").values_list(*SEAT_COLUMNS)
    return [SeatRow(*row) for row in rows]


def seat_of(seats: list[SeatRow], user: Any) -> int | None:
    """The seat index of ``user`` among ``seats``, or None for spectators and visitors."""
    if user is None or not user.is_authenticated:
        return None
    for row in seats:
        if row.member_id == user.pk:
            return row.seat
    return None


def player_seat_or_error(seats: list[SeatRow], user: Any) -> int:
    """The seat of a player who may act at this table; raises ``not_a_player`` otherwise."""
    if user is None or not user.is_authenticated:
        raise TableError("not_a_player", _("Log in and take a seat to play."))
    seat = seat_of(seats, user)
    if seat is None:
        raise TableError("not_a_player", _("You are not playing at this table."))
    return seat


def can_moderate(user: Any) -> bool:
    return bool(
        user is not None and user.is_authenticated and user.has_perm("games.delete_chatmessage")
    )


def locked_match(match_id: int) -> Match:
    """The match row locked for the rest of the transaction (every change takes it). The
    seats are read apart (``seats_for``), without their members' rows."""
    match = Match.objects.select_for_update().defer("board").filter(pk=match_id).first()
    if match is None:
        raise TableError("not_found", _("This table does not exist."))
    return match
