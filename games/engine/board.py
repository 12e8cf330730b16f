"""The static board of a game: shape, obstacles, paint cells, cell values and walls.

A :class:`Board` is immutable and shared by every position of a game; boards are cached
by their definition, so ``Board.get`` with the same arguments returns the same object.

The rules work on bitboards: a set of cells is a Python ``int`` with one bit per cell.
Cell ``(row, col)`` sits at bit ``row * stride + col`` where a row slot is one cell wider
than the widest row, so a shift by one never carries a row's end into the next row.
Every other direction is one shift and, only where a shift could land on a cell that
is not a neighbour (parity-dependent hex rows, walls), one mask. The neighbour step and
the flood fill built on it are compiled per board into straight-line Python so the hot
loop does no per-direction iteration.

>>> board = Board.get("square", 3, 2, walls=[(0, 1)])
>>> board.neighbours[0], board.size
((3,), 6)
>>> sorted(board.cells_of(board.fill(board.mask_of([0]), board.playable)))
[0, 1, 2, 3, 4, 5]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

from games.engine.topology import grid

Walls = frozenset[tuple[int, int]]


class Board:
    """Shape and static cells of a game (see the module docstring for the bitboards)."""

    __slots__ = (
        "_cell_at",
        "_key",
        "bits",
        "coords",
        "fill",
        "height",
        "neighbours",
        "obstacles",
        "paint",
        "paint_mask",
        "playable",
        "reach",
        "row_lengths",
        "shape",
        "size",
        "spread",
        "total_value",
        "value_of",
        "values",
        "walls",
        "width",
    )

    shape: str
    width: int
    height: int
    size: int
    coords: tuple[tuple[int, int], ...]
    row_lengths: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    obstacles: frozenset[int]
    paint: frozenset[int]
    values: tuple[int, ...]
    walls: Walls
    # bitboard API used by the rules
    bits: tuple[int, ...]  # bit position of each cell
    playable: int  # every cell that is not an obstacle
    paint_mask: int
    total_value: int  # value of every playable cell
    spread: Callable[[int], int]  # cells next to a set of cells (playable cells only)
    fill: Callable[[int, int], int]  # fill(seed, within): cells of `within` connected to `seed`
    reach: Callable[[int, int, int], tuple[int, bool]]
    value_of: Callable[[int], int]  # total value of a set of cells

    def __init__(self) -> None:
        raise TypeError("use Board.get(shape, width, height, ...)")

    @staticmethod
    def get(
        shape: str,
        width: int,
        height: int,
        *,
        obstacles: Iterable[int] = (),
        paint: Iterable[int] = (),
        values: Mapping[int, int] | None = None,
        walls: Iterable[tuple[int, int]] = (),
    ) -> Board:
        """The board with this definition (cached). ``values`` maps cells to values other
        than 1; ``walls`` are pairs of neighbouring cells, in either order."""
        value_items = tuple(sorted((i, v) for i, v in (values or {}).items() if v != 1))
        wall_set = frozenset((min(i, j), max(i, j)) for i, j in walls)
        return _build(
            shape, width, height, frozenset(obstacles), frozenset(paint), value_items, wall_set
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Board is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        shape, width, height, obstacles, paint, values, walls = self._key
        extras = "".join(
            f", {name}={value!r}"
            for name, value in (
                ("obstacles", sorted(obstacles)),
                ("paint", sorted(paint)),
                ("values", dict(values)),
                ("walls", sorted(walls)),
            )
            if value
        )
        return f"Board.get({shape!r}, {width}, {height}{extras})"

    def __reduce__(self) -> tuple[object, ...]:
        # pickling (e.g. a cache) keeps the one-board-per-definition rule
        return (_build, self._key)

    def mask_of(self, cells: Iterable[int]) -> int:
        """The bitboard of a set of cell indices."""
        bits = self.bits
        mask = 0
        for cell in cells:
            mask |= 1 << bits[cell]
        return mask

    def cells_of(self, mask: int) -> frozenset[int]:
        """The cell indices of a bitboard."""
        cell_at = self._cell_at
        cells = []
        while mask:
            low = mask & -mask
            cells.append(cell_at[low.bit_length() - 1])
            mask ^= low
        return frozenset(cells)


@lru_cache(maxsize=256)
def _build(
    shape: str,
    width: int,
    height: int,
    obstacles: frozenset[int],
    paint: frozenset[int],
    values: tuple[tuple[int, int], ...],
    walls: Walls,
) -> Board:
    shape_grid = grid(shape, width, height)
    size = shape_grid.size
    for name, cells in (("obstacle", obstacles), ("paint", paint)):
        for cell in cells:
            if not 0 <= cell < size:
                raise ValueError(f"{name} cell {cell} is not on a board of {size} cells")
    if obstacles & paint:
        raise ValueError(f"cells {sorted(obstacles & paint)} are both obstacle and paint")
    for cell, value in values:
        if not 0 <= cell < size or cell in obstacles or not 1 <= value <= 3:
            raise ValueError(f"cell {cell} cannot have value {value}")
    for i, j in walls:
        if not 0 <= i < size or j not in shape_grid.neighbours[i]:
            raise ValueError(f"cells {i} and {j} are not neighbours, so no wall between them")

    neighbours = tuple(
        tuple(j for j in around if (min(i, j), max(i, j)) not in walls)
        for i, around in enumerate(shape_grid.neighbours)
    )
    bits = tuple(shape_grid.bit(i) for i in range(size))
    playable_cells = [i for i in range(size) if i not in obstacles]
    value_list = [1] * size
    for cell, value in values:
        value_list[cell] = value

    board = object.__new__(Board)
    fields = {
        "_key": (shape, width, height, obstacles, paint, values, walls),
        "_cell_at": {bit: i for i, bit in enumerate(bits)},
        "shape": shape,
        "width": width,
        "height": height,
        "size": size,
        "coords": shape_grid.coords,
        "row_lengths": shape_grid.row_lengths,
        "neighbours": neighbours,
        "obstacles": obstacles,
        "paint": paint,
        "values": tuple(value_list),
        "walls": walls,
        "bits": bits,
        "playable": sum(1 << bits[i] for i in playable_cells),
        "paint_mask": sum(1 << bits[i] for i in paint),
        "total_value": sum(value_list[i] for i in playable_cells),
    }
    playable = fields["playable"]
    fields["spread"], fields["fill"], fields["reach"] = _compile(
        _directions(bits, neighbours, playable_cells), playable
    )
    fields["value_of"] = _value_counter(bits, values)
    for name, value in fields.items():
        object.__setattr__(board, name, value)
    return board


def _directions(
    bits: tuple[int, ...], neighbours: tuple[tuple[int, ...], ...], playable: list[int]
) -> list[tuple[int, int | None]]:
    """(shift, source mask or None) per bit offset between neighbouring playable cells.

    A mask is kept only where shifting some playable cell by the offset would land on a
    playable cell that is not its neighbour; other stray bits land on spare slots or
    obstacles and are cleared by the AND with the cells being filled.
    """
    playable_set = set(playable)
    sources: dict[int, set[int]] = {}
    for i in playable:
        for j in neighbours[i]:
            if j in playable_set:
                sources.setdefault(bits[j] - bits[i], set()).add(i)
    playable_bits = {bits[i] for i in playable}
    directions: list[tuple[int, int | None]] = []
    for delta in sorted(sources, key=lambda d: (abs(d), -d)):
        cells = sources[delta]
        stray = any(bits[i] + delta in playable_bits for i in playable if i not in cells)
        directions.append((delta, sum(1 << bits[i] for i in cells) if stray else None))
    return directions


_TEMPLATE = """
def build(playable, {params}):
    def spread(x):
        return ({step_x}) & playable

    def fill(seed, within):
        rest = within ^ seed
        front = seed
        while front:
            front = ({step_front}) & rest
            rest ^= front
        return within ^ rest

    def reach(seed, within, stop):
        rest = within ^ seed
        front = seed
        while front:
            if front & stop:
                return within ^ rest, True
            front = ({step_front}) & rest
            rest ^= front
        return within ^ rest, False

    return spread, fill, reach
