"""A computer review of a game (SPEC §13): every position's best colour and win chances,
the win chances after the colour played, judgements and accuracy.

Win chances (0-100, the mover's) come from the level-4 search: each legal move is valued
with a full window (``each`` of :func:`~games.engine.bots.searcher`: two seats on
the bitboards, as level 4 plays), and a value (the expected final score margin,
in cells) is turned into chances by a :class:`WinModel` fitted on games of the computer
against itself (``bench/win_model.py``, ``docs/analysis.md``). Where :mod:`endgame`
solves the position the chances are exact: 100, 50 or 0.

A game's review values each position once and agrees with itself: a move's ``after`` is
the value of the position it led to (from that position's own search, or its result
when the game is over), so it is the next move's ``before`` seen from the other side;
the moves not played keep their values from the search of the position they were
played in, and a position's ``before`` is the best of them and the played move's
``after``. A move's judgement follows from its ``before`` and ``after`` alone.

>>> judgement(9.9), judgement(10), judgement(25), judgement(30)
(None, 'inaccuracy', 'mistake', 'blunder')
>>> round(accuracy(0), 1), round(accuracy(10), 1), accuracy(100)
(100.0, 63.6, 0.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from games.engine.bots import searcher
from games.engine.bots.search import WON
from games.engine.endgame import Endgame, result, solvable
from games.engine.position import Move, Position

# Searched positions per analysed position, per variant (bench/analysis.py times them);
# on two seats a leaf counts the positions its race and its look at each colour make.
NODES = {"fast": 20_000, "classic": 20_000, "hex": 20_000}
DEFAULT_NODES = 20_000
# Drops in the mover's win chances: (at least, judgement), the worst first.
THRESHOLDS = ((30.0, "blunder"), (20.0, "mistake"), (10.0, "inaccuracy"))


@dataclass(frozen=True, slots=True)
class WinModel:
    """The mover's win chances for a search value: a logistic curve of the value as a
    share of what is needed to win, ``100 / (1 + e^-(slope * share + offset))``."""

    slope: float
    offset: float = 0.0

    def chances(self, value: float, needed: int) -> float:
        if value >= WON / 2:
            return 100.0
        if value <= -WON / 2:
            return 0.0
        share = value / max(needed, 1)
        return 100.0 / (1.0 + math.exp(-(self.slope * share + self.offset)))


# Fitted by bench/win_model.py (docs/analysis.md): the rated two-seat variants each, and
# the pooled fit for the unrated two-seat variants.
MODELS: dict[str, WinModel] = {
    "fast": WinModel(6.813, -0.138),
    "classic": WinModel(9.912, -0.094),
    "hex": WinModel(9.615, -0.164),
}
POOLED = WinModel(8.778, -0.114)


def model_for(variant: str) -> WinModel:
    return MODELS.get(variant, POOLED)


def judgement(drop: float) -> str | None:
    """``None``, ``"inaccuracy"``, ``"mistake"`` or ``"blunder"`` for a drop in the
    mover's win chances (SPEC §13's thresholds)."""
    for least, name in THRESHOLDS:
        if drop >= least:
            return name
    return None


def accuracy(drop: float) -> float:
    """A move's accuracy, 0-100, from its drop in win chances (SPEC §13's formula)."""
    value = 103.1668 * math.exp(-0.04354 * max(drop, 0.0)) - 3.1669
    return min(100.0, max(0.0, value))


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the analysis says of one position: every legal move's win chances for the
    mover (a tenth of a percent), the best move, and whether the values are exact."""

    chances: dict[Move, float]
    best: Move
    exact: bool
    depth: int = 0

    @property
    def before(self) -> float:
        return self.chances[self.best]


