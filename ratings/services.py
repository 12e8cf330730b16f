"""Every write to ratings: one transaction each.

``games`` records each finished rated match here (:func:`match_result_record`) inside the
transaction that finishes it; the rating update runs after commit as a Celery task.
Updates and recalculations take the scale's lock (``ratings.updates``), so they run one
after the other per scale. Times are passed in where they matter (``now``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import AuditEntry, User
from accounts.services import audit_record
from ratings import tasks, updates
from ratings.models import Pairing, PlayerRating, RatedMatch, Scale
from ratings.periods import InvalidPairings, validate_pairings
from ratings.updates import Progress, match_rating_update

__all__ = [
    "AlreadyAnnulled",
    "match_annul",
    "match_rating_update",
    "match_result_record",
    "scale_recalculate",
]

logger = logging.getLogger(__name__)

#: Players and pairs of opponents in one match of each scale.
SHAPES = {
    Scale.FAST: (2, 1),
    Scale.CLASSIC: (2, 1),
    Scale.HEX: (2, 1),
    Scale.FOUR: (4, 6),
    Scale.PAIRS: (4, 4),
}


class AlreadyAnnulled(ValueError):
    pass


def match_result_record(
    *,
    scale: str,
    match_id: int,
    finished_at: datetime,
    pairings: list[tuple[int, int, float]],
    after_update: str | None = None,
) -> RatedMatch:
    """Store a finished rated match's result and queue its rating update after commit.
    ``after_update`` names a Celery task run with the match id once the update is done
    (the caller's, by name: ratings knows nothing of who asks).

    ``pairings`` hold (member id, opponent's member id, score of the first) for every pair
    of opposing players, each pair once. Idempotent: recording a match id again returns the
    stored record and changes nothing.

    >>> match_result_record(scale="fast", match_id=12, finished_at=now,
    ...                     pairings=[(alice.pk, bob.pk, 0.6)])  # doctest: +SKIP
    """
    if scale not in Scale.values:
        raise ValueError(f"no rated scale {scale!r}")
    pairings = [(int(a), int(b), float(score)) for a, b, score in pairings]
    validate_pairings(pairings)
    _check_shape(scale, pairings)
    existing = RatedMatch.objects.filter(pk=match_id).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            players = _players(scale, {m for pair in pairings for m in pair[:2]})
            rated_match = RatedMatch.objects.create(
                match_id=match_id, scale=scale, finished_at=finished_at
            )
            Pairing.objects.bulk_create(
                Pairing(
                    rated_match=rated_match,
                    player_id=players[member],
                    opponent_id=players[opponent],
                    score=score,
                )
                for member, opponent, score in pairings
            )
    except IntegrityError:
        # The same match recorded at the same moment by another transaction.
        return RatedMatch.objects.get(pk=match_id)
    transaction.on_commit(partial(_queue_update, match_id, after_update))
    return rated_match


def _queue_update(match_id: int, after_update: str | None) -> None:
    from celery import current_app

    link = None
    if after_update:
        link = current_app.signature(after_update, args=(match_id,), immutable=True)
    tasks.rating_update.apply_async((match_id,), link=link)


def _check_shape(scale: str, pairings: list[tuple[int, int, float]]) -> None:
    """Two players once; four players each against the three others; Pairs against two."""
    players, pairs = SHAPES[Scale(scale)]
    opponents: dict[int, int] = {}
    for member, opponent, _ in pairings:
        opponents[member] = opponents.get(member, 0) + 1
        opponents[opponent] = opponents.get(opponent, 0) + 1
    if len(opponents) != players or len(pairings) != pairs:
        raise InvalidPairings(f"a {scale} match has {players} players in {pairs} pairs")
    if set(opponents.values()) != {2 * pairs // players}:
        raise InvalidPairings(f"every player of a {scale} match meets as many opponents")


def _players(scale: str, member_ids: set[int]) -> dict[int, int]:
    """The player row id of each member on ``scale``, created at the start values if new."""
    players = dict(
        PlayerRating.objects.filter(scale=scale, member_id__in=member_ids).values_list(
            "member_id", "pk"
        )
    )
    for member_id in sorted(member_ids - players.keys()):
        player, _ = PlayerRating.objects.get_or_create(scale=scale, member_id=member_id)
        players[member_id] = player.pk
    return players


@transaction.atomic
def match_annul(
    *, match_id: int, by: User | None, reason: str, now: datetime | None = None
) -> RatedMatch:
    """Annul a rated match: it no longer counts; its scale is recomputed from it on.

    The recalculation runs as a Celery task after commit. Raises ``RatedMatch.DoesNotExist``
    for an unknown match and :class:`AlreadyAnnulled` for one annulled before.
    """
    reason = reason.strip()
    if not reason:
        raise ValueError("annulling a match needs a reason")
    rated_match = RatedMatch.objects.select_for_update().get(pk=match_id)
    if rated_match.annulled_at is not None:
        raise AlreadyAnnulled(f"match {match_id} is already annulled")
    rated_match.annulled_at = now or timezone.now()
    rated_match.annulled_by = by
    rated_match.annul_reason = reason
    rated_match.save(update_fields=["annulled_at", "annulled_by", "annul_reason"])
    audit_record(
        action=AuditEntry.Action.ANNUL,
        by=by,
        reason=reason,
        reference=f"match {match_id}",
        now=rated_match.annulled_at,
    )
    logger.info("rated match %s annulled by %s: %s", match_id, by, reason)
    transaction.on_commit(
        partial(tasks.scale_recalculate.delay, rated_match.scale, from_match_id=match_id)
    )
    return rated_match


def scale_recalculate(
    *, scale: str, from_match_id: int | None = None, progress: Progress | None = None
) -> int:
    """Recompute ``scale`` from ``from_match_id`` on, or from scratch; returns matches rated.

    ``progress(done, total)`` is called every thousand matches (the command's progress bar).
    """
    if scale not in Scale.values:
        raise ValueError(f"no rated scale {scale!r}")
    return updates.scale_recalculate(scale=scale, from_match_id=from_match_id, progress=progress)
