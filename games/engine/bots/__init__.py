"""Computer opponents (SPEC §11): four levels, pure and deterministic.

1. random: any legal move;
2. greedy: the move that scores most now;
3. heuristic: the score now, what the mover can take next, what the opponents can take
   next (a colour the mover takes is one they cannot: blocking) and the edge it leaves;
4. search: alpha-beta with iterative deepening under a budget of searched positions.

The answer depends only on the position, the level, the seed and the budget, unless a
``time_limit`` is given: that guard (for production) returns the best move found when
the time is up, so it depends on the machine too.

>>> from games.engine import VARIANTS
>>> pos = VARIANTS["fast"].new_position(seed=1)
>>> colour = choose(pos, 4, seed=0, nodes=200)
>>> pos.legal_colors()[colour] is None
True
>>> choose(pos, 4, seed=0, nodes=200) == colour
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.bots.duel import Duel
from games.engine.bots.levels import greedy_move, heuristic_move, random_move
from games.engine.bots.search import Search
from games.engine.position import Move, Position

LEVELS = (1, 2, 3, 4)
# Positions per move of level 4 when no budget is given (see docs/bots.md): on two-seat
# boards (the bitboard search of bots.duel, which counts every position it makes, a
# leaf's race and look at each colour included), more on the small ones of at most
# SMALL_BOARD cells (Fast, the 8x7 boards), whose positions cost about a quarter as
# much; and with three or four seats (bots.search).
TWO_SEAT_NODES = 120_000
SMALL_BOARD = 64
SMALL_BOARD_NODES = 250_000
DEFAULT_NODES = 2000
# Seconds: the guard a server passes as ``time_limit`` so a slow machine never stalls a table.
TIME_LIMIT = 2.0

__all__ = [
    "DEFAULT_NODES",
    "LEVELS",
    "SMALL_BOARD",
    "SMALL_BOARD_NODES",
    "TIME_LIMIT",
    "TWO_SEAT_NODES",
    "Decision",
    "choose",
    "decide",
    "searcher",
    "two_seat_nodes",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's move and what it cost: ``nodes`` positions searched, ``depth`` plies of
    the deepest finished search iteration (0 for levels 1-3)."""

    colour: Move
    nodes: int
    depth: int = 0


def choose(
    position: Position,
    level: int,
    seed: int = 0,
    nodes: int | None = None,
    *,
    time_limit: float | None = None,
) -> Move:
    """The move of a level-``level`` bot: a colour, or ``"swap"`` when the pie rule allows.

    ``nodes`` bounds level 4's search (None: :data:`DEFAULT_NODES`); levels 1-3 make one
    position per legal move at most. ``seed`` picks among equally good moves (level 1:
    among all); a table passes a new one each move (e.g. the ply), or two bots that only
    ever play moves taking nothing could repeat a cycle of positions forever. For
    ``time_limit`` see :func:`decide`. Raises ``ValueError`` for a level outside 1-4, a
    budget under 1 or a finished game.
    """
    return decide(position, level, seed=seed, nodes=nodes, time_limit=time_limit).colour


def decide(
    position: Position,
    level: int,
    seed: int = 0,
    nodes: int | None = None,
    *,
    time_limit: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Decision:
    """Like :func:`choose`, with what the decision cost.

    ``time_limit`` (seconds, level 4 only; a server passes :data:`TIME_LIMIT`) is the
    guard against a slow machine: when it runs out the search answers with the best move
    found so far, so the answer then depends on the machine. ``clock`` is the time source
    it is measured with (injected in tests).
    """
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"a bot's level is one of 1-4, not {level!r}")
    if nodes is not None and nodes < 1:
        raise ValueError(f"a budget is at least one searched position, not {nodes!r}")
    if position.is_over:
        raise ValueError("the game is over: there is no move to choose")
    rng = random.Random(f"{seed}:{position.to_text()}")
    if level == 1:
        move, searched = random_move(position, rng)
        return Decision(move, searched)
    if level == 2:
        move, searched = greedy_move(position, rng)
        return Decision(move, searched)
    if level == 3:
        move, searched = heuristic_move(position, rng)
        return Decision(move, searched)
    moves = position.legal_moves()
    if len(moves) == 1:
        return Decision(moves[0], 0)
    rng.shuffle(moves)
    deadline = None if time_limit is None else clock() + time_limit
    found = searcher(position, budget=nodes, deadline=deadline, clock=clock).run(moves)
    return Decision(found.move, found.nodes, found.depth)


def searcher(
    position: Position,
    *,
    budget: int | None = None,
    deadline: float | None = None,
    clock: Callable[[], float] | None = None,
) -> Duel | Search:
    """Level 4's search for ``position`` (``run`` for a move, ``each`` for every move's
    value): on the bitboards with two seats, paranoid with three or four. ``budget``
    None: that search's default."""
    if position.seats == 2 and len(position.sides) == 2:
        budget = budget or two_seat_nodes(position)
        return Duel(position, budget=budget, deadline=deadline, clock=clock)
    return Search(position, budget=budget or DEFAULT_NODES, deadline=deadline, clock=clock)


def two_seat_nodes(position: Position) -> int:
    """Level 4's default budget on a two-seat ``position``: :data:`SMALL_BOARD_NODES` on a
    board of at most :data:`SMALL_BOARD` cells, else :data:`TWO_SEAT_NODES`."""
    return SMALL_BOARD_NODES if position.board.size <= SMALL_BOARD else TWO_SEAT_NODES
