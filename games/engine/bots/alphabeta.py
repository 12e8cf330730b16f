"""Level 4's search on two-seat games: iterative-deepening negamax alpha-beta with
principal-variation (null-window) search, a transposition table, and moves ordered by
the table's best move, then by what they gain, then by cut-offs (history); on the
bitboard core (:mod:`games.engine.bots.bitboard`), so enclosure and the equator are the
real rules at every node.

The rule it keeps: the answer depends only on the root, the order of the root moves it
is given (the caller shuffles them with the seed), and the budget of searched positions,
unless a ``deadline`` is given. A searched position is one made by ``bitboard.play`` (or, for
the root's moves, by ``Position.play``); the
search never makes more than its budget and then answers with the best move of the
deepest finished iteration (or of the unfinished one, when its first move, searched with
a full window, is already known to be better).

A position it stops at is valued for the seat to move by :func:`evaluate` (see
docs/bots.md: the lead, the cells each seat reaches first with the mover a step ahead,
and what of the equator that race already decides); an ended game by its result,
sooner wins first, the final lead after that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.bots import bitboard
from games.engine.bots.bitboard import Game, State, state_of
from games.engine.position import Move, Position

WON = 1_000_000.0
SOONER = 1.0  # per ply: a win one ply sooner is worth one cell more
MAX_DEPTH = 64
# Weights of evaluate(), per point of value (not tuned: what was tried is in docs/bots.md).
RACE = 1.0  # the cells a seat reaches first, the mover a step ahead, as a lead
EQUATOR = 4.0  # the race already takes one seat past the equator
EXACT, LOWER, UPPER = 0, 1, 2
PRUNE_FROM = 2  # plies below the root from which moves taking nothing are left out


class _Stop(Exception):
    """The budget or the deadline is spent."""


@dataclass(frozen=True, slots=True)
class Result:
    """The move (a colour or "swap", as the caller named the root moves), its value for
    the seat to move, the deepest finished iteration and the positions searched."""

    move: Move
    value: float
    depth: int
    nodes: int


def evaluate(game: Game, state: State) -> float:
    """The value of a position in play for the seat to move.

    Both seats grow one step a turn through the free cells, the mover first; a cell
    goes to the seat that reaches it first (cells reached by neither, behind the other's
    cells or nobody's, count for nobody). The value is the score lead plus ``RACE`` times
    the race lead, plus ``EQUATOR`` times the share of the equator the race gives a seat
    past it, when it does.
    """
    a, b, _, _, mover = state
    own, other = (a, b) if mover == 0 else (b, a)
    value_of, spread = game.value_of, game.spread
    open_cells = game.playable & ~(a | b | game.dead)
    mine = theirs = 0
    front_mine, front_theirs = own, other
    while front_mine or front_theirs:
        front_mine = spread(front_mine) & open_cells
        open_cells ^= front_mine
        mine |= front_mine
        front_theirs = spread(front_theirs) & open_cells
        open_cells ^= front_theirs
        theirs |= front_theirs
    have, owe = value_of(own), value_of(other)
    reach_mine, reach_theirs = value_of(mine), value_of(theirs)
    value = have - owe + RACE * (reach_mine - reach_theirs)
    half = game.half
    if have + reach_mine > half:
        value += EQUATOR * (have + reach_mine - half)
    elif owe + reach_theirs > half:
        value -= EQUATOR * (owe + reach_theirs - half)
    return value


class AlphaBeta:
    """One decision's search: ``AlphaBeta(game, budget=20000).run(root_children)``."""

    def __init__(
        self,
        game: Game,
        *,
        budget: int,
        deadline: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.game = game
        self.budget = budget
        self.deadline = deadline if clock is not None else None
        self.clock = clock
        self.nodes = 0
        self.table: dict[State, tuple[int, float, int, int]] = {}
        self.history: dict[tuple[int, int], int] = {}
        self.open = False  # some line of the current iteration stopped before its end

    def run(self, children: list[tuple[Move, State]], complete: bool = True) -> Result:
        """The best of the root's ``children`` ((move, state after it), in the order ties
        are broken), made by the caller; ``complete``: every root move is among them
        (otherwise the best of those is the answer, at depth 0)."""
        order = list(children)
        values = [-self._terminal_or_eval(state) for _, state in order]
        ranked = sorted(range(len(order)), key=lambda i: -values[i])
        order = [order[i] for i in ranked]
        best = Result(order[0][0], values[ranked[0]], 1 if complete else 0, self.nodes)
        if not complete:
            return best
        for depth in range(2, MAX_DEPTH + 1):
            self.open = False
            alpha = -float("inf")
            scored: list[float] = []
            try:
                for n, (move, state) in enumerate(order):
                    if n == 0:
                        value = -self._value(state, depth - 1, -float("inf"), float("inf"), 1)
                    else:
                        value = -self._value(state, depth - 1, -alpha - 1e-6, -alpha, 1)
                        if value > alpha:
                            value = -self._value(state, depth - 1, -float("inf"), -alpha, 1)
                    scored.append(value)
                    if value > alpha:
                        alpha = value
                        if n > 0 or depth > best.depth:
                            current = Result(move, value, depth, self.nodes)
            except _Stop:
                # an unfinished iteration counts only where it found a better first move
                if scored and len(scored) > 1 and max(scored) > scored[0]:
                    return Result(current.move, current.value, depth - 1, self.nodes)
                return Result(best.move, best.value, best.depth, self.nodes)
            ranked = sorted(range(len(order)), key=lambda i: -scored[i])
            order = [order[i] for i in ranked]
            best = Result(order[0][0], scored[ranked[0]], depth, self.nodes)
            # solved: deeper iterations cannot change the result (a won game in sight
            # is searched on, for a bigger lead: the total score decides a 1-1 match)
            if not self.open:
                break
        return Result(best.move, best.value, best.depth, self.nodes)

    def spend(self) -> None:
        """Count one searched position, or raise _Stop when the budget or the time is
        spent (the clock is read before every position, as the guard promises)."""
        if self.nodes >= self.budget:
            raise _Stop
        if self.deadline is not None and self.clock() > self.deadline:  # type: ignore[misc]
            raise _Stop
        self.nodes += 1

    def _terminal_or_eval(self, state: State, ply: int = 0) -> float:
        game = self.game
        a, b = game.value_of(state[0]), game.value_of(state[1])
        half = game.half
        if a > half or b > half or a + b == game.countable:
            lead = a - b if state[4] == 0 else b - a
            if lead == 0:
                return 0.0
            decided = WON - SOONER * ply
            return lead + (decided if lead > 0 else -decided)
        return evaluate(game, state)

    def _value(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Negamax value of ``state`` for its seat to move, ``depth`` plies deep."""
        game = self.game
        a, b, ca, cb, mover = state
        value_of = game.value_of
        sa, sb = value_of(a), value_of(b)
        half = game.half
        if sa > half or sb > half or sa + sb == game.countable:
            lead = sa - sb if mover == 0 else sb - sa
            if lead == 0:
                return 0.0
            decided = WON - SOONER * ply
            return lead + (decided if lead > 0 else -decided)
        if depth == 0:
            self.open = True
            return evaluate(game, state)
        table = self.table
        entry = table.get(state)
        first = 0
        if entry is not None:
            e_depth, e_value, e_flag, first = entry
            if e_depth >= depth and (
                e_flag == EXACT
                or (e_flag == LOWER and e_value >= beta)
                or (e_flag == UPPER and e_value <= alpha)
            ):
                if e_value < WON / 2 and e_value > -WON / 2:
                    # a cut on a stored value of a line that stopped early keeps it open
                    self.open = True
                return e_value
        # the table's move first; the others are made only when it does not cut off,
        # then ordered by what they gain, then by the cut-offs they made before
        before = sa if mover == 0 else sb
        history = self.history
        play, spend = bitboard.play, self.spend
        alpha_start = alpha
        best, best_colour = -float("inf"), 0
        first_gains = False
        if first:
            spend()
            child = play(game, state, first)
            first_gains = value_of(child[mover]) > before
            best = -self._value(child, depth - 1, -beta, -alpha, ply + 1)
            best_colour = first
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    key = (mover, first)
                    history[key] = history.get(key, 0) + depth * depth
                    table[state] = (depth, best, LOWER, first)
                    return best
        made = []
        for colour in range(1, game.colours + 1):
            if colour in (ca, cb) or colour == first:
                continue
            spend()
            child = play(game, state, colour)
            gained = value_of(child[mover]) - before
            rank = (gained << 20) + min(history.get((mover, colour), 0), (1 << 20) - 1)
            made.append((rank, colour, child))
        made.sort(key=lambda item: -item[0])
        if ply >= PRUNE_FROM and (first_gains or (made and made[0][0] >= 1 << 20)):
            # deep in the tree a move that takes nothing is tried only when none takes
            # anything (near the root it may block the colour the other seat needs)
            made = [item for item in made if item[0] >= 1 << 20]
        for _, colour, child in made:
            if not best_colour:
                value = -self._value(child, depth - 1, -beta, -alpha, ply + 1)
            else:
                value = -self._value(child, depth - 1, -alpha - 1e-6, -alpha, ply + 1)
                if alpha < value < beta:
                    value = -self._value(child, depth - 1, -beta, -value, ply + 1)
            if value > best:
                best, best_colour = value, colour
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        key = (mover, colour)
                        history[key] = history.get(key, 0) + depth * depth
                        break
        flag = UPPER if best <= alpha_start else LOWER if best >= beta else EXACT
        table[state] = (depth, best, flag, best_colour)
        return best


def best_move(
    position: Position,
    moves: list[Move],
    *,
    budget: int,
    deadline: float | None = None,
    clock: Callable[[], float] | None = None,
) -> Result:
    """Level 4's choice among ``moves`` (legal moves of a two-seat ``position`` in play,
    in the order ties go). The root's moves are made by ``Position.play`` (a position
    read from FPN may hold regions nobody has taken yet, and the swap is a move there);
    every position below them by the bitboard core."""
    search = AlphaBeta(Game.of(position), budget=budget, deadline=deadline, clock=clock)
    children = []
    try:
        for move in moves:
            search.spend()
            children.append((move, state_of(position.play(move))))
    except _Stop:
        if not children:  # no time for even one position: any legal move will do
            return Result(moves[0], 0.0, 0, search.nodes)
    return search.run(children, complete=len(children) == len(moves))
