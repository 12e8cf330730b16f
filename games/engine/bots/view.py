"""What the bots see of a position: bitboards of territories and free colours, and the
cheap measures their evaluations are made of.

Only the public :class:`~games.engine.position.Position` API is read (``territory``,
``cell_colors``, ``owners``, ``preview``, ``legal_colors``, ...) and turned into ``int``
masks on the :class:`~games.engine.board.Board`'s bitboards once per decision; after that
a search keeps the masks up to date move by move, because a free cell never changes
colour and an owned cell never changes hands (the pie rule's swap aside).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.board import Board
from games.engine.position import Move, Position


@dataclass(frozen=True, slots=True)
class Colours:
    """The board's free cells by colour, as bitboards, taken once per decision.

    ``free_of[c]`` holds the cells of colour ``c`` that were free when the decision began
    (``[0]`` is unused); intersect with the free cells of a later position to stay exact.
    """

    board: Board
    free_of: tuple[int, ...]
    paint: int

    @classmethod
    def of(cls, position: Position) -> Colours:
        board = position.board
        bits = board.bits
        free_of = [0] * (position.colors + 1)
        for cell, (colour, owner) in enumerate(
            zip(position.cell_colors(), position.owners(), strict=True)
        ):
            if owner is None and colour:
                free_of[colour] |= 1 << bits[cell]
        return cls(board, tuple(free_of), board.paint_mask)


def territories(position: Position) -> tuple[int, ...]:
    """Each seat's territory as a bitboard."""
    mask_of = position.board.mask_of
    return tuple(mask_of(position.territory(seat)) for seat in range(position.seats))


def after_move(
    colours: Colours, position: Position, child: Position, move: Move, masks: tuple[int, ...]
) -> tuple[int, ...]:
    """The territories of ``child``, the position after ``move`` in ``position``, from
    those of ``position``.

    The chain is followed on the bitboards; when the mover's score says the move also
    enclosed cells, its gain is read from ``position.preview`` instead. When another
    seat's score changed too (a position read from FPN whose own regions nobody had
    taken yet: the first move settles them), every territory is read afresh.
    """
    if move == "swap":
        first, second, *rest = masks
        return (second, first, *rest)
    board = colours.board
    mover = position.to_move
    before, after = position.scores, child.scores
    if any(after[seat] != before[seat] for seat in range(len(masks)) if seat != mover):
        return territories(child)
    free = free_cells(board, masks)
    target = (colours.free_of[move] | colours.paint) & free
    seeds = board.spread(masks[mover]) & target
    gained = board.fill(seeds, target) if seeds else 0
    if board.value_of(gained) != child.scores[mover] - position.scores[mover]:
        gained = board.mask_of(position.preview(move))
    return (*masks[:mover], masks[mover] | gained, *masks[mover + 1 :])


def free_cells(board: Board, masks: tuple[int, ...]) -> int:
    """Cells nobody owns (dead cells included: no territory borders them anyway)."""
    owned = 0
    for mask in masks:
        owned |= mask
    return board.playable & ~owned


def best_chain(colours: Colours, territory: int, free: int, allowed: list[int]) -> int:
    """The most value one move of ``allowed`` colours could chain into from ``territory``
    (enclosure left out: this is an estimate for any seat, not only the one to move)."""
    board = colours.board
    edge = board.spread(territory) & free
    if not edge:
        return 0
    fill, value_of, paint = board.fill, board.value_of, colours.paint & free
    best = 0
    for colour in allowed:
        target = (colours.free_of[colour] & free) | paint
        seeds = edge & target
        if seeds:
            gain = value_of(fill(seeds, target))
            if gain > best:
                best = gain
    return best


def race(colours: Colours, fronts: list[int], free: int) -> list[int]:
    """Per side (territory bitboards in ``fronts``): the value of the free cells it
    reaches in fewer moves than every other side, one move being a step to the free cells
    around it and the same-colour cells joined to them."""
    board = colours.board
    spread, fill, value_of = board.spread, board.fill, board.value_of
    targets = [(cells & free) | (colours.paint & free) for cells in colours.free_of[1:]]
    open_cells = free
    claimed = [0] * len(fronts)
    fronts = list(fronts)
    while any(fronts):
        grown = [race_step(spread, fill, front, open_cells, targets) for front in fronts]
        contested = 0
        for n, reached in enumerate(grown):
            for other in grown[n + 1 :]:
                contested |= reached & other
        for n, reached in enumerate(grown):
            fronts[n] = reached & ~contested
            claimed[n] |= fronts[n]
            open_cells &= ~reached
    return [value_of(cells) for cells in claimed]


def race_step(
    spread: Callable[[int], int],
    fill: Callable[[int, int], int],
    front: int,
    open_cells: int,
    targets: list[int],
) -> int:
    """One move of a side in :func:`race`: the open cells around ``front`` (by the
    board's ``spread``) and the cells of their colour (``targets``) joined to them."""
    around = spread(front) & open_cells
    reached = 0
    for target in targets:
        seeds = around & target
        if seeds:
            reached |= fill(seeds, target & open_cells)
    return reached


def allowed_colours(position: Position, seat: int) -> list[int]:
    """The colours ``seat`` could play in ``position`` as it stands."""
    return [c for c, reason in position.legal_colors(seat).items() if reason is None]


def active_sides(position: Position) -> list[int]:
    """Indices of the sides that still have a seat in play."""
    out = position.out
    return [n for n, side in enumerate(position.sides) if any(s not in out for s in side)]


def side_seats(position: Position) -> list[tuple[int, ...]]:
    """The seats still in play of each side that is still in play, in side order."""
    out = position.out
    return [tuple(s for s in position.sides[n] if s not in out) for n in active_sides(position)]


def side_territories(seats: list[tuple[int, ...]], masks: tuple[int, ...]) -> list[int]:
    """Per side (``seats`` as :func:`side_seats` gives them): its seats' territories."""
    fronts = []
    for side in seats:
        front = 0
        for seat in side:
            front |= masks[seat]
        fronts.append(front)
    return fronts
