"""A move (SPEC §1): which colours are forbidden and why, what a colour takes (the chain,
then enclosure) and the pie rule's swap. Package-internal: :class:`Position` delegates
here, and these functions read its private state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple

from games.engine.errors import IllegalMove
from games.engine.notation import LETTERS
from games.engine.rules import chain, enclosed_by, settle

if TYPE_CHECKING:
    from games.engine.position import Position

LegalReason = Literal["own", "opponent", "game_over"] | None


class Resolution(NamedTuple):
    owned: tuple[int, ...]  # territories after the move
    free: int
    gain: int  # everything the mover took: chain and enclosure
    dead: int


def legal_colors(pos: Position, seat: int) -> dict[int, LegalReason]:
    colours = range(1, pos.colors + 1)
    if pos.is_over:
        return dict.fromkeys(colours, "game_over")
    reasons: dict[int, LegalReason] = dict.fromkeys(colours)
    for other in pos._opponents(seat):
        reasons[pos.seat_colors[other]] = "opponent"
    reasons[pos.seat_colors[seat]] = "own"
    return reasons


def check(pos: Position, colour: object) -> int:
    """``colour`` if the seat to move may play it, else :class:`IllegalMove`."""
    k = pos.colors
    if isinstance(colour, bool) or not isinstance(colour, int):
        raise IllegalMove("palette", f"a move is a colour 1-{k} or 'swap', got {colour!r}")
    if not 1 <= colour <= k:
        raise IllegalMove("palette", f"colour {colour} is not in the palette 1-{k}")
    if pos.is_over:
        raise IllegalMove("game_over", "the game is over")
    mover = pos.to_move
    if colour == pos.seat_colors[mover]:
        raise IllegalMove("own", f"colour {colour} is {LETTERS[mover]}'s own current colour")
    for other in pos._opponents(mover):
        if pos.seat_colors[other] == colour:
            raise IllegalMove("opponent", f"colour {colour} is {LETTERS[other]}'s current colour")
    return colour


def resolve(pos: Position, colour: int) -> Resolution:
    """What ``colour`` does, legality aside: the chain, then enclosure."""
    board = pos.board
    mover = pos.to_move
    owned = list(pos._owned)
    free = pos._free
    gain = chain(board, owned[mover], (pos._palette[colour] | board.paint_mask) & free)
    free ^= gain
    owned[mover] |= gain
    if pos._settled:
        # only the regions next to the gain can have changed, and they border the mover
        dead = pos._dead_cells()
        if gain:
            others = 0
            for seat in pos._opponents(mover):
                others |= owned[seat]
            enclosed = enclosed_by(board, gain, free, others)
            owned[mover] |= enclosed
            free ^= enclosed
            gain |= enclosed
    else:
        # a position read from FPN may hold regions nobody took yet: settle them all
        before = owned[mover]
        owned, free, dead = settle(board, owned, free, pos._active(), pos._side_of, mover)
        gain |= owned[mover] & ~before
    return Resolution(tuple(owned), free, gain, dead)


def play(pos: Position, colour: int) -> Position:
    """The position after ``colour`` (already checked)."""
    owned, free, _, dead = resolve(pos, colour)
    mover = pos.to_move
    seat_colors = list(pos.seat_colors)
    seat_colors[mover] = colour
    return pos._derive(
        owned,
        free,
        seat_colors=tuple(seat_colors),
        to_move=pos._next_active(mover),
        # the pie rule lives on through A's first move only
        pie=pos.pie and mover == 0,
        dead=dead,
        settled=True,
    )


def swap(pos: Position) -> Position:
    """The pie rule: A and B exchange territories and colours, and A moves next."""
    if pos.is_over:
        raise IllegalMove("game_over", "the game is over")
    if not pos.can_swap:
        raise IllegalMove("swap", "swap is only B's answer to A's first move under the pie rule")
    a, b = pos._owned
    colour_a, colour_b = pos.seat_colors
    return pos._derive(
        (b, a),
        pos._free,
        seat_colors=(colour_b, colour_a),
        to_move=0,
        pie=False,
        dead=pos._dead,
        settled=pos._settled,
    )
