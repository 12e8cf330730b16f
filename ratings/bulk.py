"""Bulk writes of a replay: many rating changes in, many player rows updated, with the
ORM's documented bulk operations in batches of ``BATCH`` (the same on every database).

A whole scale is 100,000 matches (``bench/ratings.py``); the changes arrive as tuples in
``CHANGE_COLUMNS`` order, so the replay builds no model instance until it writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ratings.models import PlayerRating, RatingChange

#: The columns of a change row, in the order :func:`changes_insert` takes them.
CHANGE_COLUMNS = (
    "rated_match_id",
    "player_id",
    "scale",
    "finished_at",
    "rating_before",
    "rd_before",
    "volatility_before",
    "rating_after",
    "rd_after",
    "volatility_after",
    "score",
    "opponents",
    "outcome",
)
#: The columns of a player row, in the order :func:`players_update` takes them (id first).
PLAYER_COLUMNS = (
    "id",
    "rating",
    "rd",
    "volatility",
    "last_played_at",
    "matches",
    "wins",
    "draws",
    "losses",
)
BATCH = 1000


def changes_insert(rows: Sequence[tuple]) -> None:
    """Insert rating changes given as tuples in ``CHANGE_COLUMNS`` order."""
    RatingChange.objects.bulk_create(
        (RatingChange(**dict(zip(CHANGE_COLUMNS, row, strict=True))) for row in rows),
        batch_size=BATCH,
    )


PlayerRow = tuple[int, float, float, float, datetime | None, int, int, int, int]


def players_update(rows: Sequence[PlayerRow]) -> None:
    """Update player rows given as tuples in ``PLAYER_COLUMNS`` order (id first).

    An insert that meets the row's id updates it (``bulk_create`` with
    ``update_conflicts``: one statement a batch). ``bulk_update`` writes a CASE of every
    row's id per column, which took seconds for a scale's 2,000 players; the insert
    carries each row's member and scale as stored, which it leaves as they are."""
    kept = {
        pk: (member_id, scale)
        for pk, member_id, scale in PlayerRating.objects.filter(
            pk__in=[row[0] for row in rows]
        ).values_list("pk", "member_id", "scale")
    }
    players = []
    for row in rows:
        if row[0] not in kept:
            continue  # gone since it was read: nothing to update
        member_id, scale = kept[row[0]]
        values = dict(zip(PLAYER_COLUMNS, row, strict=True))
        players.append(PlayerRating(member_id=member_id, scale=scale, **values))
    PlayerRating.objects.bulk_create(
        players,
        batch_size=BATCH,
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=PLAYER_COLUMNS[1:],
    )
