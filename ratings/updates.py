"""Applying rated results to ratings: the update after each match and the recalculation.

Every function here runs in one transaction that first takes the scale's lock
(:func:`scale_lock`), so the updates and recalculations of one scale never interleave.
Matches are rated in the order they finished, ties by match id. A scale is *dirty* from its
first match whose stored changes disagree with what it should have: a result not yet rated,
or an annulled match whose changes are still stored. Bringing a scale up to date replays
every match from there on, so whatever order the tasks run in, the outcome equals a
recalculation from scratch.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber

from ratings.bulk import changes_insert, players_update
from ratings.glicko2 import Rating
from ratings.models import DIRTY, Pairing, PlayerRating, RatedMatch, RatingChange, ScaleLock
from ratings.periods import Standing, rate_match
from ratings.signals import scale_recalculated

#: Progress of a long recalculation: called with (matches done, matches in all).
Progress = Callable[[int, int], None]
#: Where a replay starts: (finished_at, match_id) of its first match; None is the beginning.
Key = tuple[datetime, int]
PROGRESS_EVERY = 1000


def scale_lock(scale: str) -> None:
    """Hold the scale's lock until the current transaction ends.

    An UPDATE of the scale's row: a row lock on PostgreSQL; on SQLite the transaction
    already holds the database's write lock (IMMEDIATE), and the write keeps it so even
    without that mode.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("the scale lock must be taken inside a transaction")
    ScaleLock.objects.get_or_create(scale=scale)
    ScaleLock.objects.filter(scale=scale).update(taken=F("taken") + 1)


def _from(key: Key, *, finished: str = "finished_at", match: str = "match_id") -> Q:
    """Rows at or after ``key`` in rating order (field names as the queried model has them)."""
    finished_at, match_id = key
    return Q(**{f"{finished}__gt": finished_at}) | Q(
        **{finished: finished_at, f"{match}__gte": match_id}
    )


def _first_dirty(scale: str) -> Key | None:
    """The first result of ``scale`` not rated yet, or annulled with its changes still stored."""
    return (
        RatedMatch.objects.filter(scale=scale)
        .filter(DIRTY)
        .order_by("finished_at", "match_id")
        .values_list("finished_at", "match_id")
        .first()
    )


@transaction.atomic
def match_rating_update(*, match_id: int, progress: Progress | None = None) -> int:
    """Rate the recorded match ``match_id`` and whatever else of its scale is pending.

    Idempotent: once the scale is up to date it changes nothing. Returns the number of
    matches rated (0 when there was nothing to do).
    """
    scale = RatedMatch.objects.filter(pk=match_id).values_list("scale", flat=True).first()
    if scale is None:
        return 0
    return _pending_rate(scale, progress)


def _pending_rate(scale: str, progress: Progress | None = None) -> int:
    """Under the scale's lock, rate from its first result not rated yet (inside the
    caller's transaction). Returns the matches rated."""
    scale_lock(scale)
    start = _first_dirty(scale)
    return 0 if start is None else _replay(scale, start, progress)


def scales_catch_up() -> int:
    """Rate whatever was recorded and not rated yet (a beat sweep): an update whose task
    was lost with a worker or the broker is made here, and one that comes after later
    matches of its scale replays the scale from it on, as an annulment does. Returns the
    matches rated."""
    rated = 0
    dirty = RatedMatch.objects.filter(DIRTY).values_list("scale", flat=True).distinct()
    for scale in sorted(set(dirty)):
        with transaction.atomic():
            rated += _pending_rate(scale)
    return rated


@transaction.atomic
def scale_recalculate(
    *, scale: str, from_match_id: int | None = None, progress: Progress | None = None
) -> int:
    """Recompute the scale from ``from_match_id`` on (or from its first match), in order.

    Also starts earlier if the scale is dirty earlier. Returns the number of matches rated.
    """
    scale_lock(scale)
    start: Key | None = None
    if from_match_id is not None:
        start = (
            RatedMatch.objects.filter(pk=from_match_id, scale=scale)
            .values_list("finished_at", "match_id")
            .first()
        )
        dirty = _first_dirty(scale)
        if start is None:
            start = dirty
        elif dirty is not None:
            start = min(start, dirty)
        if start is None:
            return 0
    return _replay(scale, start, progress)


