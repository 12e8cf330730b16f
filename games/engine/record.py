"""The match record: a plain UTF-8 text file that anyone can replay (docs/record.md).

Build a :class:`Record` from plain data (or :func:`record_of` a :class:`MatchState`),
write it with :func:`record_to_text`, read it back with :func:`record_from_text`, and
:func:`replay` it: the engine plays every game again and says where the record's claimed
results disagree. ``python -m games.engine replay FILE`` does that on a file.

>>> record = Record(
...     variant="fast",
...     players=("alice", "bob"),
...     games=(GameRecord(1, "square 4x1 4 A12B 3,4 A", ("A 1", "B resigns game")),),
...     format="single",
...     date="2026-12-01",
... )
>>> print(record_to_text(record))
[Site "VOG"]
[Date "2026-12-01"]
[Variant "fast"]
[Format "single"]
[Clock "none"]
[A "alice"]
[B "bob"]
<BLANKLINE>
[Game "1"]
[Start "square 4x1 4 A12B 3,4 A"]
1. A 1
B resigns game
<BLANKLINE>
>>> record_from_text(record_to_text(record)) == record
True
>>> result = replay(record)
>>> result.games[0].position.scores, result.games[0].reason, result.winners, result.agrees
((3, 1), 'resigned', (0,), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.letters import seat_letters
from games.engine.match import BETWEEN_GAMES, MatchError, MatchState
from games.engine.position import Position
from games.engine.record_data import (
    FORMATS,
    GameRecord,
    Record,
    RecordError,
    event_item,
    game_items,
    move_item,
    parse_item,
)
from games.engine.record_text import record_from_text, record_to_text

__all__ = [
    "GameRecord",
    "GameReplay",
    "Record",
    "RecordError",
    "ReplayResult",
    "event_item",
    "game_items",
    "move_item",
    "record_from_text",
    "record_of",
    "record_to_text",
    "replay",
]


def record_of(
    state: MatchState,
    *,
    variant: str,
    players: Sequence[str],
    site: str = "VOG",
    date: str = "",
    clock: str = "none",
    tags: Sequence[tuple[str, str]] = (),
) -> Record:
    """The record of a match the engine played: its moves and events, and its results as
    the site's claims."""
    replayed = MatchState.new(state.board, games=state.games_planned)
    games = []
    for game in state.games:
        if game.number > 1:
            replayed = replayed.start_next_game()
        moves: list[tuple[int, int | str]] = []
        for ply in range(game.ply + 1):
            for at, seat, event in game.events:
                if at == ply:
                    replayed = _event(replayed, seat, event)
            if ply < game.ply:
                seat = replayed.current.position.to_move
                moves.append((seat, game.moves[ply]))
                replayed = replayed.play(seat, game.moves[ply])
        games.append(
            GameRecord(
                number=game.number,
                start=game.start.to_text(),
                moves=game_items(moves, game.events),
                final=game.position.to_text(),
                scores=game.position.scores,
                winners=game.winners if game.over else None,
                reason=game.reason,
            )
        )
    over = state.reason is not None
    return Record(
        variant=variant,
        players=players,
        games=games,
        format="match" if state.games_planned == 2 else "single",
        site=site,
        date=date,
        clock=clock,
        tags=tags,
        points=state.points,
        totals=state.totals,
        winners=state.winners if over else None,
        reason=state.reason,
    )


def _event(state: MatchState, seat: int | None, event: str) -> MatchState:
    if event == "abort":
        # Not only before every seat has moved: a moderator aborts a stuck match, and a
        # practice table left behind is aborted, at any move (SPEC §3). Recorded, so done.
        return state.abort(forced=True, by=seat)
    if seat is None:
        raise RecordError(f"{event} needs a seat")
    return state.event(seat, event)


@dataclass(frozen=True)
class GameReplay:
    """One game as the engine replayed it."""

    number: int
    position: Position  # the final position
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str | None  # None: the game had not ended when the record stops


