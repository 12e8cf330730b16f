"""Whether an arena can pair a member now, and if not, why (SPEC §12: a member is paired
only while they have a present socket on some page of the site and are not seated at a
table in play). The pairing round (``lobby.services.arena_play``) and the arena's page
ask this one function, so the page says exactly what keeps the pairing from taking the
member: a table in play (practice tables too), no page of the site open, or nothing but
the wait for a free opponent."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.models import Match, Presence, Seat

IN_PLAY = (Match.Status.PLAYING, Match.Status.BETWEEN_GAMES)


class Reason(models.TextChoices):
    """Why an entrant is or is not in the next pairing round (the page's texts are in
    ``templates/lobby/_arena_live.html``)."""

    FREE = "free"  # paired as soon as a free opponent is there
    PLAYING = "playing"  # seated at a table in play
    AWAY = "away"  # no present socket on any page of the site


@dataclass(frozen=True)
class TableInPlay:
    match_id: int
    variant: str
    practice: bool
    private: bool
    token: str
    arena_id: int | None
    shown_at: datetime | None  # when the member was first shown it (``Seat.shown_at``)

    @property
    def url(self) -> str:
        """Its page in the active language (a private table by its token: the member is
        seated there)."""
        if self.private:
            return reverse("table_private", args=[self.token])
        return reverse("table", args=[self.match_id])


@dataclass(frozen=True)
class Availability:
    reason: str
    tables: tuple[TableInPlay, ...] = ()

    @property
    def free(self) -> bool:
        return self.reason == Reason.FREE


def availability(members: Collection[int], *, now: datetime) -> dict[int, Availability]:
    """Each member's availability for a pairing now: ``playing`` (with the tables in play,
    newest first) before ``away``, else ``free``. Two queries whatever the number of
    members."""
    members = list(members)
    horizon = now - timedelta(seconds=settings.PRESENCE_EXPIRY_SECONDS)
    present = set(
        Presence.objects.filter(
            member_id__in=members, closed=False, last_seen__gt=horizon
        ).values_list("member_id", flat=True)
    )
    tables = defaultdict(list)
    for member_id, *table in (
        Seat.objects.filter(member_id__in=members, match__status__in=IN_PLAY)
        .order_by("-match_id")
        .values_list(
            "member_id",
            "match_id",
            "match__variant",
            "match__practice",
            "match__private",
            "match__token",
            "match__arena_id",
            "shown_at",
        )
    ):
        tables[member_id].append(TableInPlay(*table))
    found = {}
    for member_id in members:
        if tables[member_id]:
            found[member_id] = Availability(Reason.PLAYING, tuple(tables[member_id]))
        elif member_id not in present:
            found[member_id] = Availability(Reason.AWAY)
        else:
            found[member_id] = Availability(Reason.FREE)
    return found
