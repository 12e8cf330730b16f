"""Every read of ratings that is more than a ``.get()``; each a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from django.db.models import F, QuerySet, Window
from django.db.models.functions import RowNumber

from ratings import glicko2
from ratings.models import PlayerRating, RatedMatch, RatingChange, Scale

LEADERBOARD_SIZE = 100


@dataclass(frozen=True, slots=True)
class CurrentRating:
    """A member's rating on one scale as shown next to their name."""

    rating: float = glicko2.START_RATING
    rd: float = glicko2.START_RD
    volatility: float = glicko2.START_VOLATILITY
    matches: int = 0

    @property
    def provisional(self) -> bool:
        return self.rd > glicko2.PROVISIONAL_RD


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """The rating after one rated match (the first point: before the first match)."""

    at: datetime
    rating: float
    rd: float
    match_id: int | None


@dataclass(frozen=True, slots=True)
class ScaleRecord:
    """A member's rating and record on one scale, with its history when asked for."""

    scale: str
    rating: float
    rd: float
    volatility: float
    matches: int
    wins: int
    draws: int
    losses: int
    history: tuple[HistoryPoint, ...] = field(default=())

    @property
    def label(self) -> str:
        return str(Scale(self.scale).label)

    @property
    def provisional(self) -> bool:
        return self.rd > glicko2.PROVISIONAL_RD


def current_ratings(member_ids: list[int], scale: str) -> dict[int, CurrentRating]:
    """Every given member's rating on ``scale``; the start values for those never rated.

    One query.
    """
    found = {
        member_id: CurrentRating(rating, rd, volatility, matches)
        for member_id, rating, rd, volatility, matches in PlayerRating.objects.filter(
            scale=scale, member_id__in=member_ids
        ).values_list("member_id", "rating", "rd", "volatility", "matches")
    }
    return {member_id: found.get(member_id, CurrentRating()) for member_id in member_ids}


def _ranked(scale: str) -> QuerySet[PlayerRating]:
    """Established ratings of members who still have an account, best first."""
    return (
        PlayerRating.objects.filter(
            scale=scale,
            member__isnull=False,
            member__is_active=True,
            rd__lte=glicko2.PROVISIONAL_RD,
        )
        .select_related("member")
        .order_by("-rating", "member__username")
    )


def top_players(scale: str, limit: int = 5) -> list[PlayerRating]:
    """The best ``limit`` established players of ``scale`` (provisional left out). One query."""
    return list(_ranked(scale)[:limit])


def leaderboard(scale: str, limit: int = LEADERBOARD_SIZE) -> list[PlayerRating]:
    """The leaderboard of ``scale``: established players, best first. One query."""
    return list(_ranked(scale)[:limit])


def top_players_by_scale(limit: int = 5) -> dict[str, list[PlayerRating]]:
    """The best ``limit`` established players of every scale, in scale order. One query."""
    ranked = (
        PlayerRating.objects.filter(
            member__isnull=False, member__is_active=True, rd__lte=glicko2.PROVISIONAL_RD
        )
        .select_related("member")
        .annotate(
            place=Window(
                RowNumber(),
                partition_by=[F("scale")],
                order_by=[F("rating").desc(), F("member__username").asc()],
            )
        )
        .filter(place__lte=limit)
        .order_by("scale", "place")
    )
    boards: dict[str, list[PlayerRating]] = {scale: [] for scale in Scale.values}
    for player in ranked:
        boards[player.scale].append(player)
    return boards


def _records(member_id: int) -> list[ScaleRecord]:
    rows = PlayerRating.objects.filter(member_id=member_id, matches__gt=0).values_list(
        "scale", "rating", "rd", "volatility", "matches", "wins", "draws", "losses"
    )
    order = {scale: index for index, scale in enumerate(Scale.values)}
    return sorted((ScaleRecord(*row) for row in rows), key=lambda r: order[r.scale])


def member_ratings(member_id: int) -> list[ScaleRecord]:
    """Every scale the member has played: rating, RD, record. One query."""
    return _records(member_id)