@dataclass(frozen=True)
class ReplayResult:
    """The match as the engine replayed it, and every claim of the record it disagrees
    with (one sentence each)."""

    games: tuple[GameReplay, ...]
    status: str
    points: tuple[float, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str | None
    disagreements: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        return not self.disagreements


def replay(record: Record) -> ReplayResult:
    """Play every game of ``record`` with the engine from game 1's start, through
    :class:`MatchState` (moves, resignations, flags, abandonment, abort, game 2's start),
    and compare the results with what the record claims. Raises :class:`RecordError` if
    the record cannot be played (an illegal move, a move out of turn, a game after the
    match ended)."""
    try:
        board = Position.from_text(record.games[0].start) if record.games else None
    except ValueError as error:
        raise RecordError(f"game 1: start: {error}") from error
    if board is None:
        raise RecordError("the record has no game")
    if board.seats != len(record.players):
        raise RecordError(f"game 1 has {board.seats} seats, but {len(record.players)} players")
    state = MatchState.new(board, games=FORMATS[record.format])
    disagreements: list[str] = []
    for game in record.games:
        name = f"game {game.number}"
        if game.number > 1:
            if state.status != BETWEEN_GAMES:
                raise RecordError(f"{name} is recorded, but the match {_why_no_game(state)}")
            state = state.start_next_game()
            start = _canonical(game.start, f"{name} start")
            _compare(disagreements, f"{name} start", start, state.current.start.to_text())
        for index, item in enumerate(game.moves, start=1):
            seat, action, move = parse_item(item)
            try:
                if action == "play" and seat is not None and move is not None:
                    state = state.play(seat, move)
                else:
                    state = _event(state, seat, action)
            except MatchError as error:
                raise RecordError(f"{name}, item {index} ({item}): {error}") from error
        played = state.games[game.number - 1]
        position = played.position
        final = None if game.final is None else _canonical(game.final, f"{name} final")
        _compare(disagreements, f"{name} final position", final, position.to_text())
        _compare(disagreements, f"{name} scores", game.scores, position.scores)
        winners = played.winners if played.over else None
        _compare(disagreements, f"{name} winners", _sorted(game.winners), winners, letters=True)
        _compare(disagreements, f"{name} reason", game.reason, played.reason)
    over = state.reason is not None
    _compare(disagreements, "match points", record.points, state.points)
    _compare(disagreements, "match totals", record.totals, state.totals)
    winners = state.winners if over else None
    _compare(disagreements, "match winners", _sorted(record.winners), winners, letters=True)
    _compare(disagreements, "match reason", record.reason, state.reason)
    return ReplayResult(
        games=tuple(
            GameReplay(g.number, g.position, g.position.scores, g.winners, g.reason)
            for g in state.games
        ),
        status=state.status,
        points=state.points,
        totals=state.totals,
        winners=state.winners,
        reason=state.reason,
        disagreements=tuple(disagreements),
    )


def _canonical(fpn: str, what: str) -> str:
    try:
        return Position.from_text(fpn).to_text()
    except ValueError as error:
        raise RecordError(f"{what}: {error}") from error


def _why_no_game(state: MatchState) -> str:
    if state.reason is not None:
        return f"was over ({state.reason})"
    if len(state.games) >= state.games_planned:
        return f"has {state.games_planned} game(s) only"
    return f"game {state.current.number} has not ended"


def _sorted(seats: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if seats is None else tuple(sorted(seats))


def _compare(
    disagreements: list[str],
    what: str,
    claimed: object,
    replayed: object,
    *,
    letters: bool = False,
) -> None:
    """Note a claim (None: nothing claimed) that differs from the replay."""
    if claimed is None or claimed == replayed:
        return

    def shown(value: object) -> str:
        if value is None:
            return "nothing (not over)"
        if letters and isinstance(value, tuple):
            return seat_letters(value) or "nobody"
        if isinstance(value, tuple):
            return " ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
        return str(value)

    disagreements.append(
        f"{what}: the record says {shown(claimed)}, the replay gives {shown(replayed)}"
    )
