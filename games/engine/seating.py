"""Seats leaving a game and seats changing corners: out seats (SPEC §1), conceding a game
(SPEC §3) and game 2's rotation.

Plain data in, plain data out (bitboards and tuples); each function checks that the
change is allowed and raises ``ValueError`` (or :class:`IllegalMove` once the game is
over) otherwise. :class:`~games.engine.position.Position` delegates here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.engine.board import Board
from games.engine.errors import IllegalMove
from games.engine.letters import LETTERS
from games.engine.rules import Region, settle

Sides = tuple[tuple[int, ...], ...]


class Departure(NamedTuple):
    """The game after a seat went out."""

    owned: tuple[int, ...]
    free: int
    dead: int
    out: tuple[int, ...]
    to_move: int


def check_seat(seats: int, seat: object) -> int:
    """``seat`` if it is a seat index of a game of ``seats`` seats, else ``ValueError``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise ValueError(f"{seat!r} is not a seat index 0-{seats - 1}")
    return seat


def next_active(seats: int, after: int, out: Sequence[int]) -> int:
    """The seat that moves after ``after``: the next in letter order that is not out."""
    for step in range(1, seats + 1):
        seat = (after + step) % seats
        if seat not in out:
            return seat
    raise ValueError("every seat is out")


def go_out(
    board: Board,
    owned: Sequence[int],
    free: int,
    seat: int,
    *,
    sides: Sides,
    side_of: Sequence[int],
    out: tuple[int, ...],
    to_move: int,
    over: bool,
) -> Departure:
    """``seat`` is out (three or four seats, each for itself): enclosure and dead cells
    are worked out again with the active seats only, and the turn passes on if it was
    ``seat``'s."""
    check_seat(len(owned), seat)
    if len(sides) < 3 or any(len(side) > 1 for side in sides):
        raise ValueError("only three or four seats each playing for itself go out; concede")
    if seat in out:
        raise ValueError(f"seat {LETTERS[seat]} is already out")
    if over:
        raise IllegalMove("game_over", "the game is over")
    out = (*out, seat)
    active = [s for s in range(len(owned)) if s not in out]
    # with fewer seats bordering them, regions may now be one side's own or dead; a
    # single active side left borders every region that is not dead and takes them all
    territories, free, dead = settle(board, list(owned), free, active, side_of, None)
    if to_move == seat:
        to_move = next_active(len(owned), seat, out)
    return Departure(tuple(territories), free, dead, out, to_move)


def conceded(
    owned: Sequence[int],
    free: int,
    seat: int,
    *,
    sides: Sides,
    side_of: Sequence[int],
    free_regions: Sequence[Region],
    over: bool,
) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """Two sides: ``seat``'s side gives up the game and the other side is credited with
    every free region that is not dead. Returns (territories, free cells, losing side)."""
    check_seat(len(owned), seat)
    if over:
        raise IllegalMove("game_over", "the game is over")
    loser = sides[side_of[seat]]
    winner = sides[1 - side_of[seat]]
    territories = list(owned)
    for region, border in free_regions:
        if border:  # a region no seat borders is dead and stays free
            takers = [s for s in border if s in winner]
            territories[takers[0] if takers else winner[0]] |= region
            free ^= region
    return tuple(territories), free, loser


def permuted(
    owned: Sequence[int],
    seat_colors: Sequence[int],
    perm: Sequence[int],
    to_move: int,
    *,
    out: Sequence[int],
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Seat ``s``'s territory and colour given to ``perm[s]``: (territories, colours)."""
    seats = len(owned)
    if sorted(perm) != list(range(seats)):
        raise ValueError(f"{list(perm)} is not a permutation of the {seats} seats")
    check_seat(seats, to_move)
    if to_move in out:
        raise ValueError(f"seat {LETTERS[to_move]} is out and cannot move")
    territories = [0] * seats
    colours = [0] * seats
    for seat, target in enumerate(perm):
        territories[target] = owned[seat]
        colours[target] = seat_colors[seat]
    return tuple(territories), tuple(colours)
