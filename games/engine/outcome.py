"""Scores, potentials, the end of a game and its ranking (SPEC §1).

Two sides on a settled position take a shortcut: every free region that is not dead
borders both sides (enclosure took the others), so a side's potential is its score plus
all free countable value, and the game is decided exactly when a side passes the equator.
Otherwise the free regions are examined one by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine.position import Position


@dataclass(frozen=True)
class SideFigures:
    """What is shown above the board for one side (SPEC §1).

    ``to_equator``: how much the side still needs to pass half the countable value
    (two sides only, else None); ``lead``: score minus the best other side's score.
    """

    seats: tuple[int, ...]
    score: int
    potential: int
    to_equator: int | None
    lead: int


@dataclass(frozen=True)
class Outcome:
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    side_potentials: tuple[int, ...]
    free_value: int | None  # countable value still free, when every region borders all sides
    over: bool
    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]


def compute_outcome(pos: Position) -> Outcome:
    board = pos.board
    value_of = board.value_of
    teams = pos.sides
    out = pos.out
    scores = tuple(value_of(cells) for cells in pos._owned)
    side_scores = tuple(sum(scores[seat] for seat in team) for team in teams)
    active_sides = [n for n, team in enumerate(teams) if any(s not in out for s in team)]

    free_value: int | None = None
    if pos._settled and len(teams) == 2:
        free_value = board.total_value - value_of(pos._dead_cells()) - sum(scores)
        side_potentials = tuple(score + free_value for score in side_scores)
        anything_free = free_value > 0
    else:
        potentials = list(side_scores)
        anything_free = False
        for region, border in pos._free_regions():
            if border:
                anything_free = True
                value = value_of(region)
                for side in {pos.side_of(seat) for seat in border}:
                    potentials[side] += value
        side_potentials = tuple(potentials)

    if pos.resigned:
        winner_side = teams[1 - pos.side_of(pos.resigned[0])]
        return Outcome(
            scores=scores,
            side_scores=side_scores,
            side_potentials=side_potentials,
            free_value=free_value,
            over=True,
            winners=winner_side,
            ranking=(winner_side, pos.resigned),
        )

    # out seats neither win nor keep a decided game going: only active sides compete
    decided = any(
        all(side_scores[a] > side_potentials[b] for b in active_sides if b != a)
        for a in active_sides
    )
    over = decided or not anything_free
    winners: tuple[int, ...] = ()
    if over:
        top = max(side_scores[n] for n in active_sides)
        winners = tuple(sorted(s for n in active_sides if side_scores[n] == top for s in teams[n]))
    ranking: list[tuple[int, ...]] = []
    for score in sorted({side_scores[n] for n in active_sides}, reverse=True):
        ranking.append(
            tuple(sorted(s for n in active_sides if side_scores[n] == score for s in teams[n]))
        )
    ranking.extend((seat,) for seat in reversed(out))
    return Outcome(
        scores=scores,
        side_scores=side_scores,
        side_potentials=side_potentials,
        free_value=free_value,
        over=over,
        winners=winners,
        ranking=tuple(ranking),
    )


def seat_potentials(pos: Position, outcome: Outcome) -> tuple[int, ...]:
    """Per seat: its score plus every free non-dead region it borders; out: its score."""
    if outcome.free_value is not None and all(len(team) == 1 for team in pos.sides):
        return tuple(score + outcome.free_value for score in outcome.scores)
    potentials = list(outcome.scores)
    value_of = pos.board.value_of
    for region, border in pos._free_regions():
        if border:
            value = value_of(region)
            for seat in border:
                potentials[seat] += value
    return tuple(potentials)


def side_figures(
    outcome: Outcome, teams: tuple[tuple[int, ...], ...], needed_to_win: int | None
) -> tuple[SideFigures, ...]:
    figures = []
    for n, team in enumerate(teams):
        score = outcome.side_scores[n]
        best_other = max(s for m, s in enumerate(outcome.side_scores) if m != n)
        figures.append(
            SideFigures(
                seats=team,
                score=score,
                potential=outcome.side_potentials[n],
                to_equator=None if needed_to_win is None else max(0, needed_to_win - score),
                lead=score - best_other,
            )
        )
    return tuple(figures)
