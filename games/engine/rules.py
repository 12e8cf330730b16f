"""The move mechanics of SPEC §1 on bitboards: the chain, own regions (enclosure) and
the free regions behind potentials and dead cells.

Every function takes the :class:`~games.engine.board.Board` and plain ``int`` masks and
returns new masks; nothing here knows about seats' letters, FPN or legality.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.board import Board

# a free region and the active seats it borders, lowest first
Region = tuple[int, tuple[int, ...]]


def chain(board: Board, territory: int, target: int) -> int:
    """Cells of ``target`` (free cells of the chosen colour and paint) reachable from the
    territory through ``target`` cells: what a move takes before enclosure."""
    seeds = board.spread(territory) & target
    return board.fill(seeds, target) if seeds else 0


def enclosed_by(board: Board, gain: int, free: int, others: int) -> int:
    """Free cells that ``gain`` cut off from ``others`` (every active seat of the other
    sides), given ``free`` after the gain.

    Only regions next to the gain can have changed, and each of them borders the mover,
    so a region is the mover's own unless it touches ``others``. Each fill stops as soon
    as it meets a cell known to lead to another side, so the big open region costs only
    the distance to the nearest such cell.
    """
    spread = board.spread
    open_cells = spread(others) & free
    pending = spread(gain) & free & ~open_cells
    enclosed = 0
    reach = board.reach
    while pending:
        cells, touched = reach(pending & -pending, free, open_cells)
        if touched:
            open_cells |= cells
        else:
            enclosed |= cells
        pending &= ~cells
    return enclosed


def regions(board: Board, free: int, territories: Sequence[tuple[int, int]]) -> list[Region]:
    """Every connected region of ``free`` with the seats of ``territories`` ((seat, cells)
    of the active seats, in seat order) that border it. No seat: the region is dead."""
    spread, fill = board.spread, board.fill
    zones = [(seat, spread(cells) & free) for seat, cells in territories]
    found: list[Region] = []
    rest = free
    while rest:
        region = fill(rest & -rest, free)
        rest ^= region
        found.append((region, tuple(seat for seat, zone in zones if zone & region)))
    return found


def settle(
    board: Board,
    owned: list[int],
    free: int,
    active: Sequence[int],
    side_of: Sequence[int],
    mover: int | None,
) -> tuple[list[int], int, int]:
    """Enclosure over the whole board: each region whose bordering active seats all
    belong to one side goes to the mover if it borders it, else to the lowest bordering
    seat. Returns (territories, free cells, dead cells); ``owned`` is not changed."""
    owned = list(owned)
    dead = 0
    for region, border in regions(board, free, [(s, owned[s]) for s in active]):
        if not border:
            dead |= region
        elif all(side_of[seat] == side_of[border[0]] for seat in border):
            owned[mover if mover in border else border[0]] |= region
            free ^= region
    return owned, free, dead