def verdict(
    position: Position,
    model: WinModel,
    *,
    nodes: int = DEFAULT_NODES,
    endgame: Endgame | None = None,
    time_limit: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Verdict:
    """The verdict on ``position`` (a two-seat game in play). ``endgame`` keeps solved
    endings between the positions of one game; ``time_limit`` (seconds) stops the search
    early, as a quick request needs."""
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to judge")
    if solvable(position):
        exact = (endgame or Endgame()).values(position)
        chances = {move: float(value) for move, value in exact.items()}
        return Verdict(chances, _best(moves, chances), True)
    deadline = None if time_limit is None else clock() + time_limit
    search = searcher(position, budget=nodes, deadline=deadline, clock=clock)
    values, depth = search.each(moves)
    needed = position.needed_to_win or 1
    chances = {move: round(model.chances(values[move], needed), 1) for move in values}
    return Verdict(chances, _best(list(values), chances), False, depth)


def _best(moves: Sequence[Move], chances: dict[Move, float]) -> Move:
    """The first of the best moves, in the order the position lists them."""
    return max(moves, key=lambda move: chances[move])


@dataclass(frozen=True, slots=True)
class Reviewed:
    """One move of a game as the review judges it; ``before`` and ``after`` are the
    mover's win chances."""

    ply: int
    seat: int
    played: Move
    best: Move
    before: float
    after: float
    exact: bool

    @property
    def drop(self) -> float:
        return round(max(0.0, self.before - self.after), 1)

    @property
    def judgement(self) -> str | None:
        return judgement(self.drop)

    @property
    def accuracy(self) -> float:
        return accuracy(self.drop)


def review_move(
    ply: int,
    position: Position,
    played: Move,
    found: Verdict,
    *,
    after: float | None = None,
    after_exact: bool = True,
) -> Reviewed:
    """The review of ``played`` in ``position`` from the verdict on that position; with
    ``after`` (the mover's chances in the position the move led to, as its own search or
    its result says), the played move is valued by it instead of by this verdict, and the
    position is worth the best of that and the other moves' chances."""
    if after is None:
        return Reviewed(
            ply=ply,
            seat=position.to_move,
            played=played,
            best=found.best,
            before=found.before,
            after=found.chances[played],
            exact=found.exact,
        )
    others = {move: chances for move, chances in found.chances.items() if move != played}
    best = _best(list(others), others) if others else played
    if best == played or after >= others[best]:
        best, before = played, after
    else:
        before = others[best]
    return Reviewed(
        ply=ply,
        seat=position.to_move,
        played=played,
        best=best,
        before=before,
        after=after,
        exact=found.exact and after_exact,
    )


def standing(
    position: Position, model: WinModel, *, nodes: int = DEFAULT_NODES, endgame: Endgame
) -> tuple[float, bool]:
    """The chances of the seat to move in ``position``, and whether they are exact: its
    result when the game is over, else the verdict's ``before``."""
    if position.is_over:
        return float(result(position, position.to_move)), True
    found = verdict(position, model, nodes=nodes, endgame=endgame)
    return found.before, found.exact


@dataclass(slots=True)
class SeatSummary:
    """A seat's accuracy in a game (the mean over its moves) and its judged moves."""

    moves: list[float] = field(default_factory=list)
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0

    @property
    def accuracy(self) -> float | None:
        return round(sum(self.moves) / len(self.moves), 1) if self.moves else None


def summary(reviews: Iterable[Reviewed], seats: int = 2) -> list[SeatSummary]:
    """Per seat: accuracy and the counts of inaccuracies, mistakes and blunders."""
    out = [SeatSummary() for _ in range(seats)]
    for review in reviews:
        seat = out[review.seat]
        seat.moves.append(review.accuracy)
        name = review.judgement
        if name == "inaccuracy":
            seat.inaccuracies += 1
        elif name == "mistake":
            seat.mistakes += 1
        elif name == "blunder":
            seat.blunders += 1
    return out


def review_game(
    moves: Sequence[tuple[Position, Move]],
    model: WinModel,
    *,
    nodes: int = DEFAULT_NODES,
    progress: Callable[[int], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[Reviewed]:
    """Every move of a game (each with the position it was played in) reviewed; one
    :class:`Endgame` serves the whole game. Each position is searched once, then the
    moves are reviewed from the last back, each move's ``after`` the value of the position
    it led to (the module's rule), so a move's ``after`` is always the next one's
    ``before`` from the other side. ``progress`` hears the count of positions searched so
    far; when ``stop()`` says so (a budget spent), the moves reviewed until then (the
    last position searched gives the move before it its ``after``)."""
    endgame = Endgame()
    found: list[Verdict] = []
    for ply, (position, _played) in enumerate(moves, start=1):
        if stop is not None and stop():
            break
        found.append(verdict(position, model, nodes=nodes, endgame=endgame))
        if progress is not None:
            progress(ply)
    if not found:
        return []
    if len(found) == len(moves):
        position, played = moves[-1]
        following = position.play(played)
        value, exact = standing(following, model, nodes=nodes, endgame=endgame)
        count = len(moves)
    else:  # stopped: the last position searched values the move that led to it
        following = moves[len(found) - 1][0]
        value, exact = found[-1].before, found[-1].exact
        count = len(found) - 1
    reviews: list[Reviewed] = []
    for index in range(count - 1, -1, -1):
        position, played = moves[index]
        same = following.to_move == position.to_move
        after = value if same else round(100.0 - value, 1)
        review = review_move(
            index + 1, position, played, found[index], after=after, after_exact=exact
        )
        reviews.append(review)
        following, value, exact = position, review.before, review.exact
    reviews.reverse()
    return reviews
