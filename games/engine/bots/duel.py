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
- **moves ordered** by the best colour found before, then by what they gain, then the
  colours that gain nothing but take away one the opponent touches (blocks), then one
  colour that gains nothing and blocks nothing (a pass: near the end, letting the
  opponent move first can be worth more than taking a few cells, so a search without it
  is not exact); each position's colours are worked out once and kept;
- **a leaf's value** is the lead, plus the most the seat to move chains at once (it has
  the tempo; enclosure left out), plus the race for the free cells (those a side reaches
  in fewer moves than the other, as :func:`~games.engine.bots.view.race` counts them:
  the regions nobody else can reach first). Each leaf is valued once and kept.

The search counts every position it makes and never makes more than its budget: each
position a move makes, and for a leaf one per colour it looks at and one per step of
each side's race (a leaf costs ten to thirty times a move, so the budget follows the
time whether the search is among leaves or in lines already solved). The answer is the
best colour of the deepest iteration finished, or of the iteration under way once that
found a better one. The root's moves are made
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
from games.engine.bots.view import Colours, best_chain, race_step
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
        self.palette = tuple(range(1, game.colours + 1))
        # the free cells by colour, as view.best_chain reads them (the targets hold paint)
        self.colours = Colours(game.board, game.targets, 0)  # type: ignore[arg-type]
        self.table: dict[tuple[int, int, int, int], Entry] = {}
        # each position's colours worth searching, made once: iterative deepening and
        # transpositions come back to the same positions many times
        self.moves: dict[tuple[int, int, int, int], list[tuple[int, int, int]]] = {}
        self.leaves: dict[tuple[int, int, int, int], float] = {}  # and each leaf's value

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
            values[move] = -self._at_once(*child)
        return self.values_deepened(
            children,
            values,
            lambda made: made[1],
            lambda made, depth: -self._value(*made[0], depth, -float("inf"), float("inf")),
        )

    def _at_once(self, own: int, other: int, mine: int, theirs: int, lead: int) -> float:
        """``_value`` at depth 0, the positions its leaf makes counted but never refused."""
        if self._ended(own, other):
            return self._end(lead)
        value, made = self._leaf((own, other, mine, theirs), lead)
        self.nodes += made
        return value

    def _ended(self, own: int, other: int) -> bool:
        """Whether a seat holds more than half the countable value, or nothing is left."""
        game = self.game
        ahead, behind = game.value_of(own), game.value_of(other)
        return ahead > game.half or behind > game.half or ahead + behind == game.countable

    @staticmethod
    def _end(lead: int) -> float:
        """An ended game's value: won or lost, and by how much (a 1-1 match is decided
        on the total score)."""
        return lead + (WON if lead > 0 else -WON if lead < 0 else 0.0)

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
        passes: list[tuple[int, int, int]] = []
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
            elif not passes:
                passes.append((0, colour, 0))
        gains.sort(key=lambda item: -item[0])
        return gains + blocks + passes

    def _known_children(self, key: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
        """``_children`` of the position ``key``, kept for the next visit (not to be changed)."""
        children = self.moves.get(key)
        if children is None:
            children = self.moves[key] = self._children(*key)
        return children

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
        if self._ended(own, other):
            return self._end(lead)
        key = (own, other, mine, theirs)
        if depth <= 0:
            self.solved = False
            value, made = self._leaf(key, lead)
            if made:
                self.spend(made)
            return value
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
        children = self._known_children(key)
        if first:
            for n, child in enumerate(children):
                if child[1] == first:
                    children = [child, *children[:n], *children[n + 1 :]]
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

    def _leaf(self, key: tuple[int, int, int, int], lead: int) -> tuple[float, int]:
        """A leaf's value, and the positions valuing it made (0: it was valued before)."""
        value = self.leaves.get(key)
        if value is not None:
            return value, 0
        value, made = self._evaluate(*key, lead)
        self.leaves[key] = value
        return value, made

    def _evaluate(
        self, own: int, other: int, mine: int, theirs: int, lead: int
    ) -> tuple[float, int]:
        """A leaf: the lead, the most the seat to move takes at once, the race; and the
        positions that made (one per colour looked at, one per step of each seat's race)."""
        game = self.game
        allowed = [colour for colour in self.palette if colour != mine and colour != theirs]
        now = best_chain(self.colours, own, game.playable & ~(own | other), allowed)
        free = game.playable & ~(own | other | game.dead)
        ahead, steps = self._race(own, other, free)
        value = lead + self.tempo_weight * now + self.race_weight * ahead
        return value, len(allowed) + steps

    def _race(self, own: int, other: int, free: int) -> tuple[int, int]:
        """``view.race`` of the two seats: the value of the free cells the seat to move
        reaches first less the other's; and the steps both seats took."""
        game = self.game
        steps, spread, fill = 0, game.spread, game.fill
        targets = [target & free for target in game.targets[1:]]
        open_cells, mine, theirs = free, 0, 0
        while own or other:
            reached_own = race_step(spread, fill, own, open_cells, targets) if own else 0
            reached_other = race_step(spread, fill, other, open_cells, targets) if other else 0
            steps += bool(own) + bool(other)
            contested = reached_own & reached_other
            own, other = reached_own & ~contested, reached_other & ~contested
            mine |= own
            theirs |= other
            open_cells &= ~(reached_own | reached_other)
        return game.value_of(mine) - game.value_of(theirs), steps
