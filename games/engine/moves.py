"""A move (SPEC §1): which colours are forbidden and why, what a colour takes (the chain,
then enclosure) and the pie rule's swap.

Plain data in, plain data out: the board, territories and free cells as bitboards, seat
colours as tuples. :class:`~games.engine.position.Position` calls these functions with its
fields and builds the next position from what they return.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from games.engine.board import Board
from games.engine.errors import IllegalMove
from games.engine.letters import LETTERS
from games.engine.rules import chain, enclosed_by, settle

LegalReason = Literal["own", "opponent", "game_over"] | None


class Resolution(NamedTuple):
    owned: tuple[int, ...]  # territories after the move
    free: int
    gain: int  # everything the mover took: chain and enclosure
    dead: int


def legal_colors(
    colors: int, seat_colors: Sequence[int], seat: int, foes: Sequence[int], *, over: bool
) -> dict[int, LegalReason]:
    """Per colour 1..``colors``: None if ``seat`` may play it, else why not. ``foes``:
    the active seats of the other sides (their colours are forbidden)."""
    colours = range(1, colors + 1)
    if over:
        return dict.fromkeys(colours, "game_over")
    reasons: dict[int, LegalReason] = dict.fromkeys(colours)
    for other in foes:
        reasons[seat_colors[other]] = "opponent"
    reasons[seat_colors[seat]] = "own"
    return reasons


def check(
    colour: object,
    colors: int,
    seat_colors: Sequence[int],
    mover: int,
    foes: Sequence[int],
    *,
    over: bool,
) -> int:
    """``colour`` if ``mover`` may play it, else :class:`IllegalMove`."""
    if isinstance(colour, bool) or not isinstance(colour, int):
        raise IllegalMove("palette", f"a move is a colour 1-{colors} or 'swap', got {colour!r}")
    if not 1 <= colour <= colors:
        raise IllegalMove("palette", f"colour {colour} is not in the palette 1-{colors}")
    if over:
        raise IllegalMove("game_over", "the game is over")
    if colour == seat_colors[mover]:
        raise IllegalMove("own", f"colour {colour} is {LETTERS[mover]}'s own current colour")
    for other in foes:
        if seat_colors[other] == colour:
            raise IllegalMove("opponent", f"colour {colour} is {LETTERS[other]}'s current colour")
    return colour


def resolve(
    board: Board,
    target: int,
    owned: Sequence[int],
    free: int,
    mover: int,
    others: int,
    dead: int,
) -> Resolution:
    """What a move does, legality aside, on a settled position (enclosure already
    applied everywhere, ``dead`` known): the chain through ``target`` (the free cells of
    the chosen colour and paint), then the regions it cut off from ``others`` (the cells
    of every active seat of the other sides). Dead cells stay dead."""
    gain = chain(board, owned[mover], target)
    if not gain:
        return Resolution(tuple(owned), free, 0, dead)
    free ^= gain
    # only the regions next to the gain can have changed, and they border the mover
    enclosed = enclosed_by(board, gain, free, others)
    gain |= enclosed
    territories = list(owned)
    territories[mover] |= gain
    return Resolution(tuple(territories), free ^ enclosed, gain, dead)


def resolve_unsettled(
    board: Board,
    target: int,
    owned: Sequence[int],
    free: int,
    mover: int,
    *,
    active: Sequence[int],
    side_of: Sequence[int],
) -> Resolution:
    """:func:`resolve` on a position read from FPN, which may hold regions nobody took
    yet: after the chain every region is settled."""
    territories = list(owned)
    gain = chain(board, territories[mover], target)
    territories[mover] |= gain
    territories, free, dead = settle(board, territories, free ^ gain, active, side_of, mover)
    gain |= territories[mover] & ~owned[mover]
    return Resolution(tuple(territories), free, gain, dead)


def with_colour(seat_colors: tuple[int, ...], mover: int, colour: int) -> tuple[int, ...]:
    """The seat colours once ``mover`` has played ``colour``."""
    return (*seat_colors[:mover], colour, *seat_colors[mover + 1 :])


def check_swap(*, over: bool, allowed: bool) -> None:
    """Raise :class:`IllegalMove` unless the pie rule allows ``"swap"`` now."""
    if over:
        raise IllegalMove("game_over", "the game is over")
    if not allowed:
        raise IllegalMove("swap", "swap is only B's answer to A's first move under the pie rule")
