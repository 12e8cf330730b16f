"""The match of SPEC §3 as a pure state machine.

A match is one or two games on the same board. Every event returns a new
:class:`MatchState`; the old one is never changed, so a service only has to store the
result (``to_dict``) and a failed event changes nothing.

>>> from games.engine import VARIANTS
>>> state = MatchState.new(VARIANTS["fast"].new_position(seed=1), games=2)
>>> state.status, state.current.number, state.current.ply
('playing', 1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from games.engine.errors import IllegalMove
from games.engine.position import Position

PLAYING = "playing"
BETWEEN_GAMES = "between_games"
FINISHED = "finished"
ABORTED = "aborted"

# Why a game ended.
DECIDED = "decided"  # a side's score passed every other active side's potential
FILLED = "filled"  # no free cell was left (that is not dead)
LAST_SIDE = "last_side"  # a single active side is left: every other side is out
RESIGNED = "resigned"
FLAGGED = "flagged"
ABANDONED = "abandoned"
STALLED = "stalled"  # STALL_PLIES plies in a row captured no cell
# Why a match ended, besides the three above.
POINTS = "points"
TOTALS = "totals"  # 1–1 (equal points) decided on total score
DRAWN = "drawn"

#: plies in a row that capture no cell (by chain or enclosure) after which a game ends
#: (SPEC §3, stalling): a rule of the match, not of the position
STALL_PLIES = 20

# What happened in a game besides the moves (GameState.events), named after the methods.
EVENTS = ("resign_game", "resign_match", "flag", "abandon", "abort")


class MatchError(ValueError):
    """An event the match cannot take now. ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class GameState:
    number: int
    start: Position
    position: Position
    moves: tuple[int | str, ...] = ()
    #: corners[seat] = index of the seat's corner in game 1's order (game 1: seat index)
    corners: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    reason: str | None = None
    #: (moves played in this game before it, seat or None, one of EVENTS), in order; an
    #: event after the game ended (between games) comes after all of its moves
    events: tuple[tuple[int, int | None, str], ...] = ()
    #: per move, (seat that moved, cells it gained): what the move list shows
    log: tuple[tuple[int, int], ...] = ()

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def over(self) -> bool:
        return self.reason is not None

    @property
    def first_seat(self) -> int:
        return self.start.to_move

    def side_scores_by_seat(self) -> tuple[int, ...]:
        """Each seat's side score (a Pairs seat counts its team's cells)."""
        position = self.position
        side_scores = position.side_scores
        return tuple(side_scores[_side_index(position, seat)] for seat in range(position.seats))

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "start": self.start.to_text(),
            "position": self.position.to_text(),
            "moves": list(self.moves),
            "corners": list(self.corners),
            "winners": list(self.winners),
            "reason": self.reason,
            "events": [list(event) for event in self.events],
            "log": [list(entry) for entry in self.log],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        start = _start_position(data["start"])
        moves = tuple(data["moves"])
        log = data.get("log")
        return cls(
            number=data["number"],
            start=start,
            position=Position.from_text(data["position"]),
            moves=moves,
            corners=tuple(data["corners"]),
            winners=tuple(data["winners"]),
            reason=data["reason"],
            # states stored before events were kept have none
            events=tuple((ply, seat, action) for ply, seat, action in data.get("events", [])),
            log=tuple(map(tuple, log)) if log is not None else _replayed_log(start, moves),
        )