def _history_rows(member_id: int, scale: str | None):
    changes = RatingChange.objects.filter(player__member_id=member_id)
    if scale is not None:
        changes = changes.filter(scale=scale)
    return changes.order_by("finished_at", "rated_match_id").values_list(
        "scale",
        "finished_at",
        "rated_match_id",
        "rating_before",
        "rd_before",
        "rating_after",
        "rd_after",
    )


def _histories(rows) -> dict[str, list[HistoryPoint]]:
    histories: dict[str, list[HistoryPoint]] = {}
    for scale, at, match_id, rating_before, rd_before, rating_after, rd_after in rows:
        points = histories.get(scale)
        if points is None:
            points = histories[scale] = [HistoryPoint(at, rating_before, rd_before, None)]
        points.append(HistoryPoint(at, rating_after, rd_after, match_id))
    return histories


def rating_history(member_id: int, scale: str) -> list[HistoryPoint]:
    """The member's rating on ``scale`` before their first match and after each. One query."""
    return _histories(_history_rows(member_id, scale)).get(scale, [])


def member_rating_panel(member_id: int) -> list[ScaleRecord]:
    """What ``ratings/_member_ratings.html`` shows: each played scale with its history.

    Two queries, however many scales and matches.
    """
    histories = _histories(_history_rows(member_id, None))
    return [
        replace(record, history=tuple(histories.get(record.scale, ())))
        for record in _records(member_id)
    ]


def match_rating_changes(match_id: int) -> list[dict]:
    """What a rated match did to each player's rating, in the order the players were first rated.

    ``change`` is the difference of the rounded ratings (what the banner shows). Empty for
    a match not (or no longer) rated. One query.
    """
    changes = (
        RatingChange.objects.filter(rated_match_id=match_id)
        .select_related("player__member")
        .order_by("player_id")
    )
    return [
        {
            "member_id": change.player.member_id,
            "username": change.player.member.username if change.player.member else None,
            "scale": change.scale,
            "rating_before": change.rating_before,
            "rating_after": change.rating_after,
            "rd_before": change.rd_before,
            "rd_after": change.rd_after,
            "volatility_before": change.volatility_before,
            "volatility_after": change.volatility_after,
            "change": change.change,
        }
        for change in changes
    ]


@dataclass(frozen=True)
class MatchRated:
    """What ratings keeps of one match: whether a moderator annulled it, and each
    player's rating before it as rated (by member id; None for a deleted member's), empty
    until its update ran. An annulled match's ratings before count for nothing."""

    annulled: bool
    before: dict[int | None, float]


def matches_rated(match_ids) -> dict[int, MatchRated]:
    """The matches among ``match_ids`` that ratings keeps (the rated ones that counted),
    each as ``MatchRated``. Two queries."""
    annulled = dict(
        RatedMatch.objects.filter(pk__in=list(match_ids)).values_list("pk", "annulled_at")
    )
    before: dict[int, dict[int | None, float]] = {match_id: {} for match_id in annulled}
    for match_id, member_id, rating in RatingChange.objects.filter(
        rated_match_id__in=list(annulled)
    ).values_list("rated_match_id", "player__member_id", "rating_before"):
        before[match_id][member_id] = rating
    return {
        match_id: MatchRated(at is not None, before[match_id]) for match_id, at in annulled.items()
    }


def ratings_by_scale(member_ids: list[int]) -> dict[tuple[int, str], CurrentRating]:
    """Every rating the given members have, keyed by (member, scale). One query."""
    return {
        (member_id, scale): CurrentRating(rating, rd, volatility, matches)
        for member_id, scale, rating, rd, volatility, matches in PlayerRating.objects.filter(
            member_id__in=member_ids
        ).values_list("member_id", "scale", "rating", "rd", "volatility", "matches")
    }


def member_changes(member_id: int, match_ids: list[int]) -> dict[int, int]:
    """The rounded rating change each of these matches brought the member. One query."""
    rows = RatingChange.objects.filter(
        player__member_id=member_id, rated_match_id__in=match_ids
    ).values_list("rated_match_id", "rating_before", "rating_after")
    return {match_id: round(after) - round(before) for match_id, before, after in rows}
