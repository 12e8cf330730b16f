"""Level 4 on two-seat boards: negamax alpha-beta on the bitboard core
(:mod:`games.engine.bots.bitboard`), with iterative deepening and a transposition table.

What it does that a plain alpha-beta does not (docs/bots.md has the measurements):

- **the rules as they are**: a move takes its chain and every region it encloses, and a
  game ends as soon as a seat holds more than half the countable value, so a line is
  cut where the game really ends and its value is the real final margin;
- **a transposition table** keyed by the state itself (both territories and both
  colours: exact, no hashing collisions), holding each position's value or bound, the
  depth it was searched to and its best colour, which is tried first when the position
  comes again; a subtree searched to its end is kept as solved at every depth, so the
  end of the game is solved once and then read back (the exact solver);
- **moves ordered** by the best colour found before, then by what they gain; a colour
  that gains nothing is searched only when it takes away a colour the opponent touches
  (a block), or when no colour gains;
- **a leaf's value** is the lead, plus what the seat to move can take at once (it has the
  tempo), plus the race for the free cells (those a side reaches in fewer moves than the
  other, :func:`~games.engine.bots.view.race`: the regions nobody else can reach first).

The search counts every position it makes, leaves and ends included, and never makes
more than its budget; the answer is the best colour of the deepest iteration finished,
or of the iteration under way once that found a better one. The root's moves are made
with :meth:`Position.play`, so a root read from FPN (settled or not) and the pie rule's
swap are exact; below the root the search does not consider the swap (it is open only
on B's first move).

>>> from games.engine import Position
>>> pos = Position.from_text("square 5x3 6 1234B/33332/A4121 5,6 A")
>>> found = Duel(pos, budget=500).run(pos.legal_moves())
>>> found.move, found.value > WON  # 3 takes the 3s and encloses what lies behind them
(3, True)
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.bots.bitboard import Game, state_of
from games.engine.bots.search import MAX_DEPTH, WON, Budgeted, Found, Stop
from games.engine.bots.view import Colours, race
from games.engine.position import Move, Position
from games.engine.rules import enclosed_by

SOLVED = 1_000  # the depth a subtree searched to its end is kept at: valid at any depth
# Per point of value at a leaf: the best the seat to move can take at once, and its lead
# in the race for the free cells.
TEMPO = 0.5
RACE = 0.5
EXACT, LOWER, UPPER = 0, 1, 2

Entry = tuple[int, float, int, int]  # depth, value, EXACT/LOWER/UPPER, best colour


class Duel(Budgeted):
    """One decision's search on a two-seat position: ``Duel(position, budget=n).run(moves)``."""

    tempo_weight = TEMPO  # the leaf's weights (bench/tune.py tries others in a subclass)
    race_weight = RACE

    def __init__(
        self,
        root: Position,
        *,
        budget: int,
        deadline: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        super().__init__(budget, deadline, clock)
        self.root = root
        self.game = game = Game.of(root)
        # the race reads the free cells by colour; the game's targets hold paint already
        self.colours = Colours(game.board, game.targets, 0)  # type: ignore[arg-type]
        self.palette = tuple(range(1, game.colours + 1))
        self.table: dict[tuple[int, int, int, int], Entry] = {}

    def run(self, moves: list[Move]) -> Found:
        """The best of ``moves`` (the root's legal moves; ties go to the earlier one)."""
        children = []
        try:
            for move in moves:
                self.spend()
                children.append((move, self._made(self.root.play(move))))
        except Stop:
            return Found(moves[0], 0.0, 0, self.nodes)
        best = Found(moves[0], 0.0, 0, self.nodes)
        for depth in range(1, MAX_DEPTH + 1):
            self.solved = True
            values: list[float] = []
            alpha, leader = -float("inf"), children[0][0]
            try:
                for move, child in children:
                    value = -self._value(*child, depth - 1, -float("inf"), -alpha)
                    values.append(value)
                    if value > alpha:
                        alpha, leader = value, move
            except Stop:
                if values:  # the previous best came first: a move that beat it is better
                    best = Found(leader, alpha, depth, self.nodes)
                break
            ranked = sorted(range(len(children)), key=lambda n: -values[n])
            children = [children[n] for n in ranked]
            best = Found(children[0][0], values[ranked[0]], depth, self.nodes)
            if self.solved:
                break
        return Found(best.move, best.value, best.depth, self.nodes)

    def each(self, moves: list[Move]) -> tuple[dict[Move, float], int]:
        """Every one of ``moves`` valued with a full window, deepening while the budget
        lasts, as :meth:`Search.each <games.engine.bots.search.Search.each>` does for an
        analysis: the values and the depth of the deepest finished iteration (1: the
        moves' own evaluations, which every move gets whatever the budget or the time).
        Unless the last iteration saw every line to its end, each value is the mean of
        the last two iterations' (a leaf after one's own move and one after the other's
        are not valued quite alike)."""
        children = []
        values: dict[Move, float] = {}
        for move in moves:  # counted, never refused
            self.nodes += 1
            after = self.root.play(move)
            child = self._made(after)
            children.append((move, (child, after.is_over)))
            values[move] = -self._value(*child, 0, -float("inf"), float("inf"))
        return self.values_deepened(
            children,
            values,
            lambda made: made[1],
            lambda made, depth: -self._value(*made[0], depth, -float("inf"), float("inf")),
        )

    def _made(self, position: Position) -> tuple[int, int, int, int, int]:
        """A root child as the search keeps it: (own, other, own colour, other's colour,
        lead), seen from the seat to move."""
        a, b, ca, cb, mover = state_of(position)
        own, other, mine, theirs = (a, b, ca, cb) if mover == 0 else (b, a, cb, ca)
        value_of = self.game.value_of
        return own, other, mine, theirs, value_of(own) - value_of(other)

    def _children(self, own: int, other: int, mine: int, theirs: int) -> list[tuple[int, int, int]]:
        """(value gained, colour, cells gained) per colour worth searching, the most first:
        every colour that gains, then those that gain nothing but block the opponent;
        every legal colour when none gains."""
        game = self.game
        free = game.playable & ~(own | other)
        edge = game.spread(own) & free
        their_edge = game.spread(other) & free
        fill, targets, value_of = game.fill, game.targets, game.value_of
        gains: list[tuple[int, int, int]] = []
        blocks: list[tuple[int, int, int]] = []
        for colour in self.palette:
            if colour in (mine, theirs):
                continue
            target = targets[colour] & free
            seeds = edge & target
            if seeds:
                taken = fill(seeds, target)
                taken |= enclosed_by(game, taken, free ^ taken, other)  # type: ignore[arg-type]
                gains.append((value_of(taken), colour, taken))
            elif their_edge & target:
                blocks.append((0, colour, 0))
        if not gains and not blocks:
            return [(0, c, 0) for c in self.palette if c != mine and c != theirs]
        gains.sort(key=lambda item: -item[0])
        return gains + blocks

    def _value(
        self,
        own: int,
        other: int,
        mine: int,
        theirs: int,
        lead: int,
        depth: int,
        alpha: float,
        beta: float,
    ) -> float:
        """The value of the position for the seat to move (territory ``own``, colour
        ``mine``, ``lead`` ahead), ``depth`` plies deep."""
        game = self.game
        value_of = game.value_of
        ahead, behind = value_of(own), value_of(other)
        if ahead > game.half or behind > game.half or ahead + behind == game.countable:
            return lead + (WON if lead > 0 else -WON if lead < 0 else 0.0)
        if depth <= 0:
            self.solved = False
            return self._evaluate(own, other, mine, theirs, lead)
        key = (own, other, mine, theirs)
        entry = self.table.get(key)
        first = 0
        if entry is not None:
            searched, stored, flag, first = entry
            if searched >= depth and (
                flag == EXACT
                or (flag == LOWER and stored >= beta)
                or (flag == UPPER and stored <= alpha)
            ):
                if searched < SOLVED:
                    self.solved = False
                return stored
        children = self._children(own, other, mine, theirs)
        if first:
            for n, child in enumerate(children):
                if child[1] == first:
                    children.insert(0, children.pop(n))
                    break
        outer, self.solved = self.solved, True
        start, best, best_colour = alpha, -float("inf"), children[0][1]
        for gained, colour, cells in children:
            self.spend()
            value = -self._value(
                other, own | cells, theirs, colour, -(lead + gained), depth - 1, -beta, -alpha
            )
            if value > best:
                best, best_colour = value, colour
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = UPPER if best <= start else LOWER if best >= beta else EXACT
        self.table[key] = (SOLVED if self.solved else depth, best, flag, best_colour)
        self.solved = outer and self.solved
        return best

    def _evaluate(self, own: int, other: int, mine: int, theirs: int, lead: int) -> float:
        """A leaf: the lead, the most the seat to move takes at once, the race."""
        game = self.game
        now = self._children(own, other, mine, theirs)[0][0]
        free = game.playable & ~(own | other | game.dead)
        mine_first, theirs_first = race(self.colours, [own, other], free)
        return lead + self.tempo_weight * now + self.race_weight * (mine_first - theirs_first)