"""


def _compile(
    directions: list[tuple[int, int | None]], playable: int
) -> tuple[
    Callable[[int], int], Callable[[int, int], int], Callable[[int, int, int], tuple[int, bool]]
]:
    """Straight-line neighbour step and flood fills for one board.

    ``fill(seed, within)`` and ``reach(seed, within, stop)`` expect ``seed`` inside
    ``within``; ``reach`` stops as soon as the filled cells meet ``stop`` and says whether
    they did (the cells it returns are then only part of the component).
    """
    masks = [mask for _, mask in directions if mask is not None]
    params = ", ".join(f"m{n}" for n in range(len(masks)))

    def step(var: str) -> str:
        terms, n = [], 0
        for delta, mask in directions:
            source = var
            if mask is not None:
                source, n = f"({var} & m{n})", n + 1
            terms.append(f"{source} << {delta}" if delta > 0 else f"{source} >> {-delta}")
        return " | ".join(f"({term})" for term in terms) or "0"

    source = _TEMPLATE.format(
        params=params + ("," if params else ""), step_x=step("x"), step_front=step("front")
    )
    namespace: dict[str, object] = {}
    exec(compile(source, "<games.engine.board step>", "exec"), namespace)
    return namespace["build"](playable, *masks)  # type: ignore[operator]


def _value_counter(
    bits: tuple[int, ...], values: tuple[tuple[int, int], ...]
) -> Callable[[int], int]:
    if not values:
        return int.bit_count
    # a value-2 cell counts once more, a value-3 cell twice more
    plus_one = sum(1 << bits[i] for i, v in values if v >= 2)
    plus_two = sum(1 << bits[i] for i, v in values if v == 3)

    def value_of(mask: int) -> int:
        return mask.bit_count() + (mask & plus_one).bit_count() + (mask & plus_two).bit_count()

    return value_of
