"""The twelve variants (topics) of SPEC §2 as data, and their board generators.

>>> variant = VARIANTS["classic"]
>>> variant.name, variant.cell_count, variant.games, variant.corners
('Classic 15×15', 225, 2, ('bottom-left', 'top-right'))
>>> variant.new_position(seed=7) == variant.new_position(seed=7)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from games.engine.generate import corner_names, generate, start_cells
from games.engine.position import Position
from games.engine.topology import grid

RatedScale = Literal["fast", "classic", "hex", "four", "pairs"]
PAIRS = ((0, 2), (1, 3))


@dataclass(frozen=True)
class Variant:
    """One variant: its board, players, rating scale, format and what the generator adds.

    ``obstacles``, ``walls``, ``paint`` are numbers of cells (walls: of walls) placed
    point-symmetrically; ``values`` lists (value, number of cells); ``mirror``: colours
    point-symmetric up to A's and B's start colours (Vinco).
    """

    key: str
    name: str
    shape: str
    width: int
    height: int
    colors: int
    seats: int
    teams: tuple[tuple[int, ...], ...] | None = None
    rated_scale: RatedScale | None = None
    format: Literal["match", "single"] = "match"
    pie: bool = False
    mirror: bool = False
    obstacles: int = 0
    walls: int = 0
    values: tuple[tuple[int, int], ...] = ()
    paint: int = 0
    boards: tuple[str, ...] = ()  # practice: the variants whose boards it offers

    @property
    def games(self) -> int:
        """Games per match: 2 for a match, 1 for a single game."""
        return 2 if self.format == "match" else 1

    @property
    def cell_count(self) -> int:
        """Cells of the board shape (obstacles included)."""
        return grid(self.shape, self.width, self.height).size

    @property
    def start_cells(self) -> tuple[int, ...]:
        """Start cell per seat in game 1."""
        return start_cells(self.shape, self.width, self.height, self.seats)

    @property
    def corners(self) -> tuple[str, ...]:
        """Name of each seat's start corner in game 1 ("bottom-left", ...)."""
        return corner_names(self.shape, self.seats)

    def new_position(self, seed: int, board: str | None = None) -> Position:
        """The fresh position for ``seed`` (deterministic). Practice plays on one of its
        ``boards`` (default ``"fast"``) and gives exactly that variant's position."""
        if self.boards:
            board = board or self.boards[0]
            if board not in self.boards:
                raise ValueError(
                    f"{self.key} offers the boards {', '.join(self.boards)}, not {board!r}"
                )
            return VARIANTS[board].new_position(seed)
        if board not in (None, self.key):
            raise ValueError(f"{self.key} has only its own board, not {board!r}")
        return generate(self, seed)


def _square(
    key: str, name: str, size: tuple[int, int], colors: int = 7, **extra: object
) -> Variant:
    return Variant(key, name, "square", size[0], size[1], colors, 2, **extra)  # type: ignore[arg-type]


VARIANTS: MappingProxyType[str, Variant] = MappingProxyType(
    {
        "fast": _square("fast", "Fast 8×7", (8, 7), colors=6, rated_scale="fast"),
        "classic": _square("classic", "Classic 15×15", (15, 15), rated_scale="classic"),
        "hex": Variant("hex", "Hexagons 13×11", "hex", 13, 11, 7, 2, rated_scale="hex"),
        "vinco": _square("vinco", "Vinco", (15, 15), format="single", pie=True, mirror=True),
        "rhombus": Variant("rhombus", "Rhombi", "rhombus", 11, 21, 7, 2),
        "big": _square("big", "Big board 21×21", (21, 21)),
        # ~8 % of 225 cells, ~30 walls
        "walls": _square("walls", "Obstacles and walls", (15, 15), obstacles=18, walls=30),
        # ~8 % worth 2, ~3 % worth 3, ~3 % paint, in symmetric pairs
        "values": _square(
            "values", "Valuable cells and paints", (15, 15), values=((2, 18), (3, 6)), paint=6
        ),
        "three": Variant("three", "Three starts", "hexagon", 8, 8, 8, 3, format="single"),
        "four": Variant("four", "Four players", "square", 16, 16, 8, 4, rated_scale="four"),
        "pairs": Variant(
            "pairs", "Pairs", "square", 16, 16, 8, 4, teams=PAIRS, rated_scale="pairs"
        ),
        "practice": Variant(
            "practice",
            "Practice",
            "square",
            8,
            7,
            6,
            2,
            format="single",
            boards=("fast", "classic", "hex", "big", "rhombus"),
        ),
    }
)
