"""Seats leaving a game and seats changing corners: out seats (SPEC §1), conceding a game
(SPEC §3) and game 2's rotation. Package-internal: :class:`Position` delegates here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.engine.errors import IllegalMove
from games.engine.notation import LETTERS
from games.engine.rules import settle

if TYPE_CHECKING:
    from games.engine.position import Position


def with_out(pos: Position, seat: int) -> Position:
    _check_seat(pos, seat)
    if len(pos.sides) < 3 or any(len(side) > 1 for side in pos.sides):
        raise ValueError("only three or four seats each playing for itself go out; concede")
    if seat in pos.out:
        raise ValueError(f"seat {LETTERS[seat]} is already out")
    if pos.is_over:
        raise IllegalMove("game_over", "the game is over")
    out = (*pos.out, seat)
    active = [s for s in range(pos.seats) if s not in out]
    # with fewer seats bordering them, regions may now be one side's own or dead; a
    # single active side left borders every region that is not dead and takes them all
    owned, free, dead = settle(pos.board, list(pos._owned), pos._free, active, pos._side_of, None)
    to_move = pos.to_move
    if to_move == seat:
        to_move = next(s for s in pos._turn_order(seat) if s not in out)
    return pos._derive(tuple(owned), free, to_move=to_move, out=out, dead=dead, settled=True)


def concede(pos: Position, seat: int) -> Position:
    _check_seat(pos, seat)
    if len(pos.sides) > 2:
        return with_out(pos, seat)
    if pos.is_over:
        raise IllegalMove("game_over", "the game is over")
    loser = pos.sides[pos.side_of(seat)]
    winner = pos.sides[1 - pos.side_of(seat)]
    owned = list(pos._owned)
    free = pos._free
    for region, border in pos._free_regions():
        if border:  # a region no seat borders is dead and stays free
            takers = [s for s in border if s in winner]
            owned[takers[0] if takers else winner[0]] |= region
            free ^= region
    return pos._derive(tuple(owned), free, resigned=loser, dead=pos._dead_cells(), settled=True)


def with_seats_permuted(pos: Position, perm: Sequence[int], to_move: int) -> Position:
    seats = pos.seats
    if sorted(perm) != list(range(seats)):
        raise ValueError(f"{list(perm)} is not a permutation of the {seats} seats")
    _check_seat(pos, to_move)
    if to_move in pos.out:
        raise ValueError(f"seat {LETTERS[to_move]} is out and cannot move")
    owned = [0] * seats
    colours = [0] * seats
    for seat, target in enumerate(perm):
        owned[target] = pos._owned[seat]
        colours[target] = pos.seat_colors[seat]
    # a side may now hold other corners: enclosure and dead cells are worked out afresh
    return pos._derive(
        tuple(owned),
        pos._free,
        seat_colors=tuple(colours),
        to_move=to_move,
        dead=None,
        settled=False,
    )


def _check_seat(pos: Position, seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < pos.seats:
        raise ValueError(f"{seat!r} is not a seat index 0-{pos.seats - 1}")