def _replay(scale: str, start: Key | None, progress: Progress | None) -> int:
    """Replay every unannulled match of ``scale`` from ``start`` on (None: from the first)."""
    matches = RatedMatch.objects.filter(scale=scale)
    changes = RatingChange.objects.filter(scale=scale)
    pairings = Pairing.objects.filter(rated_match__scale=scale)
    if start is not None:
        matches = matches.filter(_from(start))
        changes = changes.filter(_from(start, match="rated_match_id"))
        pairings = pairings.filter(
            _from(start, finished="rated_match__finished_at", match="rated_match_id")
        )
    replayed = list(
        matches.order_by("finished_at", "match_id").values_list(
            "match_id", "finished_at", "annulled_at"
        )
    )
    order = [
        (match_id, finished_at) for match_id, finished_at, annulled in replayed if not annulled
    ]
    by_match: dict[int, list[tuple[int, int, float]]] = defaultdict(list)
    for match_id, player, opponent, score in pairings.filter(
        rated_match__annulled_at=None
    ).values_list("rated_match_id", "player_id", "opponent_id", "score"):
        by_match[match_id].append((player, opponent, score))

    replayed_players = {p for pairs in by_match.values() for a, b, _ in pairs for p in (a, b)}
    undone_players = set(changes.order_by().values_list("player_id", flat=True).distinct())
    if undone_players:
        changes.delete()
        standings = _standings_before(undone_players | replayed_players, start)
    else:
        # Nothing from ``start`` on was rated yet: the current rows are the state before it.
        standings = _standings_now(replayed_players)

    new_changes: list[tuple] = []
    total = len(order)
    for done, (match_id, finished_at) in enumerate(order, start=1):
        for player, change in rate_match(standings, by_match[match_id], finished_at).items():
            standings[player] = Standing(change.after, finished_at)
            before, after = change.before, change.after
            new_changes.append(
                (
                    match_id,
                    player,
                    scale,
                    finished_at,
                    before.rating,
                    before.rd,
                    before.volatility,
                    after.rating,
                    after.rd,
                    after.volatility,
                    change.score,
                    change.opponents,
                    change.outcome,
                )
            )
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
            progress(done, total)
    changes_insert(new_changes)
    _store_players(standings)
    matches.filter(annulled_at=None, applied=False).update(applied=True)
    matches.filter(annulled_at__isnull=False, applied=True).update(applied=False)
    if undone_players or len(order) < len(replayed):
        # Not a plain update: ratings stored before may have changed, or matches no
        # longer count. Whoever keeps what followed from them works it out again here,
        # in this transaction (the lobby's arenas).
        scale_recalculated.send(
            sender=RatedMatch, scale=scale, match_ids=[row[0] for row in replayed]
        )
    return total


def _standings_now(players: set[int]) -> dict[int, Standing]:
    return {
        pk: Standing(Rating(rating, rd, volatility), last_played)
        for pk, rating, rd, volatility, last_played in PlayerRating.objects.filter(
            pk__in=players
        ).values_list("pk", "rating", "rd", "volatility", "last_played_at")
    }


def _standings_before(players: set[int], start: Key | None) -> dict[int, Standing]:
    """Each player's standing after their last rated match before ``start``, else the start."""
    standings = {pk: Standing() for pk in players}
    if start is None:
        return standings
    last = (
        RatingChange.objects.filter(player_id__in=players)
        .exclude(_from(start, match="rated_match_id"))
        .annotate(
            row=Window(
                RowNumber(),
                partition_by=[F("player_id")],
                order_by=[F("finished_at").desc(), F("rated_match_id").desc()],
            )
        )
        .filter(row=1)
        .values_list("player_id", "rating_after", "rd_after", "volatility_after", "finished_at")
    )
    for pk, rating, rd, volatility, finished_at in last:
        standings[pk] = Standing(Rating(rating, rd, volatility), finished_at)
    return standings


def _store_players(standings: dict[int, Standing]) -> None:
    """Write the players' ratings and recount their records from the stored changes."""
    counts = {
        row["player_id"]: row
        for row in RatingChange.objects.filter(player_id__in=standings)
        .values("player_id")
        .annotate(
            total=Count("pk"),
            won=Count("pk", filter=Q(outcome=RatingChange.Outcome.WIN)),
            drawn=Count("pk", filter=Q(outcome=RatingChange.Outcome.DRAW)),
            lost=Count("pk", filter=Q(outcome=RatingChange.Outcome.LOSS)),
        )
    }
    rows = []
    for pk, standing in standings.items():
        count = counts.get(pk, {})
        rating = standing.rating
        rows.append(
            (
                pk,
                rating.rating,
                rating.rd,
                rating.volatility,
                standing.last_played,
                count.get("total", 0),
                count.get("won", 0),
                count.get("drawn", 0),
                count.get("lost", 0),
            )
        )
    players_update(rows)
