"""A sparring partner for level 4: a plain alpha-beta player, as the public Filler
programs play, on our own bitboards (``games.engine.bots.bitboard``).

What it knows and what it does not, on purpose:

- a move expands the mover's territory one step: the chain of the colour, nothing more
  (it knows no enclosure, no dead cells and no equator: it plays to a full board);
- moves are ordered by what they gain, and a move gaining nothing is searched only
  when no move gains anything;
- a leaf is worth the difference in cells;
- iterative deepening from 1 ply up to :data:`MAX_DEPTH` plies, within a budget of
  searched positions; the answer is the best move of the deepest finished iteration.

It is deterministic (ties go to the lower colour) and plays any two-seat square, hex or
rhombus position. ``no_equal_neighbours`` makes the other kind of board it is tested on:
8x7, six colours, no two orthogonal neighbours of one colour.

>>> from games.engine import Position
>>> pos = Position.from_text("square 4x2 4 12BB/AA34 1,2 A")
>>> Sparring(pos, budget=1000).best()
3
"""

from __future__ import annotations

import random

from games.engine.bots.bitboard import Game, state_of
from games.engine.position import Position

MAX_DEPTH = 40
BUDGET = 60_000  # searched positions per move: about level 4's time on Fast boards


class _Spent(Exception):
    pass


class Sparring:
    """One decision of the sparring partner: ``Sparring(position).best()``."""

    def __init__(self, position: Position, budget: int = BUDGET) -> None:
        self.game = Game.of(position)
        self.root = state_of(position)
        self.budget = budget
        self.nodes = 0
        self.depth = 0

    def _moves(self, own: int, free: int, mine: int, theirs: int) -> list[tuple[int, int, int]]:
        """(cells gained, colour, cells) per colour that gains, the most first; every legal
        colour with no cells when none gains."""
        game = self.game
        edge = game.spread(own) & free
        fill, targets = game.fill, game.targets
        found = []
        for colour in range(1, game.colours + 1):
            if colour in (mine, theirs):
                continue
            target = targets[colour] & free
            seeds = edge & target
            if seeds:
                cells = fill(seeds, target)
                found.append((-cells.bit_count(), colour, cells))
        if not found:
            return [(0, c, 0) for c in range(1, game.colours + 1) if c != mine and c != theirs]
        found.sort(key=lambda item: (item[0], item[1]))
        return found

    def _value(
        self, own: int, other: int, mine: int, theirs: int, depth: int, alpha: int, beta: int
    ) -> int:
        """Negamax value for the mover (territory ``own``, colour ``mine``)."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Spent
        free = self.game.playable & ~(own | other)
        if depth == 0 or not free:
            return own.bit_count() - other.bit_count()
        best = -10_000
        for _, colour, cells in self._moves(own, free, mine, theirs):
            value = -self._value(other, own | cells, theirs, colour, depth - 1, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def best(self) -> int:
        """The colour to play."""
        a, b, ca, cb, mover = self.root
        own, other = (a, b) if mover == 0 else (b, a)
        mine, theirs = (ca, cb) if mover == 0 else (cb, ca)
        free = self.game.playable & ~(own | other)
        order = self._moves(own, free, mine, theirs)
        choice = order[0][1]
        for depth in range(1, MAX_DEPTH + 1):
            try:
                values = []
                alpha = -10_000
                for _, colour, cells in order:
                    value = -self._value(
                        other, own | cells, theirs, colour, depth - 1, -10_000, -alpha
                    )
                    values.append(value)
                    alpha = max(alpha, value)
            except _Spent:
                break
            # stable: a later move that only ties the best holds a bound, not a value
            ranked = sorted(range(len(order)), key=lambda i: -values[i])
            order = [order[i] for i in ranked]
            choice, self.depth = order[0][1], depth
            if self._settled(own, other, depth):
                break
        return choice

    def _settled(self, own: int, other: int, depth: int) -> bool:
        # deeper than the free cells left: every line reached a full board or no gain
        free = self.game.playable & ~(own | other)
        return depth > 2 * free.bit_count()


def no_equal_neighbours(seed: int, width: int = 8, height: int = 7) -> Position:
    """A bare FPN board of six colours where no two orthogonal neighbours share a colour
    (the board of no variant), A bottom-left, B top-right, A to move."""
    rng = random.Random(f"no-equal:{seed}")
    while True:
        rows: list[list[int]] = []
        for r in range(height):
            row: list[int] = []
            for c in range(width):
                banned = {row[c - 1] if c else 0, rows[r - 1][c] if r else 0}
                row.append(rng.choice([k for k in range(1, 7) if k not in banned]))
            rows.append(row)
        a, b = rows[-1][0], rows[0][-1]
        if a != b:
            break
    text = ["".join(map(str, row)) for row in rows]
    text[-1] = "A" + text[-1][1:]
    text[0] = text[0][:-1] + "B"
    return Position.from_text(f"square {width}x{height} 6 {'/'.join(text)} {a},{b} A")
