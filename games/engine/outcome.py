"""Scores, potentials, the end of a game and its ranking (SPEC §1).

Two sides on a settled position take a shortcut: every free region that is not dead
borders both sides (enclosure took the others), so a side's potential is its score plus
all free countable value, and the game is decided exactly when a side passes the equator.
Otherwise the free regions are examined one by one.

Plain data in, plain data out: territories as bitboards, the sides, the seats that are
out and the free regions (each with the active seats it borders).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from games.engine.board import Board
from games.engine.rules import Region

Sides = tuple[tuple[int, ...], ...]


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


class Outcome(NamedTuple):
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    side_potentials: tuple[int, ...]
    free_value: int | None  # countable value still free, when every region borders all sides
    over: bool
    winners: tuple[int, ...]


def compute_outcome(
    board: Board,
    owned: Sequence[int],
    sides: Sides,
    side_of: Sequence[int],
    *,
    out: Sequence[int],
    resigned: Sequence[int],
    countable: int | None,
    free_regions: Callable[[], Sequence[Region]],
) -> Outcome:
    """Scores, potentials and the end. ``countable``: the countable value when enclosure
    has been applied to every region (None otherwise); ``free_regions`` is only called
    when the regions are needed."""
    value_of = board.value_of
    scores = tuple(map(value_of, owned))
    if len(sides) == len(scores):  # every seat is a side of its own, in seat order
        side_scores = scores
    else:
        side_scores = tuple(sum(scores[seat] for seat in side) for side in sides)

    if resigned:
        potentials = _side_potentials(board, side_scores, side_of, free_regions())
        winners = sides[1 - side_of[resigned[0]]]
        return Outcome(scores, side_scores, potentials, None, True, winners)

    if countable is not None and len(sides) == 2:
        free_value = countable - sum(scores)
        a, b = side_scores
        over = free_value == 0 or a > b + free_value or b > a + free_value
        winners: tuple[int, ...] = ()
        if over:
            winners = sides[0] if a > b else sides[1] if b > a else sides[0] + sides[1]
        potentials = (a + free_value, b + free_value)
        return Outcome(scores, side_scores, potentials, free_value, over, tuple(sorted(winners)))

    regions = free_regions()
    potentials = _side_potentials(board, side_scores, side_of, regions)
    anything_free = any(border for _, border in regions)
    # out seats neither win nor keep a decided game going: only active sides compete
    active = active_sides(sides, out)
    decided = any(all(side_scores[a] > potentials[b] for b in active if b != a) for a in active)
    winners = ()
    if decided or not anything_free:
        top = max(side_scores[n] for n in active)
        winners = tuple(sorted(s for n in active if side_scores[n] == top for s in sides[n]))
    return Outcome(scores, side_scores, potentials, None, bool(winners), winners)


def active_sides(sides: Sides, out: Sequence[int]) -> list[int]:
    """Indices of the sides with a seat that is not out."""
    return [n for n, side in enumerate(sides) if any(s not in out for s in side)]


def _side_potentials(
    board: Board,
    side_scores: tuple[int, ...],
    side_of: Sequence[int],
    regions: Sequence[Region],
) -> tuple[int, ...]:
    potentials = list(side_scores)
    value_of = board.value_of
    for region, border in regions:
        if border:
            value = value_of(region)
            for side in {side_of[seat] for seat in border}:
                potentials[side] += value
    return tuple(potentials)


def seat_potentials(
    board: Board,
    outcome: Outcome,
    sides: Sides,
    free_regions: Callable[[], Sequence[Region]],
) -> tuple[int, ...]:
    """Per seat: its score plus every free non-dead region it borders; out: its score."""
    if outcome.free_value is not None and all(len(side) == 1 for side in sides):
        return tuple(score + outcome.free_value for score in outcome.scores)
    potentials = list(outcome.scores)
    value_of = board.value_of
    for region, border in free_regions():
        if border:
            value = value_of(region)
            for seat in border:
                potentials[seat] += value
    return tuple(potentials)


def ranking(
    outcome: Outcome, sides: Sides, *, out: Sequence[int], resigned: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """Seats from first place down, ties grouped (see :meth:`Position.ranking`)."""
    if resigned:
        return (outcome.winners, resigned)
    active = active_sides(sides, out)
    places = [
        tuple(sorted(s for n in active if outcome.side_scores[n] == score for s in sides[n]))
        for score in sorted({outcome.side_scores[n] for n in active}, reverse=True)
    ]
    return (*places, *((seat,) for seat in reversed(out)))


def side_figures(
    outcome: Outcome, sides: Sides, needed_to_win: int | None
) -> tuple[SideFigures, ...]:
    """Per side: score, potential, distance to the equator and lead (SPEC §1)."""
    figures = []
    for n, side in enumerate(sides):
        score = outcome.side_scores[n]
        best_other = max(s for m, s in enumerate(outcome.side_scores) if m != n)
        figures.append(
            SideFigures(
                seats=side,
                score=score,
                potential=outcome.side_potentials[n],
                to_equator=None if needed_to_win is None else max(0, needed_to_win - score),
                lead=score - best_other,
            )
        )
    return tuple(figures)
