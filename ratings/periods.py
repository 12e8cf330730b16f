"""A rated match's pairings as one rating period per player: pure Python, no Django.

``games`` hands over each pair of opposing players once with the score of the first
(SPEC §4: 1 or 0 a full result, 0.6/0.4 a win on total score at equal points, 0.5 a draw).
Two sides give one pair; four players six; Pairs four (each player against both opponents
with the team's result). Before the match each player's RD grows with the days since their
last rated match on the scale; then every player is rated against the others' pre-match
values, all at once.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from ratings.glicko2 import Rating, rate, rd_after_inactivity

#: Every score one player can take from one opponent in one match.
SCORES = (0.0, 0.4, 0.5, 0.6, 1.0)
WIN, DRAW, LOSS = "win", "draw", "loss"
SECONDS_PER_DAY = 86400.0
#: Where every player starts: 1500, RD 350, volatility 0.06.
START = Rating()

Player = TypeVar("Player", bound=Hashable)


class InvalidPairings(ValueError):
    """Pairings that no finished match can produce."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating on a scale and when they last played a rated match on it."""

    rating: Rating = START
    last_played: datetime | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """What one rated match did to one player."""

    before: Rating
    after: Rating
    score: float
    opponents: int
    outcome: str


def validate_pairings(pairings: Iterable[tuple[Player, Player, float]]) -> None:
    """Raise :class:`InvalidPairings` unless every pair is distinct, once, with a known score."""
    seen: set[frozenset] = set()
    count = 0
    for player, opponent, score in pairings:
        count += 1
        if player == opponent:
            raise InvalidPairings(f"player {player!r} paired with themselves")
        pair = frozenset((player, opponent))
        if pair in seen:
            raise InvalidPairings(f"pair {player!r}-{opponent!r} given twice")
        seen.add(pair)
        if not any(abs(score - allowed) < 1e-9 for allowed in SCORES):
            raise InvalidPairings(f"score {score!r} is not one of {SCORES}")
    if count == 0:
        raise InvalidPairings("a rated match has at least one pair of opponents")


def results_by_player(
    pairings: Iterable[tuple[Player, Player, float]],
) -> dict[Player, list[tuple[Player, float]]]:
    """Each player's (opponent, score) list, both directions of every pair.

    >>> results_by_player([(1, 2, 0.6)])
    {1: [(2, 0.6)], 2: [(1, 0.4)]}
    """
    results: dict[Player, list[tuple[Player, float]]] = {}
    for player, opponent, score in pairings:
        results.setdefault(player, []).append((opponent, score))
        results.setdefault(opponent, []).append((player, round(1.0 - score, 6)))
    return results


def outcome(score: float, opponents: int) -> str:
    """A win, draw or loss overall: more, as much or less than half of what was at stake.

    >>> outcome(0.6, 1), outcome(1.5, 3), outcome(1.0, 3)
    ('win', 'draw', 'loss')
    """
    tenths, half = round(score * 10), opponents * 5
    return WIN if tenths > half else DRAW if tenths == half else LOSS


def rate_match(
    standings: Mapping[Player, Standing],
    pairings: Iterable[tuple[Player, Player, float]],
    finished_at: datetime,
) -> dict[Player, Change]:
    """Rate one finished match: one Glicko-2 rating period per player.

    ``standings`` holds every player's standing before the match (a player missing from it
    starts at 1500/350/0.06).
    """
    results = results_by_player(pairings)
    grown: dict[Player, Rating] = {}
    for player in results:
        standing = standings.get(player) or Standing()
        days = (
            0.0
            if standing.last_played is None
            else (finished_at - standing.last_played).total_seconds() / SECONDS_PER_DAY
        )
        before = standing.rating
        grown[player] = Rating(
            before.rating, rd_after_inactivity(before.rd, days), before.volatility
        )
    changes: dict[Player, Change] = {}
    for player, games in results.items():
        after = rate(grown[player], [(grown[opponent], score) for opponent, score in games])
        score = sum(score for _, score in games)
        before = (standings.get(player) or Standing()).rating
        changes[player] = Change(before, after, score, len(games), outcome(score, len(games)))
    return changes
