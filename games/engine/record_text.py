"""The match record's text format (docs/record.md): UTF-8 lines, a header of
``[Key "value"]`` lines, then per game a ``[Game "n"]`` section with its fields and its
numbered moves, one round to a line, events on lines of their own.

>>> record = record_from_text('''
... [Variant "fast"]
... [A "alice"]
... [B "bob"]
... [Game "1"]
... [Start "square 4x1 4 A12B 3,4 A"]
... 1. A 1  2. B 2
... ''')
>>> record.players, record.games[0].moves, record.format
(('alice', 'bob'), ('A 1', 'B 2'), 'match')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from games.engine.letters import LETTERS, seat_letters
from games.engine.position import Position
from games.engine.record_data import (
    FORMATS,
    GAME_KEYS,
    GAME_REASONS,
    HEADER_KEYS,
    MATCH_REASONS,
    GameRecord,
    Record,
    RecordError,
    parse_item,
)

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]')


def record_to_text(record: Record) -> str:
    """The record as text (docs/record.md), ending with a newline."""
    lines = []
    if record.site:
        lines.append(_tag("Site", record.site))
    if record.date:
        lines.append(_tag("Date", record.date))
    lines += [
        _tag("Variant", record.variant),
        _tag("Format", record.format),
        _tag("Clock", record.clock),
    ]
    lines += [_tag(LETTERS[seat], name) for seat, name in enumerate(record.players)]
    lines += [_tag(key, value) for key, value in record.tags]
    if record.points is not None:
        lines.append(_tag("Points", " ".join(f"{points:g}" for points in record.points)))
    if record.totals is not None:
        lines.append(_tag("Totals", " ".join(map(str, record.totals))))
    if record.winners is not None:
        lines.append(_tag("Winners", seat_letters(record.winners)))
    if record.reason is not None:
        lines.append(_tag("Reason", record.reason))
    for game in record.games:
        lines += ["", _tag("Game", str(game.number)), _tag("Start", game.start)]
        if game.final is not None:
            lines.append(_tag("Final", game.final))
        if game.scores is not None:
            lines.append(_tag("Scores", " ".join(map(str, game.scores))))
        if game.winners is not None:
            lines.append(_tag("Winners", seat_letters(game.winners)))
        if game.reason is not None:
            lines.append(_tag("Reason", game.reason))
        lines += _move_lines(game.moves, len(record.players))
    return "\n".join(lines) + "\n"


def _tag(key: str, value: str) -> str:
    if "\n" in value or "\r" in value:
        raise RecordError(f"{key}: a value is one line, got {value!r}")
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{key} "{escaped}"]'


def _move_lines(items: Sequence[str], seats: int) -> list[str]:
    """Numbered moves, one round (a move per seat) to a line; events on lines of their own."""
    lines: list[str] = []
    row: list[str] = []
    ply = 0
    for item in items:
        if parse_item(item)[1] == "play":
            ply += 1
            row.append(f"{ply}. {item}")
            if len(row) == seats:
                lines.append("  ".join(row))
                row = []
        else:
            if row:
                lines.append("  ".join(row))
                row = []
            lines.append(item)
    if row:
        lines.append("  ".join(row))
    return lines


def record_from_text(text: str) -> Record:
    """Read a record; :class:`RecordError` (a ``ValueError``) names the line of what is
    wrong."""
    header: dict[str, tuple[str, int]] = {}
    extra: list[tuple[str, str]] = []
    games: list[dict[str, Any]] = []
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            key, value = _read_tag(line, number)
            if key == "Game":
                if value != str(len(games) + 1):
                    raise RecordError(f'expected [Game "{len(games) + 1}"], got {value!r}', number)
                games.append({"number": len(games) + 1, "line": number, "moves": []})
            elif not games:
                if key in header or any(key == k for k, _ in extra):
                    raise RecordError(f"{key} is given twice", number)
                if key in HEADER_KEYS:
                    header[key] = (value, number)
                else:
                    extra.append((key, value))
            else:
                game = games[-1]
                if key not in GAME_KEYS:
                    raise RecordError(
                        f"{key} is not a field of a game ({', '.join(GAME_KEYS)})", number
                    )
                if game["moves"]:
                    raise RecordError(
                        f"{key} comes after the moves of game {game['number']}", number
                    )
                if key in game:
                    raise RecordError(f"{key} is given twice in game {game['number']}", number)
                game[key] = (value, number)
        elif not games:
            raise RecordError('moves before the first [Game "1"]', number)
        else:
            games[-1]["moves"] += _read_moves(line, number, games[-1]["moves"])
    return _assemble(header, extra, games, games[0]["line"] if games else number)


def _read_tag(line: str, number: int) -> tuple[str, str]:
    match = _TAG.fullmatch(line)
    if not match:
        raise RecordError(f'{line!r} is not a [Key "value"] line', number)
    return match[1], re.sub(r"\\(.)", r"\1", match[2])


def _read_moves(line: str, number: int, before: list[str]) -> list[str]:
    """The items of one line: an event alone, or numbered moves ``12. A 3``."""
    try:
        if parse_item(line)[1] != "play":
            return [line]
    except RecordError:
        pass  # not a single item: numbered moves
    tokens = line.split()
    ply = sum(1 for item in before if parse_item(item)[1] == "play")
    items = []
    for at in range(0, len(tokens), 3):
        triple = tokens[at : at + 3]
        ply += 1
        if len(triple) < 3 or triple[0] != f"{ply}.":
            raise RecordError(
                f"expected move {ply} as '{ply}. <seat letter> <colour or swap>', "
                f"got {' '.join(triple)!r}",
                number,
            )
        item = f"{triple[1]} {triple[2]}"
        try:
            is_move = parse_item(item)[1] == "play"
        except RecordError:
            is_move = False
        if not is_move:
            raise RecordError(
                f"move {ply}: {item!r} is not a seat letter and a colour 1-9 or swap", number
            )
        items.append(item)
    return items


def _assemble(
    header: dict[str, tuple[str, int]],
    extra: list[tuple[str, str]],
    games: list[dict[str, Any]],
    end: int,
) -> Record:
    """The record of the fields read, checked against each other; ``end``: the line where
    the header ended."""
    for key in ("Variant", "A", "B"):
        if key not in header:
            raise RecordError(f"the header has no {key} line", end)
    letters = [letter for letter in LETTERS if letter in header]
    if "".join(letters) != LETTERS[: len(letters)]:
        raise RecordError(
            f"players are named A, B, C, D in order, got {', '.join(letters)}",
            header[letters[-1]][1],
        )
    seats = len(letters)
    if not games:
        raise RecordError('the record has no [Game "1"]', end)
    game_records = [_game(game, seats) for game in games]
    fields: dict[str, Any] = {}
    if "Points" in header:
        fields["points"] = _numbers(*header["Points"], seats, "Points", float)
    if "Totals" in header:
        fields["totals"] = _numbers(*header["Totals"], seats, "Totals", int)
    if "Winners" in header:
        fields["winners"] = _winners(*header["Winners"], seats)
    if "Reason" in header:
        value, number = header["Reason"]
        if value not in MATCH_REASONS:
            raise RecordError(
                f"{value!r} is not a match reason ({', '.join(MATCH_REASONS)})", number
            )
        fields["reason"] = value
    value, number = header.get("Format", ("match", 0))
    if value not in FORMATS:
        raise RecordError(f"format {value!r} is not one of {', '.join(FORMATS)}", number)
    return Record(
        variant=header["Variant"][0],
        players=tuple(header[letter][0] for letter in letters),
        games=game_records,
        format=value,
        site=header.get("Site", ("", 0))[0],
        date=header.get("Date", ("", 0))[0],
        clock=header.get("Clock", ("none", 0))[0],
        tags=extra,
        **fields,
    )


def _game(game: dict[str, Any], seats: int) -> GameRecord:
    name = f"game {game['number']}"
    if "Start" not in game:
        raise RecordError(f"{name} has no Start line", game["line"])
    for key in ("Start", "Final"):
        if key in game:
            value, number = game[key]
            try:
                position = Position.from_text(value)
            except ValueError as error:
                raise RecordError(f"{key}: not a position: {error}", number) from error
            if position.seats != seats:
                raise RecordError(f"{key}: {position.seats} seats, but {seats} players", number)
    fields: dict[str, Any] = {}
    if "Scores" in game:
        fields["scores"] = _numbers(*game["Scores"], seats, "Scores", int)
    if "Winners" in game:
        fields["winners"] = _winners(*game["Winners"], seats)
    if "Reason" in game:
        value, number = game["Reason"]
        if value not in GAME_REASONS:
            raise RecordError(f"{value!r} is not a game reason ({', '.join(GAME_REASONS)})", number)
        fields["reason"] = value
    return GameRecord(
        number=game["number"],
        start=game["Start"][0],
        moves=game["moves"],
        final=game["Final"][0] if "Final" in game else None,
        **fields,
    )


def _numbers(value: str, number: int, seats: int, key: str, kind: type) -> tuple[Any, ...]:
    parts = value.split()
    if len(parts) != seats:
        raise RecordError(f"{key}: {len(parts)} numbers for {seats} seats", number)
    try:
        numbers = tuple(kind(part) for part in parts)
    except ValueError:
        raise RecordError(f"{key}: {value!r} is not {seats} numbers", number) from None
    if any(n < 0 or (n * 2) % 1 for n in numbers):
        raise RecordError(f"{key}: {value!r} has a number that is not 0, ½, 1, 1½, ...", number)
    return numbers


def _winners(value: str, number: int, seats: int) -> tuple[int, ...]:
    if any(c not in LETTERS[:seats] for c in value) or len(set(value)) != len(value):
        raise RecordError(
            f"Winners: {value!r} is not a list of seat letters A-{LETTERS[seats - 1]}", number
        )
    return tuple(LETTERS.index(c) for c in value)
