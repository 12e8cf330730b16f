"""An arena's scoring and ranking (SPEC §12), as plain functions of a member's finished
arena matches in the order they finished: no database here, so the standings stored
after each match and a recomputation from the matches give the same table.

Per match, for each member: lost 0, drawn 1, won 2. A member who won their last two
arena matches is *on fire*: a further win scores 4 and a drawn match 2, until a match
that is not a win. A berserk member who wins after at least ``BERSERK_MOVES`` moves of
their own gains 1 more. An aborted match scores 0 and neither counts toward nor breaks a
streak; so does a match whose ratings a moderator annulled (it no longer counts for the
arena either), whatever its outcome was.

    >>> [s.points for s in score([played("win"), played("win"), played("win"), played("draw")])]
    [2, 2, 4, 2]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Outcome = Literal["win", "draw", "loss", "aborted"]

BERSERK_MOVES = 7  # a berserk win counts 1 more after this many moves of the member's own
PERFORMANCE_SPREAD = 400  # FIDE's linear performance: the opponent's rating ± 400


@dataclass(frozen=True)
class Played:
    """One finished arena match from one member's side."""

    outcome: Outcome
    opponent_rating: float | None = None  # before the match
    berserk: bool = False
    moves: int = 0  # the member's own moves in the match
    annulled: bool = False  # its ratings annulled by a moderator: it counts for nothing

    @property
    def counts(self) -> bool:
        """Whether the match scores, and counts toward or breaks a streak."""
        return self.outcome != "aborted" and not self.annulled


@dataclass(frozen=True)
class Scored:
    """A match as the arena counts it: its points, and whether the member was on fire
    when it started (a fire mark beside the result)."""

    played: Played
    points: int
    on_fire: bool


def played(outcome: Outcome, **details) -> Played:
    return Played(outcome, **details)


def score(matches: Sequence[Played]) -> list[Scored]:
    """Each match's points, in the order the matches finished."""
    wins_in_a_row = 0
    scored = []
    for match in matches:
        on_fire = wins_in_a_row >= 2
        if not match.counts:
            scored.append(Scored(match, 0, on_fire))
            continue
        if match.outcome == "win":
            points = 4 if on_fire else 2
            if match.berserk and match.moves >= BERSERK_MOVES:
                points += 1
            wins_in_a_row += 1
        else:
            points = (2 if on_fire else 1) if match.outcome == "draw" else 0
            wins_in_a_row = 0
        scored.append(Scored(match, points, on_fire))
    return scored


def on_fire(matches: Sequence[Played]) -> bool:
    """Whether the member's next win scores double: their last two counted matches won."""
    counted = [m for m in matches if m.counts]
    return len(counted) >= 2 and all(m.outcome == "win" for m in counted[-2:])


def performance(matches: Sequence[Played]) -> float | None:
    """The average of the opponents' ratings, +400 for a win and −400 for a loss (aborted
    and annulled matches and unknown ratings left out); None before any such match."""
    shift = {"win": PERFORMANCE_SPREAD, "draw": 0, "loss": -PERFORMANCE_SPREAD}
    values = [
        m.opponent_rating + shift[m.outcome]
        for m in matches
        if m.counts and m.opponent_rating is not None
    ]
    return sum(values) / len(values) if values else None


@dataclass(frozen=True)
class Standing:
    """A member's line in the arena's table."""

    member: int
    points: int
    performance: float | None
    fire: bool
    results: tuple[Scored, ...]
    entered: float  # when they first joined (a timestamp): the last tie-break


def standing(member: int, matches: Sequence[Played], entered: float) -> Standing:
    results = score(matches)
    return Standing(
        member=member,
        points=sum(r.points for r in results),
        performance=performance(matches),
        fire=on_fire(matches),
        results=tuple(results),
        entered=entered,
    )


def ranked(standings: Sequence[Standing]) -> list[Standing]:
    """Points, then performance (none counts lowest), then the earlier entry."""
    return sorted(
        standings,
        key=lambda s: (
            -s.points,
            -(s.performance if s.performance is not None else float("-inf")),
            s.entered,
        ),
    )
