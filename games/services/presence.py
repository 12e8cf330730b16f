"""Presence: which sockets are open, and so which seats are connected and how many watch;
and whether a player has been shown their table at all (``Seat.shown_at``).

A socket is a ``Presence`` row known by its channel name. It counts while it has sent
something within ``PRESENCE_EXPIRY_SECONDS``: a socket whose process died simply stops
counting. The summary every state carries (a seat's ``connected``, the spectators) is
kept on the seat and match rows by ``presence_refresh``, which consumers call at most
once a second per table and a Celery beat sweep calls for what expired.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import timing
from games.access import locked_table, seat_of, seats_for
from games.errors import TableError
from games.models import Match, Presence, Seat
from games.services.commit import ACTIVE, match_bump


def _horizon(now: datetime) -> datetime:
    return now - timing.seconds("PRESENCE_EXPIRY_SECONDS")


def socket_open(
    *,
    channel_name: str,
    member: User | None,
    match_id: int | None,
    now: datetime,
    client: str | None = None,
    api: bool = False,
) -> int | None:
    """A socket opened (at a table, or on another page when ``match_id`` is None), or a
    program's stream of the API (``api``, SPEC §15: the only presence of a bot account's
    seat; it counts under the member's caps like a socket). Returns
    the member's seat at that table. A member holds at most ``SOCKETS_PER_TABLE`` sockets
    at one table and ``SOCKETS_PER_MEMBER`` in all; a visitor, by their address
    (``client``), ``VISITOR_SOCKETS_PER_TABLE`` and ``VISITOR_SOCKETS``, and a table takes
    at most ``VISITORS_PER_TABLE`` visitors' sockets (``too_many_sockets``)."""
    with transaction.atomic():
        seat = None
        if match_id is not None:
            seats = seats_for(match_id)
            if not seats and not Match.objects.filter(pk=match_id).exists():
                raise TableError("not_found", _("This table does not exist."))
            seat = seat_of(seats, member)
        opening = dict(channel_name=channel_name, match_id=match_id, seat=seat, now=now)
        if member is None or not member.is_authenticated:
            _visitor_caps_check(client, match_id)
            _presence_store(**opening, member_id=None, client=client)
            return seat
        # The member's row locked: their sockets opening together take turns at the caps.
        User.objects.filter(pk=member.pk).update(last_seen=now)
        # Every open socket counts: a silent one is closed by its process (4408), and a
        # dead process's are swept.
        live = Presence.objects.filter(member=member, closed=False)
        counts = live.aggregate(anywhere=Count("pk"), here=Count("pk", filter=Q(match_id=match_id)))
        if counts["anywhere"] >= settings.SOCKETS_PER_MEMBER or (
            match_id is not None and counts["here"] >= settings.SOCKETS_PER_TABLE
        ):
            raise TableError("too_many_sockets", _("You have too many pages open."))
        _presence_store(**opening, member_id=member.pk, api=api)
        if seat is not None:
            _shown(match_id, seat, now)  # a player's socket at their table: they know of it
    return seat


def seat_shown(*, match_id: int, seat: int, now: datetime) -> None:
    """A player was shown their table (its page loaded for them). Kept once, the first
    time: an arena withdraws for a missed first move only a member who was told of the
    match (SPEC §12), and this, or a socket of theirs opened at the table, is how we know."""
    with transaction.atomic():
        _shown(match_id, seat, now)


def _shown(match_id: int, seat: int, now: datetime) -> None:
    Seat.objects.filter(match_id=match_id, seat=seat, shown_at=None).update(shown_at=now)


def _presence_store(
    *,
    channel_name: str,
    member_id: int | None,
    match_id: int | None,
    seat: int | None,
    now: datetime,
    client: str | None = None,
    api: bool = False,
) -> None:
    Presence.objects.create(
        channel_name=channel_name,
        member_id=member_id,
        match_id=match_id,
        seat=seat,
        client=client,
        opened_at=now,
        last_seen=now,
        api=api,
    )


