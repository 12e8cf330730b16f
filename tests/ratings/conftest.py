import random
from datetime import UTC, datetime, timedelta

import pytest

from ratings import services
from ratings.models import PlayerRating, RatingChange

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def members(make_member):
    """Six members: alice, bob, carol, dave, erin, frank."""
    return [make_member(name) for name in ("alice", "bob", "carol", "dave", "erin", "frank")]


def rate_recorded(scale, match_id, pairings, at=None):
    """Record a finished rated match and run its rating update, as the task would."""
    services.match_result_record(
        scale=scale,
        match_id=match_id,
        finished_at=at or T0 + timedelta(hours=match_id),
        pairings=pairings,
    )
    return services.match_rating_update(match_id=match_id)


def snapshot(scale):
    """Everything a scale's ratings are: each player's row and every stored change."""
    players = list(
        PlayerRating.objects.filter(scale=scale)
        .order_by("pk")
        .values_list(
            "pk",
            "member_id",
            "rating",
            "rd",
            "volatility",
            "matches",
            "wins",
            "draws",
            "losses",
            "last_played_at",
        )
    )
    changes = list(
        RatingChange.objects.filter(scale=scale)
        .order_by("finished_at", "rated_match_id", "player_id")
        .values_list(
            "rated_match_id",
            "player_id",
            "rating_before",
            "rd_before",
            "volatility_before",
            "rating_after",
            "rd_after",
            "volatility_after",
            "score",
            "outcome",
        )
    )
    return players, changes


def random_history(scale, members, count, seed=1, first_id=1):
    """``count`` random two-player matches among ``members``, finished minutes to days apart.

    Recorded but not rated; returns their match ids in the order they finished.
    """
    rng = random.Random(seed)
    at = T0
    ids = []
    for match_id in range(first_id, first_id + count):
        at += timedelta(minutes=rng.choice([5, 30, 600, 3000]))
        a, b = rng.sample(members, 2)
        score = rng.choice([1.0, 0.6, 0.5, 0.4, 0.0])
        services.match_result_record(
            scale=scale, match_id=match_id, finished_at=at, pairings=[(a.pk, b.pk, score)]
        )
        ids.append(match_id)
    return ids
