"""Board shapes (SPEC §5): which cells a shape has and which of them touch.

Cells are numbered row-major from the top-left, 0-based, as in FPN. A cell's coordinates
are ``(row, column)`` with the column counted from the left end of its row: rows of a
``hexagon`` board are centred, so their first cells are not above each other.

>>> grid("hex", 3, 2).neighbours[1]  # (0, 1): same row ±1, below (1, 0) and (1, 1)
(0, 2, 3, 4)
>>> grid("hexagon", 2, 2).row_lengths
(2, 3, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

SHAPES = ("square", "hex", "rhombus", "hexagon")


@dataclass(frozen=True)
class Grid:
    """The cells of a shape and the neighbour relation before walls or obstacles."""

    shape: str
    width: int
    height: int
    coords: tuple[tuple[int, int], ...]
    row_lengths: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    # cells per row slot in the bit layout, one spare slot so that a row's end is never
    # next to the following row's start: horizontal shifts need no masks
    stride: int

    @property
    def size(self) -> int:
        return len(self.coords)

    def bit(self, cell: int) -> int:
        """Bit position of a cell in the bitboards of this grid."""
        r, c = self.coords[cell]
        return r * self.stride + c


def row_lengths(shape: str, width: int, height: int) -> tuple[int, ...]:
    """Cells per row; for ``hexagon`` the side is ``width`` (FPN writes ``8x8``)."""
    if shape == "hexagon":
        side = width
        return tuple(side + min(r, 2 * side - 2 - r) for r in range(2 * side - 1))
    return (width,) * height


def _touching(shape: str, side: int, r: int, c: int) -> list[tuple[int, int]]:
    """Coordinates that touch (r, c) on an unbounded board of the shape (SPEC §5)."""
    if shape == "square":
        return [(r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)]
    if shape in ("hex", "rhombus"):
        # odd rows are shifted right by half a cell
        left = c - 1 if r % 2 == 0 else c
        diagonal = [(r - 1, left), (r - 1, left + 1), (r + 1, left), (r + 1, left + 1)]
        if shape == "rhombus":
            return diagonal
        return [(r, c - 1), (r, c + 1), *diagonal]
    if shape == "hexagon":
        middle = side - 1
        # rows grow by one cell down to the middle row, then shrink
        up = [(r - 1, c - 1), (r - 1, c)] if r <= middle else [(r - 1, c), (r - 1, c + 1)]
        down = [(r + 1, c), (r + 1, c + 1)] if r < middle else [(r + 1, c - 1), (r + 1, c)]
        return [(r, c - 1), (r, c + 1), *up, *down]
    raise ValueError(f"unknown shape {shape!r}")


@lru_cache(maxsize=64)
def grid(shape: str, width: int, height: int) -> Grid:
    """The grid of a shape and size (cached: grids are shared by every board of that size)."""
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}")
    if width < 1 or height < 1:
        raise ValueError(f"a board needs at least one cell, got {width}x{height}")
    if shape == "hexagon" and width != height:
        raise ValueError(f"a hexagon board is given by its side as NxN, got {width}x{height}")
    lengths = row_lengths(shape, width, height)
    coords = tuple((r, c) for r, length in enumerate(lengths) for c in range(length))
    index = {rc: i for i, rc in enumerate(coords)}
    neighbours = tuple(
        tuple(sorted(index[rc] for rc in _touching(shape, width, r, c) if rc in index))
        for r, c in coords
    )
    for i, around in enumerate(neighbours):
        for j in around:
            assert i in neighbours[j], f"{shape}: {i} touches {j} but not the reverse"
    return Grid(shape, width, height, coords, lengths, neighbours, max(lengths) + 1)
