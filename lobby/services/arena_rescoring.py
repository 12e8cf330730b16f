"""An arena's stored results worked out again when ratings were recalculated (SPEC §4,
§12): a moderator annulled a match, a result came after later ones, or a scale was
recomputed by hand. The ratings before each later match may have moved, and an annulled
match counts for nothing in the arena (``lobby.scoring``), so the opponents' ratings,
the points and the fire marks stored with each result are worked out again, in the
recalculation's transaction (``ratings.signals.scale_recalculated``), and the stored
table is again the one recomputed from the matches (``lobby.standings``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db import transaction

from games.engine import VARIANTS
from games.models import Match
from lobby import standings
from lobby.models import Arena, ArenaResult
from lobby.scoring import score
from lobby.services.arena_play import played_of, podium_set, rated_as
from lobby.services.arenas import arena_changed

#: match ids asked about at once (SQLite takes a bounded number of parameters)
BATCH = 500


def arenas_rescore(*, match_ids: Iterable[int], **kwargs) -> int:
    """Ratings recalculated these matches (``ratings.signals.scale_recalculated``, inside
    its transaction): every arena that played one of them works out its results again,
    in the order of their ids (their row locks always taken in one order). Returns the
    arenas whose results changed."""
    match_ids = list(match_ids)
    arena_ids: set[int] = set()
    for start in range(0, len(match_ids), BATCH):
        batch = match_ids[start : start + BATCH]
        arena_ids.update(
            Match.objects.filter(pk__in=batch, arena_id__isnull=False).values_list(
                "arena_id", flat=True
            )
        )
    return sum(arena_rescore(arena_id=arena_id) for arena_id in sorted(arena_ids))


@transaction.atomic
def arena_rescore(*, arena_id: int) -> bool:
    """The arena's stored results worked out again from the ratings as they stand, under
    the arena's row lock (in the caller's transaction, when there is one): each result's opponent's
    rating before the match, whether its match was annulled, and from those each
    member's points and fire in the order their matches ended; the podium and places
    of a finished arena with them. What each match was (its outcome, berserk, the moves)
    is as stored: nothing changes that. Returns whether anything changed; then the
    arena's pages look again."""
    arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
    if arena is None:
        return False
    results = list(ArenaResult.objects.filter(arena=arena).order_by("finished_at", "pk"))
    members: dict[int, list[int]] = defaultdict(list)
    mine: dict[int, list[ArenaResult]] = defaultdict(list)
    for result in results:
        members[result.match_id].append(result.member_id)
        mine[result.member_id].append(result)
    rated = standings.arena_match_ratings(members, VARIANTS[arena.variant].rated_scale)
    changed = []
    for rows in mine.values():
        played = [rated_as(played_of(r), rated.get(r.match_id), r.opponent_id) for r in rows]
        for row, scored in zip(rows, score(played), strict=True):
            worked_out = (scored.played.opponent_rating, scored.played.annulled)
            worked_out += (scored.points, scored.on_fire)
            if worked_out != (row.opponent_rating, row.annulled, row.points, row.on_fire):
                row.opponent_rating, row.annulled, row.points, row.on_fire = worked_out
                changed.append(row)
    if not changed:
        return False
    ArenaResult.objects.bulk_update(changed, ["opponent_rating", "annulled", "points", "on_fire"])
    if arena.status == Arena.Status.FINISHED:
        podium_set(arena)
    arena_changed(arena)
    return True
