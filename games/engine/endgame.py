"""Exact endings of two-seat games (SPEC §13): the value of every colour for the mover,
100 (a won game), 50 (a draw) or 0 (a lost one), with the repetition rule.

A line that repeats a position (territories, seat colours, seat to move) ends there with
the scores as they stand: free cells count for nobody. Territories only grow, so the
positions of one set of territories (a *layer*: the same territories under every pair
of colours and either seat to move) can only repeat among themselves. A move that takes
cells leaves the layer for good; a move that takes nothing stays in it. Each layer is
therefore a small game graph whose exits have known values and whose cycles all end with
the same value (the layer's scores as they stand): solved with attractors, positional,
so every layer is solved once and kept. :func:`plain_value` is the plain exhaustive
search the solver is checked against (tests only: it is exponential).

>>> from games.engine import Position
>>> pos = Position.from_text("square 4x2 4 12BB/AA34 1,2 A")
>>> Endgame().values(pos)
{3: 100, 4: 50}
"""

from __future__ import annotations

from games.engine.bots.view import territories
from games.engine.position import Move, Position

# Positions with at most this many free cells that can still change owner are solved.
LIMIT = 12
WIN, DRAW, LOSS = 100, 50, 0

Layer = tuple[int, ...]  # each seat's territory bitboard
State = tuple[int, int, int]  # A's colour, B's colour, the seat to move
Edge = tuple[State | None, int]  # the state a move leads to (None: it leaves), A's value


def live_cells(position: Position) -> int:
    """Free cells that can still change owner (neither owned, nor obstacles, nor dead)."""
    owned = 0
    for mask in territories(position):
        owned |= mask
    return (position.board.playable & ~owned).bit_count() - len(position.dead)


def solvable(position: Position, limit: int = LIMIT) -> bool:
    """A two-seat game in play, past the swap, with at most ``limit`` live cells."""
    return (
        position.seats == 2
        and len(position.sides) == 2
        and not position.is_over
        and not position.can_swap
        and live_cells(position) <= limit
    )


def result(position: Position, seat: int) -> int:
    """``seat``'s value of a position as it stands (over, or a line that repeated)."""
    if position.is_over:
        winners = position.winners
        if seat not in winners:
            return LOSS
        return WIN if len(winners) == 1 else DRAW
    mine, theirs = position.scores[seat], position.scores[1 - seat]
    return WIN if mine > theirs else DRAW if mine == theirs else LOSS


class Endgame:
    """A solver with its solved layers kept: one per game analysed, so the positions of a
    game share their endings."""

    def __init__(self) -> None:
        # layer -> {(colour of A, colour of B, seat to move): A's value}
        self._layers: dict[Layer, dict[State, int]] = {}

    def values(self, position: Position) -> dict[Move, int]:
        """Each legal colour's value for the seat to move. The position must be
        :func:`solvable` (``ValueError`` otherwise)."""
        if not solvable(position, limit=position.board.size):
            raise ValueError("only a two-seat game in play, past the swap, is solved")
        mover = position.to_move
        out: dict[Move, int] = {}
        for colour in position.legal_moves():
            child = position.play(colour)
            value = self._state_value(child)
            out[colour] = value if mover == 0 else WIN - value
        return out

    def value(self, position: Position) -> int:
        """The value of a :func:`solvable` position for the seat to move."""
        return max(self.values(position).values())

    def _state_value(self, position: Position) -> int:
        """A's value of any position of a two-seat game (over or in play)."""
        if position.is_over:
            return result(position, 0)
        a, b = position.seat_colors
        return self._solve(position)[(a, b, position.to_move)]

    def _solve(self, position: Position) -> dict[State, int]:
        layer = territories(position)
        solved = self._layers.get(layer)
        if solved is not None:
            return solved
        colours = range(1, position.colors + 1)
        # what seat t playing c from this layer leads to: None (takes nothing) or, per
        # colour o of the other seat, A's value of the position it reaches
        exits: dict[tuple[int, int], dict[int, int] | None] = {}
        for seat in (0, 1):
            for colour in colours:
                other = next(c for c in colours if c != colour)
                mine = next(c for c in colours if c not in (colour, other))
                pair = (mine, other) if seat == 0 else (other, mine)
                child = position.with_turn(pair, seat).play(colour)
                if territories(child) == layer:
                    exits[(seat, colour)] = None
                    continue
                if child.is_over:
                    value = result(child, 0)
                    exits[(seat, colour)] = dict.fromkeys(colours, value)
                    continue
                table = self._solve(child)
                exits[(seat, colour)] = {
                    o: table[(colour, o, 1 - seat) if seat == 0 else (o, colour, 1 - seat)]
                    for o in colours
                    if o != colour
                }
        stand = result(position, 0)
        states = [(a, b, t) for a in colours for b in colours if a != b for t in (0, 1)]

        def successors(state: State) -> list[Edge]:
            a, b, t = state
            found = []
            for colour in colours:
                if colour in (a, b):
                    continue
                leads = exits[(t, colour)]
                if leads is None:
                    nxt = (colour, b, 1) if t == 0 else (a, colour, 0)
                    found.append((nxt, 0))
                else:
                    found.append((None, leads[b if t == 0 else a]))
            return found

        graph = {state: successors(state) for state in states}
        solved = dict.fromkeys(states, LOSS)
        for threshold in (DRAW, WIN):
            for state in _winning(graph, threshold, stand >= threshold):
                solved[state] = threshold
        self._layers[layer] = solved
        return solved


def _winning(
    graph: dict[State, list[Edge]],
    threshold: int,
    endless_wins: bool,
) -> set[State]:
    """The states from which A (seat 0) makes sure of at least ``threshold``; an endless
    line (a repetition) reaches it when ``endless_wins``. An attractor: of A's good exits
    when an endless line does not reach it, else of B's bad exits, complemented."""
    attacker = 1 if endless_wins else 0  # the seat that must reach an exit

    def good(value: int) -> bool:
        return (value < threshold) if endless_wins else (value >= threshold)

    reached: set[State] = set()
    changed = True
    while changed:
        changed = False
        for state, moves in graph.items():
            if state in reached:
                continue
            hits = [good(value) if nxt is None else nxt in reached for nxt, value in moves]
            if any(hits) if state[2] == attacker else all(hits):
                reached.add(state)
                changed = True
    return set(graph) - reached if endless_wins else reached


class TooLong(Exception):
    """The plain search went past its budget of positions."""


def plain_value(position: Position, first: Move | None = None, budget: int = 200_000) -> int:
    """The mover's value by plain exhaustive search with the repetition rule: every line
    is followed (alpha-beta only skips what cannot change the value) until the game ends
    or a position repeats. Exponential: for tests. ``first`` forces the first move."""
    mover = position.to_move
    seen: set[tuple[Layer, tuple[int, ...], int]] = set()
    made = [0]

    def search(pos: Position, forced: Move | None, alpha: int, beta: int) -> int:
        made[0] += 1
        if made[0] > budget:
            raise TooLong
        if pos.is_over:
            return result(pos, mover)
        key = (territories(pos), pos.seat_colors, pos.to_move)
        if key in seen:
            return result(pos, mover)
        seen.add(key)
        maximise = pos.to_move == mover
        best = LOSS if maximise else WIN
        for move in [forced] if forced is not None else pos.legal_moves():
            value = search(pos.play(move), None, alpha, beta)
            if maximise:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        seen.discard(key)
        return best

    return search(position, first, LOSS, WIN)