def _visitor_caps_check(client: str | None, match_id: int | None) -> None:
    """Refuse a visitor's socket over its address's caps or the table's (every open
    socket counts, silent or not)."""
    live = Presence.objects.filter(member=None, closed=False)
    mine = live.filter(client=client) if client else live.none()
    counts = mine.aggregate(anywhere=Count("pk"), here=Count("pk", filter=Q(match_id=match_id)))
    full = counts["anywhere"] >= settings.VISITOR_SOCKETS or (
        match_id is not None
        and (
            counts["here"] >= settings.VISITOR_SOCKETS_PER_TABLE
            or live.filter(match_id=match_id).count() >= settings.VISITORS_PER_TABLE
        )
    )
    if full:
        raise TableError("too_many_sockets", _("Too many pages are open here."))


def socket_seen(*, channel_name: str, now: datetime) -> None:
    """The socket sent something: it still counts."""
    Presence.objects.filter(channel_name=channel_name, closed=False).update(last_seen=now)


def socket_close(*, channel_name: str, now: datetime) -> None:
    """The socket closed; the next refresh reads when, and forgets it. The member was
    seen now. Two statements, each its own transaction: the member's ``last_seen`` is
    only shown, and nothing reads the two together."""
    Presence.objects.filter(channel_name=channel_name).update(closed=True, last_seen=now)
    User.objects.filter(presences__channel_name=channel_name).update(last_seen=now)


def presence_refresh(*, match_id: int, now: datetime) -> bool:
    """Recompute who is present at a table from its sockets; when that changed, store it
    with a new version and send the state. Returns whether anything changed."""
    with transaction.atomic():
        try:
            match, seats = locked_table(match_id)
        except TableError:
            return False
        horizon = _horizon(now)
        # Whose each socket is, not the seat it opened at: seats change while a table
        # waits (someone leaves, the match starts in the final order).
        sockets = [
            (member, seen, closed or seen <= horizon, name, api)
            for name, member, seen, closed, api in Presence.objects.filter(
                match_id=match_id
            ).values_list("channel_name", "member_id", "last_seen", "closed", "api")
        ]
        gone = [name for _, _, is_gone, name, _ in sockets if is_gone]
        if gone:  # read once: how long a seat has been left is known from here on
            Presence.objects.filter(channel_name__in=gone).delete()
        changed = False
        players = {row.member_id for row in seats if row.member_id is not None}
        for index, row in enumerate(seats):
            if row.bot_level or row.member_id is None:
                continue  # the computer is always there; a deleted member never
            # A bot account is present through its program's streams only (SPEC §15): its
            # pages at the table are a spectator's.
            mine = [
                (seen, is_gone)
                for member, seen, is_gone, _, api in sockets
                if member == row.member_id and (api or not row.member_bot)
            ]
            connected = any(not is_gone for _, is_gone in mine)
            if connected == row.connected:
                continue
            # Absent since its last socket closed, or since a dead socket's last message.
            absent_since = None
            if not connected:
                absent_since = max((seen for seen, is_gone in mine if is_gone), default=now)
            Seat.objects.filter(match_id=match_id, seat=row.seat).update(
                connected=connected, absent_since=absent_since
            )
            seats[index] = row._replace(connected=connected, absent_since=absent_since)
            changed = True
        spectators = sum(
            1 for member, _, is_gone, _, _ in sockets if not is_gone and member not in players
        )
        counted = spectators != match.spectators
        if counted:
            match.spectators = spectators
            changed = True
        if changed and match.state and match.status in ACTIVE:
            match_bump(match, seats, match.engine_state(), now=now, fields={"spectators"})
        elif counted:
            # A table that waits or has ended: no new version (visitors coming and going
            # must not make a finished match's record, and its caches, change).
            match.save(update_fields=["spectators"])
        return changed


def presence_sweep(*, now: datetime) -> int:
    """Refresh every table with a socket that expired or closed, and forget the expired
    sockets of other pages (a Celery beat task). Returns the tables refreshed."""
    horizon = _horizon(now)
    stale = Presence.objects.filter(closed=True) | Presence.objects.filter(last_seen__lte=horizon)
    tables = set(stale.exclude(match=None).values_list("match_id", flat=True).distinct())
    for match_id in tables:
        presence_refresh(match_id=match_id, now=now)
    stale.filter(match=None).delete()
    return len(tables)
