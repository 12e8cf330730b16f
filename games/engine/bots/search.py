"""Level 4: alpha-beta search with iterative deepening under a budget of searched positions.

Every position is valued for the side to move at the root ("paranoid" search): the seats
of that side maximise and every other seat minimises, so two sides is plain minimax, and
three or four seats or Pairs need nothing more (a partner maximises too).

A searched position is one the search makes with ``Position.play``. The search never
makes more than its budget; when the budget runs out it answers with the best move of the
deepest iteration it finished, or of the iteration it was in once that has found a better
one. The wall-clock guard (``deadline``) stops it the same way; it is the only thing that
makes an answer depend on the machine, so tests and the ladder never set it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from games.engine.bots.view import (
    Colours,
    active_sides,
    after_move,
    free_cells,
    race,
    side_seats,
    side_territories,
    territories,
)
from games.engine.position import Move, Position

# A decided game outweighs any lead; between equal leads, winning sooner (losing later)
# is better. The lead still counts: it is what decides a match drawn 1-1 (SPEC §3).
WON = 1_000_000.0
SOONER = 0.001
# Per point of value, against the best other side: the free cells on a side's edge, and
# the free cells a side reaches in fewer moves than anyone else (the race).
EDGE_CELL = 0.25
RACE_CELL = 0.5
MAX_DEPTH = 64

T = TypeVar("T")
Node = tuple[Position, tuple[int, ...]]  # a position and each seat's territory bitboard


class Stop(Exception):
    """The budget or the deadline is spent."""


class Budgeted:
    """What both of level 4's searches share: the budget of positions and the time guard
    (``spend``), and the deepening of ``each`` (``values_deepened``)."""

    def __init__(
        self, budget: int, deadline: float | None, clock: Callable[[], float] | None
    ) -> None:
        self.budget = budget
        self.deadline = deadline if clock is not None else None
        self.clock = clock
        self.nodes = 0
        self.solved = True  # every leaf of the current iteration ended its game

    def spend(self, cost: int = 1) -> None:
        """Count one position made (``cost``: as many as that); raises :class:`Stop` when
        the budget or the time is spent."""
        if self.nodes + cost > self.budget:
            raise Stop
        if self.deadline is not None and self.clock() > self.deadline:  # type: ignore[misc]
            raise Stop
        self.nodes += cost

    def values_deepened(
        self,
        children: list[tuple[Move, T]],
        values: dict[Move, float],
        over: Callable[[T], bool],
        full: Callable[[T, int], float],
    ) -> tuple[dict[Move, float], int]:
        """The iterations of ``each``, from the root's moves (each with its child) and
        their depth-1 ``values``: every child valued with ``full(child, depth)`` (a full
        window, ``depth`` plies under it, for the root side) one ply deeper each time,
        while the budget lasts. Unless the last iteration saw every line to its end, each
        value is the mean of the last two iterations'."""
        previous: dict[Move, float] | None = None
        depth = 1
        while depth < MAX_DEPTH and not all(over(child) for _, child in children):
            self.solved = True
            deeper: dict[Move, float] = {}
            try:
                for move, child in children:
                    deeper[move] = full(child, depth)
            except Stop:
                break
            previous, values, depth = values, deeper, depth + 1
            children.sort(key=lambda item: -values[item[0]])
            if self.solved:
                return values, depth
        if previous is not None:
            values = {move: (values[move] + previous[move]) / 2 for move in values}
        return values, depth


@dataclass(frozen=True, slots=True)
class Found:
    """What a search found: the move, its value for the root side, the deepest finished
    iteration (plies) and the positions searched."""

    move: Move
    value: float
    depth: int
    nodes: int