@dataclass(frozen=True, slots=True)
class MatchState:
    games_planned: int
    games: tuple[GameState, ...]
    status: str = PLAYING
    ready: frozenset[int] = field(default_factory=frozenset)
    #: seats out for the rest of the match (resigned the match, flagged, abandoned), in order
    out: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    reason: str | None = None

    # --- construction and storage ---------------------------------------------------

    @classmethod
    def new(cls, board: Position, games: int = 2) -> MatchState:
        """A match on ``board`` (game 1's start position), game 1 under way."""
        if games not in (1, 2):
            raise ValueError("a match has one or two games")
        first = GameState(number=1, start=board, position=board, corners=tuple(range(board.seats)))
        return cls(games_planned=games, games=(first,))

    def to_dict(self) -> dict[str, Any]:
        return {
            "games_planned": self.games_planned,
            "games": [game.to_dict() for game in self.games],
            "status": self.status,
            "ready": sorted(self.ready),
            "out": list(self.out),
            "winners": list(self.winners),
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchState:
        return cls(
            games_planned=data["games_planned"],
            games=tuple(GameState.from_dict(game) for game in data["games"]),
            status=data["status"],
            ready=frozenset(data["ready"]),
            out=tuple(data["out"]),
            winners=tuple(data["winners"]),
            reason=data["reason"],
        )

    # --- reading ----------------------------------------------------------------------

    @property
    def current(self) -> GameState:
        return self.games[-1]

    @property
    def board(self) -> Position:
        return self.games[0].start

    @property
    def seats(self) -> int:
        return self.board.seats

    @property
    def two_sides(self) -> bool:
        return len(self.board.sides) == 2

    @property
    def points(self) -> tuple[float, ...]:
        """Game points per seat: win 1, draw ½ (multi-seat: ½ each to seats tied first)."""
        points = [0.0] * self.seats
        for game in self.games:
            if not game.over:
                continue
            sides = {_side_index(game.position, seat) for seat in game.winners}
            share = 1.0 if len(sides) == 1 else 0.5
            for seat in game.winners:
                points[seat] += share
        return tuple(points)

    @property
    def totals(self) -> tuple[int, ...]:
        """Total score per seat over the games played (a Pairs seat: its team's)."""
        totals = [0] * self.seats
        for game in self.games:
            for seat, score in enumerate(game.side_scores_by_seat()):
                totals[seat] += score
        return tuple(totals)

    @property
    def can_abort(self) -> bool:
        """Game 1 and the seat to move has not made its first move yet (SPEC §3: abort)."""
        game = self.current
        return self.status == PLAYING and game.number == 1 and game.ply < self.seats

    def active_sides(self) -> list[tuple[int, ...]]:
        """Sides with at least one seat not out for the match."""
        return [side for side in self.board.sides if any(seat not in self.out for seat in side)]

    def game_one_moves(self, seat: int) -> int:
        """How many moves ``seat`` made in game 1."""
        return sum(1 for mover, _gained in self.games[0].log if mover == seat)

    def aborted_by(self) -> int | None:
        """The seat whose action or inaction aborted the match (a resignation before every
        seat had moved, its first move not made in time), or None (the Abort button, a
        moderator)."""
        return next((seat for _ply, seat, event in self.current.events if event == "abort"), None)

    def side_moved(self, seat: int) -> bool:
        """Whether ``seat``'s side (the seat, or its team in Pairs) has made a move in
        game 1: until then its member may abort the match (SPEC §3)."""
        side = next(side for side in self.board.sides if seat in side)
        return any(mover in side for mover, _gained in self.games[0].log)

    # --- events -----------------------------------------------------------------------

    def play(self, seat: int, colour: int | str) -> MatchState:
        """The seat to move chooses a colour (or ``"swap"`` under the pie rule)."""
        game = self._playing_game()
        if seat in self.out or seat in game.position.out:
            raise MatchError("not_allowed", "this seat is out")
        if seat != game.position.to_move:
            raise MatchError("not_your_turn", "it is not your turn")
        try:
            position = game.position.play(colour)
        except IllegalMove as error:
            raise MatchError("illegal_color", str(error)) from error
        gained = _gained(game.position, position, seat, colour)
        game = replace(
            game,
            position=position,
            moves=(*game.moves, colour),
            log=(*game.log, (seat, gained)),
        )
        if position.is_over:
            game = replace(game, winners=tuple(position.winners), reason=end_reason(position))
        elif stalled(game.log):
            game = replace(game, winners=top_sides(position), reason=STALLED)
        return self._with_game(game)

    def ready_for_next(self, seat: int) -> MatchState:
        """A player presses "Ready for the next game"; game 2 starts when all are ready."""
        self._check_seat(seat)
        if self.status != BETWEEN_GAMES:
            raise MatchError("not_allowed", "there is no next game to be ready for")
        ready = self.ready | {seat}
        waiting = {s for s in range(self.seats) if s not in self.out} - ready
        state = replace(self, ready=frozenset(ready))
        return state.start_next_game() if not waiting else state

    def start_next_game(self) -> MatchState:
        """Start game 2 (all are ready, or the wait between games is over)."""
        if self.status != BETWEEN_GAMES:
            raise MatchError("not_allowed", "there is no next game to start")
        perm, to_move = game_two_rotation(self.board)
        start = self.board.with_seats_permuted(perm, to_move)
        position = start
        for seat in self.out:
            position = position.with_out(seat)
        corners = [0] * self.seats
        for seat in range(self.seats):
            corners[perm[seat]] = self.current.corners[seat]
        game = GameState(
            number=len(self.games) + 1,
            start=start,
            position=position,
            corners=tuple(corners),
        )
        return replace(self, games=(*self.games, game), status=PLAYING, ready=frozenset())

    def resign_game(self, seat: int) -> MatchState:
        """Give up the current game only; the next game is still played."""
        self._check_seat(seat)
        if seat in self.out:
            raise MatchError("not_allowed", "this seat is out")
        game = self._playing_game()
        if seat in game.position.out:
            raise MatchError("not_allowed", "this seat is already out of this game")
        game = _logged(game, seat, "resign_game")
        return self._with_game(self._conceded(game, seat, RESIGNED))

    def resign_match(self, seat: int) -> MatchState:
        return self._leave(seat, RESIGNED, "resign_match")

    def flag(self, seat: int) -> MatchState:
        return self._leave(seat, FLAGGED, "flag")

    def abandon(self, seat: int) -> MatchState:
        return self._leave(seat, ABANDONED, "abandon")

    def event(self, seat: int | None, name: str) -> MatchState:
        """One of the events ``GameState.events`` keeps, by its name: ``resign_game``,
        ``resign_match``, ``flag``, ``abandon`` (of ``seat``) or ``abort``."""
        if name == "abort":
            return self.abort(forced=True)
        if seat is None or name not in ("resign_game", "resign_match", "flag", "abandon"):
            raise MatchError("not_allowed", f"no event {name!r} of seat {seat}")
        return getattr(self, name)(seat)

    def take_back(self, plies: int) -> MatchState:
        """The current game as it was ``plies`` moves ago (practice tables: the player's
        last move and the computer's answer). Only while the game is being played and had
        no resignation or flag in it."""
        game = self._playing_game()
        if not 0 < plies <= game.ply:
            raise MatchError("not_allowed", "there is no move to take back")
        if game.events:
            raise MatchError("not_allowed", "there is no move to take back")
        position = game.start
        for seat in self.out:
            position = position.with_out(seat)
        moves = game.moves[: game.ply - plies]
        for colour in moves:
            position = position.play(colour)
        game = replace(game, position=position, moves=moves, log=game.log[: len(moves)])
        return self._replace_current(game)

    def abort(self, *, forced: bool = False, by: int | None = None) -> MatchState:
        """No result (SPEC §3: the first moves did not come). ``forced``: a moderator ends a
        stuck match at any point before its end, also without a result. ``by``: the seat
        whose action or inaction aborted it (a resignation before every seat moved, a
        first move that did not come in time), kept in the log."""
        if forced:
            if self.status not in (PLAYING, BETWEEN_GAMES):
                raise MatchError("game_over", "the match is over")
        elif not self.can_abort:
            raise MatchError("not_allowed", "the match can no longer be aborted")
        state = self._replace_current(_logged(self.current, by, "abort"))
        return replace(state, status=ABORTED, reason=ABORTED, ready=frozenset())

    # --- rated results ----------------------------------------------------------------

    def pairwise_scores(self) -> list[tuple[int, int, float]]:
        """(seat, other seat, seat's score) for each rated pairing (SPEC §4).

        Two sides: 1 / 0.6 / 0.5 / 0.4 / 0 for the whole side; Pairs: each player against
        both opponents with the team's result; four players: each seat against each other.
        """
        if self.status != FINISHED:
            raise MatchError("not_allowed", "the match is not finished")
        sides = self.board.sides
        pairs: list[tuple[int, int, float]] = []
        for i, side in enumerate(sides):
            for other in sides[i + 1 :]:
                score = self._side_score(side, other)
                for seat in side:
                    for opponent in other:
                        pairs.append((seat, opponent, score))
        return pairs

    def _side_score(self, side: tuple[int, ...], other: tuple[int, ...]) -> float:
        seat, opponent = side[0], other[0]
        if self.reason in (RESIGNED, FLAGGED, ABANDONED) and self.two_sides:
            return 1.0 if seat in self.winners else 0.0
        out_seat, out_opponent = seat in self.out, opponent in self.out
        if out_seat or out_opponent:
            if out_seat and out_opponent:  # the one out earlier ranks lower
                return 1.0 if self.out.index(seat) > self.out.index(opponent) else 0.0
            return 0.0 if out_seat else 1.0
        points, totals = self.points, self.totals
        if points[seat] != points[opponent]:
            return 1.0 if points[seat] > points[opponent] else 0.0
        if totals[seat] != totals[opponent]:
            return 0.6 if totals[seat] > totals[opponent] else 0.4
        return 0.5

    # --- internals --------------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.seats:
            raise MatchError("not_a_player", "no such seat")

    def _playing_game(self) -> GameState:
        if self.status == BETWEEN_GAMES:
            raise MatchError("game_over", "this game is over; the next one has not started")
        if self.status != PLAYING or self.current.over:
            raise MatchError("game_over", "the match is over")
        return self.current

    def _conceded(self, game: GameState, seat: int, reason: str) -> GameState:
        position = game.position.concede(seat)
        if len(position.sides) == 2:
            side = position.sides[_side_index(position, seat)]
            winners = tuple(s for s in range(position.seats) if s not in side)
            return replace(game, position=position, winners=winners, reason=reason)
        game = replace(game, position=position)
        if position.is_over:
            # the seat going out may leave one side, or decide the game for one of several
            game = replace(game, winners=tuple(position.winners), reason=end_reason(position))
        return game

    def _leave(self, seat: int, reason: str, event: str) -> MatchState:
        """Resign the match, flag or abandon: two sides lose the match; three or four
        seats are out for the rest of the match and the others play on."""
        self._check_seat(seat)
        if self.status not in (PLAYING, BETWEEN_GAMES):
            raise MatchError("game_over", "the match is over")
        if seat in self.out:
            raise MatchError("not_allowed", "this seat is already out")
        return self._replace_current(_logged(self.current, seat, event))._left(seat, reason)

    def _left(self, seat: int, reason: str) -> MatchState:
        state = self
        game = self.current
        if self.two_sides:
            if self.status == PLAYING and not game.over:
                state = self._replace_current(self._conceded(game, seat, reason))
            side = self.board.sides[_side_index(self.board, seat)]
            winners = tuple(s for s in range(self.seats) if s not in side)
            return replace(state, status=FINISHED, winners=winners, reason=reason)
        state = replace(state, out=(*self.out, seat), ready=self.ready - {seat})
        last_side = len(state.active_sides()) <= 1
        if self.status == PLAYING and not game.over and seat not in game.position.out:
            conceded = state._conceded(game, seat, reason)
            # The game's record is kept; whether the match goes on is decided below.
            state = state._replace_current(conceded) if last_side else state._with_game(conceded)
        if last_side:
            winners = tuple(s for side in state.active_sides() for s in side)
            return replace(state, status=FINISHED, winners=winners, reason=reason)
        if (
            state.status == BETWEEN_GAMES
            and state.ready
            and not ({s for s in range(self.seats) if s not in state.out} - state.ready)
        ):
            state = state.start_next_game()
        return state

    def _replace_current(self, game: GameState) -> MatchState:
        return replace(self, games=(*self.games[:-1], game))

    def _with_game(self, game: GameState) -> MatchState:
        """Store the current game; if it ended, go between games or finish the match."""
        state = self._replace_current(game)
        if not game.over:
            return state
        if len(state.games) < state.games_planned and len(state.active_sides()) > 1:
            return replace(state, status=BETWEEN_GAMES, ready=frozenset())
        return state._finished()

    def _finished(self) -> MatchState:
        """Rank by points, then total score; seats out for the match rank last."""
        points, totals = self.points, self.totals
        active = [s for s in range(self.seats) if s not in self.out]
        best = max((points[s], totals[s]) for s in active)
        top = tuple(s for s in active if (points[s], totals[s]) == best)
        top_sides = {_side_index(self.board, s) for s in top}
        if self.games_planned == 1 and self.current.reason == STALLED:
            # A single game that stalled: the match ends for the reason its game did.
            return replace(self, status=FINISHED, winners=top, reason=STALLED)
        if len(top_sides) > 1:
            return replace(self, status=FINISHED, winners=top, reason=DRAWN)
        runner_up_points = [points[s] for s in active if s not in top]
        reason = POINTS if not runner_up_points or max(runner_up_points) < best[0] else TOTALS
        return replace(self, status=FINISHED, winners=top, reason=reason)


@lru_cache(maxsize=2048)
def _start_position(text: str) -> Position:
    """A game's start never changes: parse it once (positions are immutable, so sharing
    one object is safe)."""
    return Position.from_text(text)


def _gained(before: Position, after: Position, seat: int, colour: int | str) -> int:
    """Cells a move added to the mover's territory (the pie rule's swap gains none)."""
    if colour == "swap":
        return 0
    return len(after.territory(seat)) - len(before.territory(seat))


def _replayed_log(start: Position, moves: tuple[int | str, ...]) -> tuple[tuple[int, int], ...]:
    """The move log of a game stored before the log was kept: replay its moves (a
    resignation in between does not move, so the replay stops where the moves do)."""
    log = []
    position = start
    for colour in moves:
        seat = position.to_move
        after = position.play(colour)
        log.append((seat, _gained(position, after, seat, colour)))
        position = after
    return tuple(log)


def stalled(log: tuple[tuple[int, int], ...]) -> bool:
    """Whether the last ``STALL_PLIES`` moves of a game's log all captured nothing.

    >>> stalled(((0, 3),) + ((1, 0), (0, 0)) * 10), stalled(((1, 0), (0, 0)) * 9)
    (True, False)
    """
    return len(log) >= STALL_PLIES and all(gained == 0 for _, gained in log[-STALL_PLIES:])


def top_sides(position: Position) -> tuple[int, ...]:
    """The seats of the active sides with the highest score: one side wins, several tied
    draw (SPEC §1's ranking, for a game ended before the board decided it)."""
    active = [
        index
        for index, side in enumerate(position.sides)
        if any(seat not in position.out for seat in side)
    ]
    best = max(position.side_scores[index] for index in active)
    return tuple(
        sorted(
            seat
            for index in active
            if position.side_scores[index] == best
            for seat in position.sides[index]
        )
    )


def _logged(game: GameState, seat: int | None, event: str) -> GameState:
    return replace(game, events=(*game.events, (game.ply, seat, event)))


def end_reason(position: Position) -> str:
    """Why a game that no seat conceded has ended (SPEC §1): ``last_side`` when a single
    active side is left, ``filled`` when no free countable cell is left, else ``decided``
    (a side's score passed the potential of every other active side)."""
    active = [side for side in position.sides if any(s not in position.out for s in side)]
    if len(active) == 1:
        return LAST_SIDE
    if position.countable == sum(position.scores):
        return FILLED
    return DECIDED


def _side_index(position: Position, seat: int) -> int:
    for index, side in enumerate(position.sides):
        if seat in side:
            return index
    raise ValueError(f"seat {seat} has no side")


def game_two_rotation(board: Position) -> tuple[list[int], int]:
    """Game 2's corners (SPEC §3) as (perm, first seat): perm[s] is the seat that takes
    seat s's game-1 corner, and the seat now at the bottom-left corner moves first."""
    seats = board.seats
    if seats == 2:
        perm = [1, 0]
    elif seats == 4 and len(board.sides) == 2:
        # Pairs: each seat moves one corner clockwise (BL → TL → TR → BR → BL), so the
        # corner of seat s is taken by the seat before it.
        perm = [(s - 1) % 4 for s in range(4)]
    elif seats == 4:
        # Four players: each seat moves to the diagonally opposite corner.
        perm = [(s + 2) % 4 for s in range(4)]
    else:
        raise ValueError("only two- and four-seat variants play a second game")
    return perm, perm[0]
