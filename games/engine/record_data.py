"""The match record as data (docs/record.md): a :class:`Record` of plain strings, numbers
and lists, its :class:`GameRecord` games, and the items a game is made of.

An item is one line of a game's story: ``"A 3"`` (seat A plays colour 3), ``"B swap"``,
``"C resigns game"``, ``"D resigns match"``, ``"A flags"``, ``"B abandons"`` or
``"aborted"``. Events are items too, so a record reproduces a game or a match that ended
without a move.

>>> game_items([(0, 1), (1, 2)], [(2, 0, "resign_game")])
['A 1', 'B 2', 'A resigns game']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.letters import LETTERS
from games.engine.match import (
    ABANDONED,
    ABORTED,
    DECIDED,
    DRAWN,
    FILLED,
    FLAGGED,
    LAST_SIDE,
    POINTS,
    RESIGNED,
    STALLED,
    TOTALS,
)

GAME_REASONS = (DECIDED, FILLED, LAST_SIDE, STALLED, RESIGNED, FLAGGED, ABANDONED)
MATCH_REASONS = (POINTS, TOTALS, DRAWN, STALLED, RESIGNED, FLAGGED, ABANDONED, ABORTED)
FORMATS = {"match": 2, "single": 1}
#: the words of an event line after the seat's letter, per MatchState event
EVENT_WORDS = {
    "resign_game": "resigns game",
    "resign_match": "resigns match",
    "flag": "flags",
    "abandon": "abandons",
}
ABORTED_LINE = "aborted"
#: the fields of the header and of a game that the format defines; the players are the
#: header fields A, B, C, D
HEADER_KEYS = ("Site", "Date", "Variant", "Format", "Clock", *LETTERS)
HEADER_KEYS += ("Points", "Totals", "Winners", "Reason")
GAME_KEYS = ("Start", "Final", "Scores", "Winners", "Reason")

_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_MOVE = re.compile(r"([A-D]) ([1-9]|swap)")
_EVENT = re.compile(r"([A-D]) (" + "|".join(EVENT_WORDS.values()) + ")")


class RecordError(ValueError):
    """A record that cannot be read or replayed; ``line`` is the line number in the text
    when the error is in the text."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@dataclass(frozen=True)
class GameRecord:
    """One game: its number, start position (FPN) and items in order, each ``"A 3"`` (a
    colour), ``"B swap"``, ``"C resigns game"``, ``"D resigns match"``, ``"A flags"``,
    ``"B abandons"`` or ``"aborted"``; then what the site recorded as the game's end,
    when known (None: not claimed)."""

    number: int
    start: str
    moves: Sequence[str] = ()
    final: str | None = None
    scores: Sequence[int] | None = None
    winners: Sequence[int] | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        _freeze(self, "moves", "scores", "winners")
        for item in self.moves:
            parse_item(item)
        if self.reason is not None and self.reason not in GAME_REASONS:
            raise RecordError(f"game {self.number}: {self.reason!r} is not a game reason")


@dataclass(frozen=True)
class Record:
    """A match: header fields, player names in seat order, its games, and the match's
    result as the site recorded it, when known (None: not claimed). ``tags`` are further
    header fields, kept in order."""

    variant: str
    players: Sequence[str]
    games: Sequence[GameRecord]
    format: str = "match"
    site: str = "VOG"
    date: str = ""
    clock: str = "none"
    tags: Sequence[tuple[str, str]] = ()
    points: Sequence[float] | None = None
    totals: Sequence[int] | None = None
    winners: Sequence[int] | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        _freeze(self, "players", "games", "tags", "points", "totals", "winners")
        if self.format not in FORMATS:
            raise RecordError(f"format: {self.format!r} is not one of {', '.join(FORMATS)}")
        if not 2 <= len(self.players) <= 4:
            raise RecordError(f"2 to 4 players, got {len(self.players)}")
        numbers = [game.number for game in self.games]
        if numbers != list(range(1, len(numbers) + 1)):
            raise RecordError(f"games are numbered 1, 2 in order, got {numbers}")
        if self.reason is not None and self.reason not in MATCH_REASONS:
            raise RecordError(f"{self.reason!r} is not a match reason")
        for key, _ in self.tags:
            if not _KEY.fullmatch(key) or key in (*HEADER_KEYS, "Game"):
                raise RecordError(f"{key!r} cannot be a further header field")


def _freeze(record: Any, *names: str) -> None:
    """Lists given to a record become tuples, so records compare equal and stay fixed."""
    for name in names:
        value = getattr(record, name)
        if value is not None and not isinstance(value, tuple):
            object.__setattr__(record, name, tuple(value))


def parse_item(text: str) -> tuple[int | None, str, int | str | None]:
    """(seat or None, what, colour or "swap" or None) of one item of a game: ``what`` is
    "play" for a move, else the :class:`MatchState` event ("resign_game", "resign_match",
    "flag", "abandon", "abort"). :class:`RecordError` if it is neither.

    >>> parse_item("B 3"), parse_item("C flags"), parse_item("aborted")
    ((1, 'play', 3), (2, 'flag', None), (None, 'abort', None))
    """
    if text == ABORTED_LINE:
        return None, "abort", None
    if match := _MOVE.fullmatch(text):
        move = match[2]
        return LETTERS.index(match[1]), "play", move if move == "swap" else int(move)
    if match := _EVENT.fullmatch(text):
        action = next(key for key, words in EVENT_WORDS.items() if words == match[2])
        return LETTERS.index(match[1]), action, None
    raise RecordError(f"{text!r} is not a move (like 'A 3' or 'B swap') or an event")


def move_item(seat: int, move: int | str) -> str:
    """The item of a move: ``move_item(1, 3) == "B 3"``."""
    return f"{LETTERS[seat]} {move}"


def event_item(seat: int | None, event: str) -> str:
    """The item of a ``MatchState`` event: ``event_item(2, "flag") == "C flags"``."""
    if event == "abort":
        return ABORTED_LINE
    if seat is None or event not in EVENT_WORDS:
        raise RecordError(f"{event!r} by seat {seat!r} is not an event of a record")
    return f"{LETTERS[seat]} {EVENT_WORDS[event]}"


def game_items(
    moves: Sequence[tuple[int, int | str]], events: Sequence[tuple[int, int | None, str]]
) -> list[str]:
    """A game's items from its moves as (seat, colour or "swap") and its events as
    ``GameState.events`` has them (moves played before it, seat, event)."""
    items = []
    for ply in range(len(moves) + 1):
        items.extend(event_item(seat, event) for at, seat, event in events if at == ply)
        if ply < len(moves):
            items.append(move_item(*moves[ply]))
    return items