class Search(Budgeted):
    """One decision's search: ``Search(position, budget=1000).run(moves)``."""

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
        self.colours = Colours.of(root)
        self.side = root.side_of(root.to_move)
        # seats never go out during a search: the sides in play are fixed
        self.sides = side_seats(root)
        self.active = active_sides(root)
        self.mine = self.active.index(self.side)
        self.history: dict[tuple[int, Move], int] = {}  # (seat, move): cut-offs it made

    def run(self, moves: list[Move]) -> Found:
        """The best of ``moves`` (the root's legal moves; ties go to the earlier one)."""
        root = (self.root, territories(self.root))
        children: list[tuple[Move, Node, float]] = []
        try:
            for move in moves:
                child = self._play(root, move)
                children.append((move, child, self._evaluate(child)))
        except Stop:
            if not children:  # out of time before the first move: any legal move will do
                return Found(moves[0], 0.0, 0, self.nodes)
        children.sort(key=lambda item: -item[2])
        move, _, value = children[0]
        if len(children) < len(moves):
            return Found(move, value, 0, self.nodes)
        best = Found(move, value, 1, self.nodes)
        order = [(move, child) for move, child, _ in children]
        for depth in range(2, MAX_DEPTH + 1):
            if all(child[0].is_over for _, child in order):
                break
            self.solved = True
            found, values = self._iteration(order, depth)
            if found is not None:
                best = found
            if values is None:
                break
            ranked = sorted(range(len(order)), key=lambda i: -values[i])
            order = [order[i] for i in ranked]
            if self.solved:
                break
        return Found(best.move, best.value, best.depth, self.nodes)

    def each(self, moves: list[Move]) -> tuple[dict[Move, float], int]:
        """Every one of ``moves`` valued with a full window (what an analysis needs: the
        played move's value, not a bound), deepening while the budget lasts. Returns the
        values and the depth of the deepest finished iteration (1: the moves' own
        evaluations, which every move gets even past the budget or the deadline).

        A leaf's evaluation favours the side that moved last (it has just gained cells;
        the other's answer is not counted), so an odd and an even depth disagree by a
        tempo. Unless the last iteration saw every line to its end, each value is the mean
        of the last two iterations', which has no such lean: positions searched to
        different depths (one move apart in a game) are then valued alike."""
        root = (self.root, territories(self.root))
        children: list[tuple[Move, Node]] = []
        values: dict[Move, float] = {}
        for move in moves:  # every move gets a value, whatever the budget or the time
            child = self._play(root, move, spend=False)
            children.append((move, child))
            values[move] = self._evaluate(child)
        return self.values_deepened(
            children,
            values,
            lambda child: child[0].is_over,
            lambda child, depth: self._value(child, depth, -float("inf"), float("inf")),
        )

    def _iteration(
        self, order: list[tuple[Move, Node]], depth: int
    ) -> tuple[Found | None, list[float] | None]:
        """The root's moves searched ``depth`` plies deep: the best move (None if not even
        the first was finished) and every move's value (None if stopped part-way)."""
        alpha = -float("inf")
        values: list[float] = []
        best: Found | None = None
        try:
            for move, child in order:
                value = self._value(child, depth - 1, alpha, float("inf"))
                values.append(value)
                if best is None or value > best.value:
                    best = Found(move, value, depth, 0)
                    alpha = value
        except Stop:
            return best, None
        return best, values

    def _value(self, node: Node, depth: int, alpha: float, beta: float) -> float:
        """The alpha-beta value of ``node`` for the root side, ``depth`` plies deep."""
        position = node[0]
        if position.is_over:
            return self._evaluate(node, depth)
        if depth == 0:
            self.solved = False
            return self._evaluate(node)
        seat = position.to_move
        maximise = position.side_of(seat) == self.side
        history = self.history
        moves = sorted(position.legal_moves(), key=lambda m: -history.get((seat, m), 0))
        if depth == 1:
            # the children are leaves: value them one by one, up to a cut-off
            children = ((move, self._play(node, move)) for move in moves)
        else:
            made = [(move, self._play(node, move)) for move in moves]
            values = [self._evaluate(child, depth - 1) for _, child in made]
            ranked = sorted(range(len(made)), key=values.__getitem__, reverse=maximise)
            children = (made[i] for i in ranked)
        for move, child in children:
            value = self._value(child, depth - 1, alpha, beta)
            if maximise:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                history[(seat, move)] = history.get((seat, move), 0) + depth * depth
                break
        return alpha if maximise else beta

    def _play(self, node: Node, move: Move, *, spend: bool = True) -> Node:
        """The child of ``node``; raises Stop when the budget or the time is spent, unless
        ``spend`` is False (it is counted all the same)."""
        if spend:
            self.spend()
        else:
            self.nodes += 1
        position, masks = node
        child = position.play(move)
        return child, after_move(self.colours, position, child, move, masks)

    def _evaluate(self, node: Node, depth: int = 0) -> float:
        """The root side's lead over the best other side: in score, in edge cells and in
        the race for the free cells. A won or lost game outweighs everything (``depth``,
        the plies the search had left, breaks ties between equal leads)."""
        position, masks = node
        scores = position.side_scores
        sides, mine = self.sides, self.mine
        lead = _lead([scores[n] for n in self.active], mine)
        if position.is_over:
            winners = position.winners
            decided = WON + SOONER * depth
            if not any(seat in winners for seat in sides[mine]):
                return lead - decided
            return lead + decided if all(seat in sides[mine] for seat in winners) else lead
        board = self.colours.board
        free = free_cells(board, masks)
        fronts = side_territories(sides, masks)
        spread = board.spread
        edges = [(spread(front) & free).bit_count() for front in fronts]
        reach = race(self.colours, fronts, free)
        return lead + EDGE_CELL * _lead(edges, mine) + RACE_CELL * _lead(reach, mine)


def _lead(values: list[int], mine: int) -> float:
    """``values[mine]`` minus the best of the others."""
    return values[mine] - max((v for n, v in enumerate(values) if n != mine), default=0)
