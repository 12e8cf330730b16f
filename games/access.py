"""Who may do what at a table: the few functions every service and view asks."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts import events as member_events
from games import store
from games.errors import Revoked, TableError
from games.models import Match, Seat
from games.state import SeatRow


def seats_for(
    match_id: int,
    *,
    session_key: str | None = None,
    now: datetime | None = None,
    password: str | None = None,
) -> list[SeatRow]:
    """The seats of a match in letter order: one query, no whole member rows. With
    ``session_key`` each row also says whether that session is still valid (and, with
    ``password``, whether the member's password and active flag are still what the socket
    opened with), so a player's standing is read with the seats, not by a query of its
    own."""
    return store.seats_read(match_id, session_key=session_key, now=now, password=password)


def seat_of(seats: list[SeatRow], user: Any) -> int | None:
    """The seat index of ``user`` among ``seats``, or None for spectators and visitors."""
    if user is None or not user.is_authenticated:
        return None
    for row in seats:
        if row.member_id == user.pk:
            return row.seat
    return None


def player_seat_or_error(seats: list[SeatRow], user: Any, *, now: datetime | None = None) -> int:
    """The seat of a player who may act at this table now; raises ``not_a_player``
    otherwise, and ``Revoked`` for a banned member or a session that ended (read with the
    seats by ``seats_for``)."""
    if user is None or not user.is_authenticated:
        raise TableError("not_a_player", _("Log in and take a seat to play."))
    row = next((row for row in seats if row.member_id == user.pk), None)
    if row is None:
        raise TableError("not_a_player", _("You are not playing at this table."))
    if not row.session_ok:
        raise Revoked(member_events.CLOSE_SESSION_ENDED)
    if now is not None and row.banned(now):
        raise Revoked(member_events.CLOSE_BANNED)
    return row.seat


def can_moderate(user: Any) -> bool:
    return bool(
        user is not None and user.is_authenticated and user.has_perm("games.delete_chatmessage")
    )


def locked_table(
    match_id: int,
    *,
    session_key: str | None = None,
    now: datetime | None = None,
    password: str | None = None,
) -> tuple[Match, list[SeatRow]]:
    """``locked_match`` and ``seats_for`` together (one statement on PostgreSQL)."""
    match, seats = store.table_locked(match_id, session_key=session_key, now=now, password=password)
    if match is None:
        raise TableError("not_found", _("This table does not exist."))
    return match, seats


def locked_match(match_id: int) -> Match:
    """The match row locked for the rest of the transaction (every change takes it). The
    seats are read apart (``seats_for``), without their members' rows."""
    match = store.match_read(match_id, lock=True)
    if match is None:
        raise TableError("not_found", _("This table does not exist."))
    return match


def rated_pairs_full(member_ids: list[int], *, now: datetime) -> bool:
    """Whether two of these members have played ``RATED_MATCHES_PER_PAIR`` rated matches
    together in the last 24 hours (SPEC hardening: ratings cannot be farmed between two
    accounts): a match between them now is unrated."""
    people = sorted({m for m in member_ids if m is not None})
    if len(people) < 2:
        return False
    since = now - timedelta(hours=24)
    seats = (
        Seat.objects.filter(member_id__in=people, match__rated=True, match__started_at__gte=since)
        .exclude(match__status=Match.Status.ABORTED)
        .values_list("match_id", "member_id")
    )
    who: dict[int, list[int]] = {}
    for match_id, member_id in seats:  # one query: each recent rated match's people
        who.setdefault(match_id, []).append(member_id)
    together = Counter(
        pair for members in who.values() for pair in combinations(sorted(members), 2)
    )
    return any(count >= settings.RATED_MATCHES_PER_PAIR for count in together.values())
