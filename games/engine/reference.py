"""A plain reference implementation of the rules of Filler (SPEC §1, §3, §5), for checking
the fast engine, never for playing.

The fast engine (``position.py``, ``rules.py``, ``board.py``) works on bitboards with
compiled neighbour steps, incremental enclosure and shortcuts for two sides. This module
does the same job the obvious way, so that the two can be compared move by move
(``tests/engine/test_differential.py``) and timed against each other (``bench/engine.py``):

- its own neighbour relation, computed here from SPEC §5's formulas on (row, column)
  coordinates, with walls removed and obstacles left out;
- the state is the FPN cell string itself (``"1"``-``"9"`` free, ``"A"``-``"D"`` owned,
  ``"#"`` obstacle, ``"*"`` free paint), one character per cell;
- sets and breadth-first search only, everything computed from the position's own cells
  (nothing carried over from the previous position): after each move every free region
  is examined, as SPEC §1 says, not only those next to the gain.

Only FPN parsing and writing (``notation.parse`` / ``notation.write``) and the error type
are shared with the engine.

>>> pos = ReferencePosition.from_text("square 5x3 6 1234B/33332/A4121 5,6 A")
>>> sorted(pos.gain(3))
[0, 1, 2, 5, 6, 7, 8]
>>> after = pos.play(3)
>>> after.scores, after.needed_to_win, after.is_over, after.winners
((8, 1), 8, True, (0,))
>>> after.to_text()
'square 5x3 6 AAA4B/AAAA2/A4121 3,6 B'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property

from games.engine.errors import IllegalMove
from games.engine.notation import LETTERS, Fpn, parse, write

FREE_COLOURS = "123456789"
PAINT = "*"
OBSTACLE = "#"


# --- the board's shape (SPEC §5) ----------------------------------------------------------


def row_lengths(shape: str, width: int, height: int) -> list[int]:
    """Cells per row, top to bottom. A ``hexagon`` of side s has rows of s, s+1, ...,
    2s-1, ..., s cells."""
    if shape == "hexagon":
        side = width
        up = list(range(side, 2 * side))
        return up + up[-2::-1]
    return [width] * height


def touching(shape: str, side: int, r: int, c: int) -> list[tuple[int, int]]:
    """The (row, column) pairs SPEC §5 names as neighbours of (r, c), on or off the board.
    For ``hexagon`` only the same row and the row below are named; the rest follows from
    symmetry (see :func:`neighbour_sets`)."""
    if shape == "square":
        return [(r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)]
    if shape in ("hex", "rhombus"):
        if r % 2 == 0:
            diagonal = [(r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
        else:
            diagonal = [(r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
        same_row = [(r, c - 1), (r, c + 1)] if shape == "hex" else []
        return same_row + diagonal
    if shape == "hexagon":
        # rows grow by one cell down to the middle row (r = side - 1), then shrink
        left = c if r < side - 1 else c - 1
        below = [(r + 1, left), (r + 1, left + 1)]
        return [(r, c - 1), (r, c + 1), *below]
    raise ValueError(f"unknown shape {shape!r}")


def neighbour_sets(
    shape: str,
    width: int,
    height: int,
    *,
    walls: Iterable[tuple[int, int]] = (),
    obstacles: Iterable[int] = (),
) -> list[set[int]]:
    """Per cell index: the cells it touches. The relation is made symmetric (every pair
    named either way round is a pair), then walls and obstacles are taken out."""
    lengths = row_lengths(shape, width, height)
    index = {}
    for r, length in enumerate(lengths):
        for c in range(length):
            index[(r, c)] = len(index)
    neighbours: list[set[int]] = [set() for _ in index]
    for (r, c), i in index.items():
        for rc in touching(shape, width, r, c):
            if rc in index:
                neighbours[i].add(index[rc])
                neighbours[index[rc]].add(i)
    blocked = set(obstacles)
    for i, j in walls:
        neighbours[i].discard(j)
        neighbours[j].discard(i)
    return [set() if i in blocked else around - blocked for i, around in enumerate(neighbours)]


# --- positions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ReferencePosition:
    """A position, as plain data: ``cells`` holds one FPN character per cell."""

    fpn: Fpn  # the line this game was read from: shape, size, values and walls
    neighbours: tuple[frozenset[int], ...]
    values: tuple[int, ...]  # per cell
    cells: tuple[str, ...]
    seat_colors: tuple[int, ...]
    to_move: int
    teams: tuple[tuple[int, ...], ...]
    pie: bool
    out: tuple[int, ...]
    resigned: tuple[int, ...]

    @classmethod
    def from_text(cls, text: str) -> ReferencePosition:
        return cls.from_fpn(parse(text))

    @classmethod
    def from_fpn(cls, fpn: Fpn) -> ReferencePosition:
        """The position of a parsed FPN line (``notation.parse``)."""
        seats = len(fpn.seat_colors)
        neighbours = neighbour_sets(
            fpn.shape,
            fpn.width,
            fpn.height,
            walls=fpn.walls,
            obstacles=[i for i, char in enumerate(fpn.cells) if char == OBSTACLE],
        )
        return cls(
            fpn=fpn,
            neighbours=tuple(map(frozenset, neighbours)),
            values=tuple(dict(fpn.values).get(cell, 1) for cell in range(len(fpn.cells))),
            cells=tuple(fpn.cells),
            seat_colors=fpn.seat_colors,
            to_move=fpn.to_move,
            teams=fpn.teams or tuple((seat,) for seat in range(seats)),
            pie=fpn.pie,
            out=fpn.out,
            resigned=fpn.resigned,
        )

    def to_text(self) -> str:
        return write(
            replace(
                self.fpn,
                cells="".join(self.cells),
                seat_colors=self.seat_colors,
                to_move=self.to_move,
                teams=self.teams,
                pie=self.pie,
                out=self.out,
                resigned=self.resigned,
            )
        )

    # --- plain reading ----------------------------------------------------------------

    @property
    def seats(self) -> int:
        return len(self.seat_colors)

    @property
    def colors(self) -> int:
        return self.fpn.colors

    @cached_property
    def territories(self) -> tuple[frozenset[int], ...]:
        """Per seat: the cells it owns."""
        return tuple(
            frozenset(i for i, char in enumerate(self.cells) if char == LETTERS[seat])
            for seat in range(self.seats)
        )

    def territory(self, seat: int) -> frozenset[int]:
        return self.territories[seat]

    def side_of(self, seat: int) -> int:
        return next(n for n, team in enumerate(self.teams) if seat in team)

    @property
    def active(self) -> list[int]:
        return [seat for seat in range(self.seats) if seat not in self.out]

    @property
    def can_swap(self) -> bool:
        return self.pie and self.to_move == 1 and not self.is_over

    # --- free regions -----------------------------------------------------------------

    @cached_property
    def regions(self) -> list[tuple[frozenset[int], tuple[int, ...]]]:
        """Every connected region of free cells, with the active seats bordering it
        (sorted; none: the region is dead)."""
        return regions_of(self.cells, self.neighbours, self.active)

    @property
    def dead(self) -> frozenset[int]:
        return frozenset(cell for region, border in self.regions if not border for cell in region)

    @property
    def countable(self) -> int:
        """Value of every cell that is neither an obstacle nor dead."""
        dead = self.dead
        return sum(
            self.values[i]
            for i, char in enumerate(self.cells)
            if char != OBSTACLE and i not in dead
        )

    # --- moves ------------------------------------------------------------------------

    def legal_colors(self, seat: int | None = None) -> dict[int, str | None]:
        """``{colour: None | "own" | "opponent"}``; every colour ``"game_over"`` once the
        game has ended. Opponents are the active seats of the other sides."""
        colours = range(1, self.colors + 1)
        if self.is_over:
            return dict.fromkeys(colours, "game_over")
        seat = self.to_move if seat is None else seat
        reasons: dict[int, str | None] = dict.fromkeys(colours)
        for other in self.active:
            if self.side_of(other) != self.side_of(seat):
                reasons[self.seat_colors[other]] = "opponent"
        reasons[self.seat_colors[seat]] = "own"
        return reasons

    def _check(self, colour: object) -> int:
        if isinstance(colour, bool) or not isinstance(colour, int):
            raise IllegalMove("palette", f"not a colour: {colour!r}")
        if not 1 <= colour <= self.colors:
            raise IllegalMove("palette", f"colour {colour} is not in the palette")
        reason = self.legal_colors()[colour]
        if reason is not None:
            raise IllegalMove(reason, f"colour {colour}: {reason}")  # type: ignore[arg-type]
        return colour

    def gain(self, colour: int) -> frozenset[int]:
        """Cells the seat to move takes with ``colour``: the chain, then enclosure."""
        mover = LETTERS[self.to_move]
        after = self.play(colour).cells
        return frozenset(i for i, char in enumerate(self.cells) if after[i] == mover != char)

    def play(self, move: int | str) -> ReferencePosition:
        if move == "swap":
            return self.swap()
        colour = self._check(move)
        mover = self.to_move
        cells = list(self.cells)
        # the chain: free cells of the colour, and paint, reachable from the territory
        wanted = {str(colour), PAINT}
        todo = deque(self.territory(mover))
        while todo:
            for j in self.neighbours[todo.popleft()]:
                if cells[j] in wanted:
                    cells[j] = LETTERS[mover]
                    todo.append(j)
        settle(cells, self.neighbours, self.active, self.side_of, mover)
        seat_colors = list(self.seat_colors)
        seat_colors[mover] = colour
        return replace(
            self,
            cells=tuple(cells),
            seat_colors=tuple(seat_colors),
            to_move=self._next_active(mover, self.out),
            pie=self.pie and mover == 0,
        )

    def swap(self) -> ReferencePosition:
        """The pie rule: A and B exchange territories and colours; A moves next."""
        if self.is_over:
            raise IllegalMove("game_over", "the game is over")
        if not self.can_swap:
            raise IllegalMove("swap", "swap is not allowed now")
        exchange = {"A": "B", "B": "A"}
        a, b = self.seat_colors
        return replace(
            self,
            cells=tuple(exchange.get(char, char) for char in self.cells),
            seat_colors=(b, a),
            to_move=0,
            pie=False,
        )

    def with_out(self, seat: int) -> ReferencePosition:
        """``seat`` is out (three or four seats, each for itself); the regions are settled
        again with the active seats only."""
        if len(self.teams) < 3 or any(len(team) > 1 for team in self.teams):
            raise ValueError("only three or four seats each playing for itself go out")
        if seat in self.out:
            raise ValueError("already out")
        if self.is_over:
            raise IllegalMove("game_over", "the game is over")
        out = (*self.out, seat)
        active = [s for s in range(self.seats) if s not in out]
        cells = list(self.cells)
        settle(cells, self.neighbours, active, self.side_of, None)
        to_move = self._next_active(seat, out) if self.to_move == seat else self.to_move
        return replace(self, cells=tuple(cells), out=out, to_move=to_move)

    def concede(self, seat: int) -> ReferencePosition:
        """``seat``'s side gives up the game. Two sides: each free region that is not dead
        goes to the lowest seat of the other side bordering it (else that side's lowest
        seat). More sides: the seat is out."""
        if len(self.teams) > 2:
            return self.with_out(seat)
        if self.is_over:
            raise IllegalMove("game_over", "the game is over")
        loser = self.teams[self.side_of(seat)]
        winner = self.teams[1 - self.side_of(seat)]
        cells = list(self.cells)
        for region, border in self.regions:
            if border:
                takers = [s for s in border if s in winner] or [winner[0]]
                for cell in region:
                    cells[cell] = LETTERS[takers[0]]
        return replace(self, cells=tuple(cells), resigned=loser)

    def _next_active(self, after: int, out: tuple[int, ...]) -> int:
        for step in range(1, self.seats + 1):
            seat = (after + step) % self.seats
            if seat not in out:
                return seat
        raise ValueError("no active seat")

    # --- scores and the end -------------------------------------------------------------

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(sum(self.values[i] for i in cells) for cells in self.territories)

    @property
    def side_scores(self) -> tuple[int, ...]:
        scores = self.scores
        return tuple(sum(scores[seat] for seat in team) for team in self.teams)

    @property
    def potentials(self) -> tuple[int, ...]:
        """Per seat: its score plus each free region (not dead) it borders."""
        potentials = list(self.scores)
        for region, border in self.regions:
            value = sum(self.values[i] for i in region)
            for seat in border:
                potentials[seat] += value
        return tuple(potentials)

    @property
    def side_potentials(self) -> tuple[int, ...]:
        """Per side: its score plus each free region (not dead) one of its seats borders."""
        potentials = list(self.side_scores)
        for region, border in self.regions:
            value = sum(self.values[i] for i in region)
            for side in {self.side_of(seat) for seat in border}:
                potentials[side] += value
        return tuple(potentials)

    @cached_property
    def winners(self) -> tuple[int, ...]:
        """Seats of the winning side; all seats of every side tied for the top score on
        a draw; empty while the game goes on (SPEC §1).

        The game ends when a side's score is above every other side's potential, or when
        no free cell that is not dead is left. Only sides with a seat still in compete:
        out seats rank below active ones, so they neither win nor keep a decided game
        going, and a single active side left has nobody to beat and wins. A side that
        conceded (FPN ``r=``) loses whatever the score."""
        if self.resigned:
            return self.teams[1 - self.side_of(self.resigned[0])]
        scores, potentials = self.side_scores, self.side_potentials
        active = [n for n, team in enumerate(self.teams) if any(s not in self.out for s in team)]
        decided = any(all(scores[a] > potentials[b] for b in active if b != a) for a in active)
        anything_free = any(border for _, border in self.regions)
        if not decided and anything_free:
            return ()
        top = max(scores[n] for n in active)
        return tuple(sorted(s for n in active if scores[n] == top for s in self.teams[n]))

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def needed_to_win(self) -> int | None:
        """Two sides: more than half of the countable value."""
        return self.countable // 2 + 1 if len(self.teams) == 2 else None


# --- the rules on a cell list -------------------------------------------------------------


def regions_of(
    cells: list[str] | tuple[str, ...],
    neighbours: tuple[frozenset[int], ...],
    active: list[int],
) -> list[tuple[frozenset[int], tuple[int, ...]]]:
    """Connected regions of free cells (breadth-first), each with the active seats that
    own a cell next to it."""
    owner = {LETTERS[seat]: seat for seat in active}
    free = [char in FREE_COLOURS or char == PAINT for char in cells]
    seen: set[int] = set()
    found = []
    for start in range(len(cells)):
        if start in seen or not free[start]:
            continue
        region = {start}
        border: set[int] = set()
        todo = deque([start])
        while todo:
            for j in neighbours[todo.popleft()]:
                if free[j]:
                    if j not in region:
                        region.add(j)
                        todo.append(j)
                elif cells[j] in owner:
                    border.add(owner[cells[j]])
        seen |= region
        found.append((frozenset(region), tuple(sorted(border))))
    return found


def settle(
    cells: list[str],
    neighbours: tuple[frozenset[int], ...],
    active: list[int],
    side_of: Callable[[int], int],
    mover: int | None,
) -> None:
    """Enclosure (SPEC §1), in place: each free region whose bordering active seats all
    belong to one side goes to the mover if it borders it, else to the lowest of them."""
    for region, border in regions_of(cells, neighbours, active):
        if border and len({side_of(seat) for seat in border}) == 1:
            taker = mover if mover in border else border[0]
            for cell in region:
                cells[cell] = LETTERS[taker]
