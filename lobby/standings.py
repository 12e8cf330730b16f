"""An arena's table (SPEC §12), read two ways that must agree: from the results stored as
each match ended, and worked out again when a recalculation of ratings moved them
(``arena_standings``: two queries whatever the number of entrants), and recomputed from
the arena's matches and the ratings alone (``arena_recomputed``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Q

from accounts.models import User
from games.engine import VARIANTS
from games.engine.match import MatchState
from games.models import Match, Seat
from lobby.models import Arena, ArenaEntry, ArenaResult
from lobby.scoring import Scored, Standing, on_fire, performance, ranked, standing
from lobby.services.arena_play import never_told, played_in, played_of, rated_as
from ratings.selectors import MatchRated, current_ratings, matches_rated

ENDED = (Match.Status.FINISHED, Match.Status.ABORTED)
FINISHED_LISTED = 20


def arena_standings(arena: Arena) -> list[Standing]:
    """The table from the stored results, ranked. Two queries."""
    return _stored(arena)[0]


def _stored(arena: Arena) -> tuple[list[Standing], dict[int, list[ArenaResult]]]:
    """The ranked table from the stored results, and each member's results (their
    opponents with them) in the order they finished. Two queries."""
    entries = list(ArenaEntry.objects.filter(arena=arena).values_list("member_id", "joined_at"))
    results = defaultdict(list)
    for result in (
        ArenaResult.objects.filter(arena=arena)
        .select_related("opponent")
        .order_by("finished_at", "pk")
    ):
        results[result.member_id].append(result)
    table = []
    for member_id, joined_at in entries:
        mine = results[member_id]
        matches = [played_of(r) for r in mine]
        table.append(
            Standing(
                member=member_id,
                points=sum(r.points for r in mine),
                performance=performance(matches),
                fire=on_fire(matches),
                results=tuple(
                    Scored(p, r.points, r.on_fire) for p, r in zip(matches, mine, strict=True)
                ),
                entered=joined_at.timestamp(),
            )
        )
    return ranked(table), results


def arena_match_ratings(members: dict[int, list[int]], scale: str) -> dict[int, MatchRated]:
    """For each of an arena's matches (match id → its members) that counted for ratings:
    annulled or not, and each member's rating before it as ratings recorded it; until
    the rating task has run, their rating now (the same: nothing has moved it yet).
    What the stored results and a recomputation both take the ratings from. Three
    queries at most."""
    rated = matches_rated(members)
    waiting = {
        match_id: members[match_id]
        for match_id, found in rated.items()
        if not found.annulled and not set(members[match_id]) <= found.before.keys()
    }
    if waiting:
        people = sorted({m for ids in waiting.values() for m in ids if m is not None})
        now = current_ratings(people, scale)
        for match_id, ids in waiting.items():
            rated[match_id] = MatchRated(False, {m: now[m].rating for m in ids if m in now})
    return rated


def arena_recomputed(arena: Arena) -> list[Standing]:
    """The table worked out again from the arena's ended matches, in the order they
    ended, and the ratings as they stand: what ``arena_standings`` must show."""
    entries = dict(ArenaEntry.objects.filter(arena=arena).values_list("member_id", "joined_at"))
    matches = Match.objects.filter(arena_id=arena.pk, status__in=ENDED).order_by(
        "finished_at", "pk"
    )
    seats = defaultdict(dict)
    for row in Seat.objects.filter(match__in=matches):
        seats[row.match_id][row.seat] = row
    played = defaultdict(list)
    scale = VARIANTS[arena.variant].rated_scale
    rated = arena_match_ratings(
        {m: [row.member_id for row in rows.values()] for m, rows in seats.items()}, scale
    )
    for match in matches:
        state = MatchState.from_dict(match.state)
        for seat, row in seats[match.pk].items():
            opponent = next((r for s, r in seats[match.pk].items() if s != seat), None)
            told = not never_told(state, seat, row.shown_at)
            played[row.member_id].append(
                rated_as(
                    played_in(match, state, seat, None, told=told),
                    rated.get(match.pk),
                    opponent.member_id if opponent else None,
                )
            )
    return ranked(
        [
            standing(member_id, played[member_id], joined_at.timestamp())
            for member_id, joined_at in entries.items()
        ]
    )


@dataclass(frozen=True)
class Line:
    """A line of the arena's table as pages and the API show it."""

    rank: int
    username: str
    rating: float
    standing: Standing
    opponents: tuple[str | None, ...]  # each result's opponent, by name
    matches: tuple[int, ...]  # each result's match


def arena_table(arena: Arena) -> list[Line]:
    """The ranked table with names, current ratings and each result's opponent and
    match. Four queries whatever the number of entrants."""
    table, results = _stored(arena)
    names = dict(User.objects.filter(arena_entries__arena=arena).values_list("pk", "username"))
    ratings = current_ratings(list(names), VARIANTS[arena.variant].rated_scale)
    return [
        Line(
            rank=index,
            username=names[s.member],
            rating=round(ratings[s.member].rating),
            standing=s,
            opponents=tuple(r.opponent.username if r.opponent else None for r in results[s.member]),
            matches=tuple(r.match_id for r in results[s.member]),
        )
        for index, s in enumerate(table, start=1)
    ]


#: how long pages share one reading of an arena's table: a change bumps the arena's
#: version (a new key); a rating that moved without a change shows within this long
TABLE_SHARED_SECONDS = 2


def arena_table_shown(arena: Arena) -> list[Line]:
    """``arena_table`` as the pages and the API show it: read once per version of the
    arena and shared (Redis) for ``TABLE_SHARED_SECONDS``, so the pages that fetch the
    standings on the same ``arena`` message do not each work it out again. Writes
    (``podium_set``) read ``arena_table`` itself."""
    key = f"arena-table:{arena.pk}:{arena.version}"
    table = cache.get(key)
    if table is None:
        table = arena_table(arena)
        cache.set(key, table, TABLE_SHARED_SECONDS)
    return table


def arenas_listed(*, finished: bool = True) -> dict[str, list[Arena]]:
    """Running and upcoming arenas (soonest first) and, with ``finished``, the latest
    finished or cancelled ones; each with its count of entrants taking part. One query,
    two with ``finished``."""
    counted = Arena.objects.annotate(entrant_count=Count("entries", filter=Q(entries__active=True)))
    active = counted.filter(status__in=[Arena.Status.RUNNING, Arena.Status.UPCOMING])
    listed = {"running": [], "upcoming": [], "finished": []}
    for arena in active.order_by("starts_at"):
        listed[arena.status].append(arena)
    if finished:
        listed["finished"] = list(
            counted.filter(status__in=[Arena.Status.FINISHED, Arena.Status.CANCELLED]).order_by(
                "-starts_at"
            )[:FINISHED_LISTED]
        )
    return listed


MEMBER_ARENAS = 10


def member_arenas(member: User) -> list[ArenaEntry]:
    """A member's latest arenas with their place once finished (``rank``) and the arena.
    One query."""
    return list(
        ArenaEntry.objects.filter(member=member)
        .select_related("arena")
        .order_by("-arena__starts_at")[:MEMBER_ARENAS]
    )
