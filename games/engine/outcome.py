"""Scores, potentials, the end of a game and its ranking (SPEC §1).

Two sides on a settled position take a shortcut: every free region that is not dead
borders both sides (enclosure took the others), so a side's potential is its score plus
all free countable value, and the game is decided exactly when a side passes the equator.
Otherwise the free regions are examined one by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

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


class Outcome(NamedTuple):
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    side_potentials: tuple[int, ...]
    free_value: int | None  # countable value still free, when every region borders all sides
    over: bool
    winners: tuple[int, ...]


def compute_outcome(pos: Position) -> Outcome:
    value_of = pos.board.value_of
    teams = pos.sides
    scores = tuple(map(value_of, pos._owned))
    if len(teams) == len(scores):  # every seat is a side of its own, in seat order
        side_scores = scores
    else:
        side_scores = tuple(sum(scores[seat] for seat in team) for team in teams)

    if pos.resigned:
        potentials = _side_potentials(pos, side_scores)
        winners = teams[1 - pos.side_of(pos.resigned[0])]
        return Outcome(scores, side_scores, potentials, None, True, winners)

    if pos._settled and len(teams) == 2:
        free_value = pos.countable - sum(scores)
        a, b = side_scores
        over = free_value == 0 or a > b + free_value or b > a + free_value
        winners: tuple[int, ...] = ()
        if over:
            winners = teams[0] if a > b else teams[1] if b > a else teams[0] + teams[1]
        potentials = (a + free_value, b + free_value)
        return Outcome(scores, side_scores, potentials, free_value, over, tuple(sorted(winners)))

    potentials = _side_potentials(pos, side_scores)
    anything_free = any(border for _, border in pos._free_regions())
    # out seats neither win nor keep a decided game going: only active sides compete
    active = _active_sides(pos)
    decided = any(all(side_scores[a] > potentials[b] for b in active if b != a) for a in active)
    winners = ()
    if decided or not anything_free:
        top = max(side_scores[n] for n in active)
        winners = tuple(sorted(s for n in active if side_scores[n] == top for s in teams[n]))
    return Outcome(scores, side_scores, potentials, None, bool(winners), winners)


def _active_sides(pos: Position) -> list[int]:
    return [n for n, team in enumerate(pos.sides) if any(s not in pos.out for s in team)]


def _side_potentials(pos: Position, side_scores: tuple[int, ...]) -> tuple[int, ...]:
    potentials = list(side_scores)
    value_of = pos.board.value_of
    for region, border in pos._free_regions():
        if border:
            value = value_of(region)
            for side in {pos.side_of(seat) for seat in border}:
                potentials[side] += value
    return tuple(potentials)


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


def ranking(pos: Position, outcome: Outcome) -> tuple[tuple[int, ...], ...]:
    """Seats from first place down, ties grouped (see :meth:`Position.ranking`)."""
    teams = pos.sides
    if pos.resigned:
        return (outcome.winners, pos.resigned)
    active = _active_sides(pos)
    places = [
        tuple(sorted(s for n in active if outcome.side_scores[n] == score for s in teams[n]))
        for score in sorted({outcome.side_scores[n] for n in active}, reverse=True)
    ]
    return (*places, *((seat,) for seat in reversed(pos.out)))


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
