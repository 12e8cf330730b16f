"""Fresh boards for the variants (SPEC §1-§2), deterministic per variant and seed.

Every draw comes from ``random.Random(f"{key}:{seed}")``, never the global generator, in a
fixed order, so the same variant and seed always give the same position. The guarantees:
start colours pairwise different; start territories not touching (cells where they would
are re-drawn); obstacles, walls, valuable and paint cells placed point-symmetrically, never
on a start, and obstacles and walls never cutting any cell off (so nothing is dead at the
start); enclosure applied; the position is never already over. A draw that fails the last
check is thrown away and the generator draws again (still deterministic).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from games.engine.board import Board
from games.engine.position import Position
from games.engine.topology import Grid, grid

ATTEMPTS = 100


class Recipe(Protocol):
    """What the generator reads from a variant (:class:`~games.engine.variants.Variant`
    has all of it): the board, the players and what is placed on the board."""

    @property
    def key(self) -> str: ...
    @property
    def shape(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def colors(self) -> int: ...
    @property
    def seats(self) -> int: ...
    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None: ...
    @property
    def pie(self) -> bool: ...
    @property
    def mirror(self) -> bool: ...
    @property
    def obstacles(self) -> int: ...
    @property
    def walls(self) -> int: ...
    @property
    def values(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def paint(self) -> int: ...


def start_cells(shape: str, width: int, height: int, seats: int) -> tuple[int, ...]:
    """Start cell per seat (SPEC §2): two seats bottom-left and top-right; four seats
    bottom-left, top-left, top-right, bottom-right; three (hexagon) bottom-left corner,
    top-left corner, right corner."""
    corners = _corners(grid(shape, width, height))
    names = corner_names(shape, seats)
    return tuple(corners[name] for name in names)


def corner_names(shape: str, seats: int) -> tuple[str, ...]:
    if seats == 2:
        return ("bottom-left", "top-right")
    if seats == 3 and shape == "hexagon":
        return ("bottom-left", "top-left", "right")
    if seats == 4:
        return ("bottom-left", "top-left", "top-right", "bottom-right")
    raise ValueError(f"no start corners for {seats} seats on a {shape} board")


def _corners(shape_grid: Grid) -> dict[str, int]:
    lengths = shape_grid.row_lengths
    last = len(lengths) - 1
    index = {rc: i for i, rc in enumerate(shape_grid.coords)}
    middle = last // 2
    return {
        "bottom-left": index[(last, 0)],
        "top-left": index[(0, 0)],
        "top-right": index[(0, lengths[0] - 1)],
        "bottom-right": index[(last, lengths[last] - 1)],
        "right": index[(middle, lengths[middle] - 1)],
    }


def generate(variant: Recipe, seed: int) -> Position:
    rng = random.Random(f"{variant.key}:{seed}")
    for _ in range(ATTEMPTS):
        position = _draw(variant, rng)
        if not position.is_over:
            return position
    raise RuntimeError(f"{variant.key}: no playable board in {ATTEMPTS} draws for seed {seed}")


def _draw(variant: Recipe, rng: random.Random) -> Position:
    shape_grid = grid(variant.shape, variant.width, variant.height)
    starts = start_cells(variant.shape, variant.width, variant.height, variant.seats)
    obstacles, walls = _obstacles_and_walls(variant, shape_grid, starts, rng)
    values, paint = _values_and_paint(variant, shape_grid, starts, obstacles, rng)
    board = Board.get(
        variant.shape,
        variant.width,
        variant.height,
        obstacles=obstacles,
        paint=paint,
        values=values,
        walls=walls,
    )
    colours = _colours(variant, board, starts, rng)
    territories = _separate(variant, board, colours, starts, rng)
    owners: list[int | None] = [None] * board.size
    for seat, cells in enumerate(territories):
        for cell in cells:
            owners[cell] = seat
    position = Position.from_layout_unchecked(
        board,
        variant.colors,
        colours,
        owners,
        tuple(colours[cell] for cell in starts),
        0,
        teams=variant.teams,
        pie=variant.pie,
    )
    return position.settled()


def _mirror(size: int, cell: int) -> int:
    """The cell opposite ``cell`` through the centre of the board."""
    return size - 1 - cell


def _obstacles_and_walls(
    variant: Recipe, shape_grid: Grid, starts: tuple[int, ...], rng: random.Random
) -> tuple[set[int], set[tuple[int, int]]]:
    size = shape_grid.size
    near_start = set(starts).union(*(shape_grid.neighbours[s] for s in starts))
    obstacles: set[int] = set()
    walls: set[tuple[int, int]] = set()
    if variant.obstacles:
        # pairs only (the centre is its own mirror), so the count comes out exact
        cells = [
            i
            for i in range(size)
            if i != _mirror(size, i) and not {i, _mirror(size, i)} & near_start
        ]
        rng.shuffle(cells)
        for cell in cells:
            pair = {cell, _mirror(size, cell)}
            if len(obstacles) + len(pair) > variant.obstacles or pair & obstacles:
                continue
            if _connected(shape_grid, obstacles | pair, walls):
                obstacles |= pair
    if variant.walls:
        edges = [
            (i, j)
            for i in range(size)
            for j in shape_grid.neighbours[i]
            if i < j and not {i, j} & (obstacles | set(starts))
        ]
        rng.shuffle(edges)
        for i, j in edges:
            mi, mj = _mirror(size, i), _mirror(size, j)
            pair = {(i, j), (min(mi, mj), max(mi, mj))}
            if len(walls) + len(pair) > variant.walls or pair & walls:
                continue
            if _connected(shape_grid, obstacles, walls | pair):
                walls |= pair
    return obstacles, walls


def _connected(shape_grid: Grid, obstacles: set[int], walls: Iterable[tuple[int, int]]) -> bool:
    """Every non-obstacle cell reachable from every other: no start is cut off and no
    region can be dead."""
    cut = set(walls)
    open_cells = [i for i in range(shape_grid.size) if i not in obstacles]
    seen = {open_cells[0]}
    todo = [open_cells[0]]
    while todo:
        i = todo.pop()
        for j in shape_grid.neighbours[i]:
            if j not in seen and j not in obstacles and (min(i, j), max(i, j)) not in cut:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(open_cells)


def _values_and_paint(
    variant: Recipe,
    shape_grid: Grid,
    starts: tuple[int, ...],
    obstacles: set[int],
    rng: random.Random,
) -> tuple[dict[int, int], set[int]]:
    values: dict[int, int] = {}
    paint: set[int] = set()
    if not (variant.values or variant.paint):
        return values, paint
    size = shape_grid.size
    blocked = set(starts) | obstacles
    # one cell of each symmetric pair; the centre (its own mirror) is left alone
    cells = [
        i
        for i in range(size)
        if i < _mirror(size, i) and i not in blocked and _mirror(size, i) not in blocked
    ]
    rng.shuffle(cells)
    picks = iter(cells)
    for value, count in variant.values:
        for _ in range(count // 2):
            cell = next(picks)
            values[cell] = values[_mirror(size, cell)] = value
    for _ in range(variant.paint // 2):
        cell = next(picks)
        paint |= {cell, _mirror(size, cell)}
    return values, paint


def _colours(
    variant: Recipe, board: Board, starts: tuple[int, ...], rng: random.Random
) -> list[int]:
    """A colour per cell (0 for obstacles and paint), start colours pairwise different."""
    k = variant.colors
    start_colours = rng.sample(range(1, k + 1), len(starts))
    blank = board.obstacles | board.paint
    colours = [0 if cell in blank else rng.randint(1, k) for cell in range(board.size)]
    for cell, colour in zip(starts, start_colours, strict=True):
        colours[cell] = colour
    if variant.mirror:
        # Vinco: cell n-1-i has the colour of cell i with A's and B's colours exchanged,
        # so the centre (its own mirror) never has a start colour
        a, b = start_colours
        exchange = {a: b, b: a}
        size = board.size
        for cell in range(size // 2):
            colours[_mirror(size, cell)] = exchange.get(colours[cell], colours[cell])
        if size % 2:
            colours[size // 2] = rng.choice([c for c in range(1, k + 1) if c not in (a, b)])
    return colours


def _territory(board: Board, colours: list[int], start: int) -> set[int]:
    colour = colours[start]
    cells = {start}
    todo = [start]
    while todo:
        for j in board.neighbours[todo.pop()]:
            if j not in cells and colours[j] == colour:
                cells.add(j)
                todo.append(j)
    return cells


def _separate(
    variant: Recipe,
    board: Board,
    colours: list[int],
    starts: tuple[int, ...],
    rng: random.Random,
) -> list[set[int]]:
    """Start territories, re-drawing cells (in place) until no two of them touch."""
    start_colours = {colours[cell] for cell in starts}
    others = [c for c in range(1, variant.colors + 1) if c not in start_colours]
    # every round re-draws at least one territory cell, so the loop ends
    for _ in range(board.size):
        territories = [_territory(board, colours, start) for start in starts]
        later_side, earlier_side = set(), set()
        for later in range(1, len(starts)):
            for earlier in range(later):
                for cell in territories[later]:
                    for j in board.neighbours[cell]:
                        if j in territories[earlier]:
                            later_side.add(cell)
                            earlier_side.add(j)
        if not later_side:
            return territories
        # re-draw on the later seat's side; its start cell itself stays
        redraw = sorted(later_side - set(starts)) or sorted(earlier_side - set(starts))
        if not redraw:
            raise RuntimeError(f"{variant.key}: start cells {starts} touch each other")
        for cell in redraw:
            # a colour no seat starts with never joins a start territory
            colours[cell] = rng.choice(others)
            if variant.mirror:
                colours[_mirror(board.size, cell)] = colours[cell]
    raise RuntimeError(f"{variant.key}: start territories still touch")
