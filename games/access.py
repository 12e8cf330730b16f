"""Who may do what at a table: the few functions every service and view asks.

A change at a table locks the match row first (``locked_table``): whoever holds the lock
decides, and everyone else waits for it, whatever process they run in.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts import events as member_events
from games.errors import Revoked, TableError
from games.models import Match, Seat
from games.state import SeatRow

# A seat's columns as ``SeatRow`` takes them, its member's name and ban joined.
SEAT_COLUMNS = (
    "seat",
    "member_id",
    "member__username",
    "rating",
    "connected",
    "absent_since",
    "member__banned_at",
    "member__banned_until",
    "bot_level",
    "member__is_bot",
)


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


def player_seat_or_error(seats: list[SeatRow], user: Any, *, now: datetime | None = None) -> int:
    """The seat of a player who may act at this table now; raises ``not_a_player``
    otherwise, and ``Revoked`` for a member banned by ``now`` (read with the seats)."""
    if user is None or not user.is_authenticated:
        raise TableError("not_a_player", _("Log in and take a seat to play."))
    row = next((row for row in seats if row.member_id == user.pk), None)
    if row is None:
        raise TableError("not_a_player", _("You are not playing at this table."))
    if now is not None and row.banned(now):
        raise Revoked(member_events.CLOSE_BANNED)
    return row.seat


def can_moderate(user: Any) -> bool:
    return bool(
        user is not None and user.is_authenticated and user.has_perm("games.delete_chatmessage")
    )


def locked_table(match_id: int) -> tuple[Match, list[SeatRow]]:
    """``locked_match`` and ``seats_for`` together: the seats are read after the lock, so
    they are as the lock's previous holder committed them."""
    match = locked_match(match_id)
    return match, seats_for(match_id)


def locked_match(match_id: int) -> Match:
    """The match row locked for the rest of the transaction (every change takes it), all
    but its board (game 1's start, read only when a match is created)."""
    try:
        return Match.objects.select_for_update().defer("board").get(pk=match_id)
    except Match.DoesNotExist:
        raise TableError("not_found", _("This table does not exist.")) from None


def rated_pairs_full(
    member_ids, *, now: datetime, at_limit: set[frozenset[int]] | None = None
) -> bool:
    """Whether two of these members have played ``RATED_MATCHES_PER_PAIR`` rated matches
    together in the last 24 hours (SPEC hardening: ratings cannot be farmed between two
    accounts): a rated table of theirs starts unrated. What decides when a match starts
    (``seating.match_create``) and what a member is told before (the lobby's "Unrated
    for you", the waiting page, a member's page).

    ``at_limit``: ``rated_pairs_at_limit`` of any members among whom these are, read
    once for many tables (a pair's count does not depend on who else was asked)."""
    members = {m for m in member_ids if m is not None}
    if at_limit is None:
        at_limit = rated_pairs_at_limit(members, now=now)
    return any(pair <= members for pair in at_limit)


def rated_pairs_at_limit(member_ids, *, now: datetime) -> set[frozenset[int]]:
    """The pairs among these members who have played ``RATED_MATCHES_PER_PAIR`` rated
    matches together (arenas' included) in the last 24 hours. One query."""
    people = sorted({m for m in member_ids if m is not None})
    if len(people) < 2:
        return set()
    since = now - timedelta(hours=24)
    seats = (
        Seat.objects.filter(member_id__in=people, match__rated=True, match__started_at__gte=since)
        .exclude(match__status=Match.Status.ABORTED)
        .values_list("match_id", "member_id")
    )
    who: dict[int, list[int]] = {}
    for match_id, member_id in seats:  # each recent rated match's people
        who.setdefault(match_id, []).append(member_id)
    together = Counter(
        pair for members in who.values() for pair in combinations(sorted(members), 2)
    )
    return {
        frozenset(pair)
        for pair, count in together.items()
        if count >= settings.RATED_MATCHES_PER_PAIR
    }
