"""Tables never wait for someone who is gone (SPEC §10): when a member's match starts, a
member is banned, or a host has had no socket on the site for a while, their waiting
tables and the challenges they sent are withdrawn, and whoever is affected is told why
(a ``withdrawn`` notice with its ``reason``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from games import events, timing
from games.models import Challenge, Match, Presence, Seat
from games.services import member_matches_end, rematch_offers_withdraw
from lobby.selectors import members_waiting
from lobby.services.challenges import challenge_withdrawn
from lobby.services.tables import seat_remove, table_remove

STARTED_ELSEWHERE, HOST_GONE, BANNED = "started_elsewhere", "host_gone", "banned"


def member_waiting_withdraw(*, member_id: int, reason: str, now: datetime) -> int:
    """Withdraw every waiting table of the member (the tables they opened are removed,
    their seat at others' is freed) and the challenges they sent that wait. The member is
    told why, as are the others seated at their tables and the members they challenged;
    a rematch offered to a bot account through a challenge ends with it (no "lapsed" notice
    later, in the middle of the match that withdrew it).
    Inside the caller's transaction when there is one. Returns how many were withdrawn."""
    withdrawn = 0
    with transaction.atomic():
        waiting = Match.objects.select_for_update().filter(status=Match.Status.WAITING)
        for match in waiting.filter(created_by_id=member_id):
            table_remove(match, reason=reason)
            withdrawn += 1
        for match in waiting.filter(seats__member_id=member_id).exclude(created_by_id=member_id):
            withdrawn += seat_remove(match, member_id)
        challenges = Challenge.objects.select_for_update().filter(
            challenger_id=member_id, status=Challenge.Status.PENDING
        )
        for challenge in challenges:
            challenge_withdrawn(challenge, now)
            withdrawn += 1
        if withdrawn:
            notice = {"kind": "withdrawn", "reason": reason, "count": withdrawn}
            transaction.on_commit(partial(events.member_notify, member_id, notice))
    return withdrawn


def hosts_gone_withdraw(*, now: datetime) -> int:
    """Withdraw the waiting tables whose host has had no socket on any page of the site
    for ``LOBBY_HOST_GONE_SECONDS`` (a beat task). Returns how many."""
    horizon = now - timedelta(seconds=settings.LOBBY_HOST_GONE_SECONDS)
    seen = Presence.objects.filter(member_id=OuterRef("created_by_id"), last_seen__gt=horizon)
    # The host's seat says when the table opened, on the site's clock.
    opened_before = Seat.objects.filter(
        match=OuterRef("pk"), member_id=OuterRef("created_by_id"), joined_at__lte=horizon
    )
    gone = (
        Match.objects.filter(Exists(opened_before), status=Match.Status.WAITING)
        .exclude(Exists(seen))
        .exclude(Q(created_by__last_seen__gt=horizon))
        .values_list("created_by_id", flat=True)
        .distinct()
    )
    return sum(
        member_waiting_withdraw(member_id=host, reason=HOST_GONE, now=now)
        for host in list(gone)
        if host is not None
    )


def on_match_started(sender, *, match: Match, members, **kwargs) -> None:
    """``games.signals.match_started``: the members play now; nothing else of theirs
    waits. Most have nothing waiting: one read finds who has. A rematch they accepted
    elsewhere is taken back after the commit, once the match this one may be the rematch
    of says so (one more read)."""
    ids = [member.pk for member in members]
    waiting = members_waiting(ids)
    for member in members:
        if member.pk in waiting:
            member_waiting_withdraw(
                member_id=member.pk, reason=STARTED_ELSEWHERE, now=match.started_at
            )
    transaction.on_commit(partial(rematch_offers_withdraw, member_ids=ids, now=match.started_at))


def on_member_banned(sender, *, member, **kwargs) -> None:
    """``accounts.signals.member_banned`` (and a deletion): nothing of theirs waits. A
    table of theirs that someone was joining at that moment is locked by the join, and the
    withdrawal waits for it: when the join has started the match, the match is ended as
    the member's others were (``games.services.member_matches_end``, which reads it now)."""
    now = timing.now()
    member_waiting_withdraw(member_id=member.pk, reason=BANNED, now=now)
    member_matches_end(member_id=member.pk, now=now)
