"""FPN, the one-line position notation of SPEC §5, read and written field by field.

    <shape> <width>x<height> <colours> <cells> <seat colours> <to move> [key=value ...]

``hexagon`` boards give their side as the size (``8x8``). Cells, row by row from the top
separated by ``/``: ``1``-``9`` a free cell of that colour, ``A``-``D`` a cell the seat
owns, ``#`` an obstacle, ``*`` a free paint cell. Optional fields, in canonical order,
each omitted when empty:

- ``v=<cell>:<value>,…`` cell values other than 1 (2 or 3), sorted by cell;
- ``w=<cell>-<cell>,…`` walls between neighbours, lower cell first, sorted;
- ``t=AC/BD`` teams (four seats only);
- ``pie=1`` the pie rule applies: set on a fresh Vinco board and kept through A's first
  move, so that B may answer ``swap``; B's answer, colour or swap, clears it;
- ``out=<letters>`` (extension) seats that are out, in the order they went out
  (three or four seats, each playing for itself);
- ``r=<letters>`` (extension) the seats of the side that conceded the game (two sides).

``parse`` checks everything a position needs and raises ``ValueError`` naming the field
that is wrong; ``write`` turns a parsed :class:`Fpn` back into the canonical line.

>>> fpn = parse("square 4x3 6 124B/3312/A621 5,6 A")
>>> fpn.cells, fpn.seat_colors, fpn.to_move
('124B3312A621', (5, 6), 0)
>>> write(fpn)
'square 4x3 6 124B/3312/A621 5,6 A'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.board import Board
from games.engine.letters import LETTERS, seat_letters
from games.engine.topology import SHAPES, grid

__all__ = ["LETTERS", "Fpn", "board_of", "cell_layout", "fpn_of", "parse", "write"]
OPTIONAL_FIELDS = ("v", "w", "t", "pie", "out", "r")
MAX_SIZE = 64


@dataclass(frozen=True)
class Fpn:
    """The fields of one FPN line, checked (``cells`` without the ``/`` separators)."""

    shape: str
    width: int
    height: int
    colors: int
    cells: str
    seat_colors: tuple[int, ...]
    to_move: int
    values: tuple[tuple[int, int], ...] = ()
    walls: tuple[tuple[int, int], ...] = ()
    teams: tuple[tuple[int, ...], ...] | None = None
    pie: bool = False
    out: tuple[int, ...] = ()
    resigned: tuple[int, ...] = ()


def parse(text: str) -> Fpn:
    """Read one FPN line; ``ValueError("<field>: <what is wrong>")`` if it is malformed."""
    if not isinstance(text, str):
        raise ValueError(f"FPN is a string, got {type(text).__name__}")
    fields = text.split()
    if len(fields) < 6:
        raise ValueError(
            "FPN needs shape, size, colours, cells, seat colours and to move; "
            f"got {len(fields)} field(s)"
        )
    shape_text, size_text, colors_text, cells_text, seats_text, move_text = fields[:6]
    if shape_text not in SHAPES:
        raise ValueError(f"shape: {shape_text!r} is not one of {', '.join(SHAPES)}")
    width, height = _size(shape_text, size_text)
    colors = _int("colours", colors_text, 2, 9)
    seat_colors = _seat_colors(seats_text, colors)
    seats = len(seat_colors)
    if colors <= seats:
        raise ValueError(f"colours: {seats} seats need at least {seats + 1} colours, got {colors}")
    if len(move_text) != 1 or move_text not in LETTERS[:seats]:
        raise ValueError(f"to move: {move_text!r} is not a seat letter (A-{LETTERS[seats - 1]})")
    cells = _cells(shape_text, width, height, cells_text, colors, seats)
    options = _options(fields[6:])
    teams = _teams(options.get("t"), seats)
    fpn = Fpn(
        shape=shape_text,
        width=width,
        height=height,
        colors=colors,
        cells=cells,
        seat_colors=seat_colors,
        to_move=LETTERS.index(move_text),
        values=_values(options.get("v"), cells),
        walls=_walls(options.get("w"), shape_text, width, height),
        teams=teams,
        pie=_pie(options.get("pie"), seats),
        out=_letters("out", options.get("out"), seats) if "out" in options else (),
        resigned=_letters("r", options.get("r"), seats) if "r" in options else (),
    )
    _check_seats(fpn)
    return fpn


def write(fpn: Fpn) -> str:
    """The canonical FPN line of ``fpn``."""
    rows, start = [], 0
    for length in grid(fpn.shape, fpn.width, fpn.height).row_lengths:
        rows.append(fpn.cells[start : start + length])
        start += length
    parts = [
        fpn.shape,
        f"{fpn.width}x{fpn.height}",
        str(fpn.colors),
        "/".join(rows),
        ",".join(map(str, fpn.seat_colors)),
        LETTERS[fpn.to_move],
    ]
    if fpn.values:
        parts.append("v=" + ",".join(f"{cell}:{value}" for cell, value in sorted(fpn.values)))
    if fpn.walls:
        parts.append("w=" + ",".join(f"{i}-{j}" for i, j in sorted(fpn.walls)))
    if fpn.teams and any(len(team) > 1 for team in fpn.teams):
        parts.append("t=" + "/".join(seat_letters(team) for team in fpn.teams))
    if fpn.pie:
        parts.append("pie=1")
    if fpn.out:
        parts.append("out=" + seat_letters(fpn.out))
    if fpn.resigned:
        parts.append("r=" + seat_letters(fpn.resigned))
    return " ".join(parts)


def board_of(fpn: Fpn) -> Board:
    """The board of a parsed line. Its paint cells are the free ones: a cell already
    owned shows only its owner."""
    return Board.get(
        fpn.shape,
        fpn.width,
        fpn.height,
        obstacles=[i for i, char in enumerate(fpn.cells) if char == "#"],
        paint=[i for i, char in enumerate(fpn.cells) if char == "*"],
        values=dict(fpn.values),
        walls=fpn.walls,
    )


def cell_layout(fpn: Fpn) -> tuple[list[int], list[int | None]]:
    """Per cell: its colour (0: none shown) and its owner (None: free)."""
    colours = [int(char) if char.isdigit() else 0 for char in fpn.cells]
    owners = [LETTERS.index(char) if char in LETTERS else None for char in fpn.cells]
    return colours, owners


def fpn_of(
    board: Board,
    colors: int,
    palette: Sequence[int],
    owned: Sequence[int],
    free: int,
    seat_colors: tuple[int, ...],
    to_move: int,
    *,
    teams: tuple[tuple[int, ...], ...] | None = None,
    pie: bool = False,
    out: tuple[int, ...] = (),
    resigned: tuple[int, ...] = (),
) -> Fpn:
    """The fields of a position given as bitboards (``palette[c]``: the cells of colour
    ``c``; ``owned[s]``: seat ``s``'s territory; ``free``: the cells nobody owns), ready
    for :func:`write`."""
    chars = ["#"] * board.size
    for cell in board.cells_of(free & board.paint_mask):
        chars[cell] = "*"
    for colour in range(1, colors + 1):
        for cell in board.cells_of(palette[colour] & free):
            chars[cell] = str(colour)
    for seat, cells in enumerate(owned):
        for cell in board.cells_of(cells):
            chars[cell] = LETTERS[seat]
    return Fpn(
        shape=board.shape,
        width=board.width,
        height=board.height,
        colors=colors,
        cells="".join(chars),
        seat_colors=seat_colors,
        to_move=to_move,
        values=tuple((i, v) for i, v in enumerate(board.values) if v != 1),
        walls=tuple(sorted(board.walls)),
        teams=teams,
        pie=pie,
        out=out,
        resigned=resigned,
    )


def _int(field: str, text: str, low: int, high: int) -> int:
    if not text.isdigit():
        raise ValueError(f"{field}: {text!r} is not a number")
    value = int(text)
    if not low <= value <= high:
        raise ValueError(f"{field}: {value} is outside {low}-{high}")
    return value


def _size(shape: str, text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)x(\d+)", text)
    if not match:
        raise ValueError(f"size: {text!r} is not <width>x<height>")
    width, height = int(match[1]), int(match[2])
    if not (1 <= width <= MAX_SIZE and 1 <= height <= MAX_SIZE):
        raise ValueError(f"size: {text} is outside 1x1-{MAX_SIZE}x{MAX_SIZE}")
    if shape == "hexagon" and (width != height or width < 2):
        raise ValueError(f"size: a hexagon board is given by its side as NxN (N ≥ 2), got {text}")
    return width, height


def _seat_colors(text: str, colors: int) -> tuple[int, ...]:
    parts = text.split(",")
    if not 2 <= len(parts) <= 4:
        raise ValueError(f"seat colours: 2 to 4 seats, got {len(parts)} in {text!r}")
    return tuple(_int("seat colours", part, 1, colors) for part in parts)


def _cells(shape: str, width: int, height: int, text: str, colors: int, seats: int) -> str:
    rows = text.split("/")
    lengths = grid(shape, width, height).row_lengths
    if len(rows) != len(lengths):
        raise ValueError(f"cells: {len(rows)} rows, expected {len(lengths)}")
    allowed = "#*" + "".join(map(str, range(1, colors + 1))) + LETTERS[:seats]
    for number, (row, length) in enumerate(zip(rows, lengths, strict=True), start=1):
        if len(row) != length:
            raise ValueError(f"cells: row {number} has {len(row)} cells, expected {length}")
        for column, char in enumerate(row, start=1):
            if char not in allowed:
                what = (
                    f"colour {char} is outside the palette 1-{colors}"
                    if char.isdigit()
                    else f"seat {char} is not one of the {seats} seats"
                    if char in LETTERS
                    else f"{char!r} is not a cell"
                )
                raise ValueError(f"cells: row {number}, column {column}: {what}")
    cells = "".join(rows)
    for seat in range(seats):
        if LETTERS[seat] not in cells:
            raise ValueError(f"cells: seat {LETTERS[seat]} owns no cell")
    return cells


def _options(fields: list[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for field in fields:
        key, equals, value = field.partition("=")
        if not equals or key not in OPTIONAL_FIELDS:
            raise ValueError(f"{field!r} is not an optional field ({', '.join(OPTIONAL_FIELDS)})")
        if key in options:
            raise ValueError(f"{key}: given twice")
        options[key] = value
    return options


def _values(text: str | None, cells: str) -> tuple[tuple[int, int], ...]:
    if text is None:
        return ()
    values: dict[int, int] = {}
    for entry in text.split(","):
        match = re.fullmatch(r"(\d+):(\d+)", entry)
        if not match:
            raise ValueError(f"v: {entry!r} is not <cell>:<value>")
        cell, value = int(match[1]), int(match[2])
        if cell >= len(cells):
            raise ValueError(f"v: cell {cell} is not on the board ({len(cells)} cells)")
        if cells[cell] == "#":
            raise ValueError(f"v: cell {cell} is an obstacle and has no value")
        if value not in (2, 3):
            raise ValueError(f"v: cell {cell} has value {value}; values given are 2 or 3")
        if cell in values:
            raise ValueError(f"v: cell {cell} given twice")
        values[cell] = value
    return tuple(sorted(values.items()))


def _walls(text: str | None, shape: str, width: int, height: int) -> tuple[tuple[int, int], ...]:
    if text is None:
        return ()
    neighbours = grid(shape, width, height).neighbours
    walls: set[tuple[int, int]] = set()
    for entry in text.split(","):
        match = re.fullmatch(r"(\d+)-(\d+)", entry)
        if not match:
            raise ValueError(f"w: {entry!r} is not <cell>-<cell>")
        i, j = sorted((int(match[1]), int(match[2])))
        if j >= len(neighbours) or j not in neighbours[i]:
            raise ValueError(f"w: cells {i} and {j} are not neighbours")
        if (i, j) in walls:
            raise ValueError(f"w: wall {i}-{j} given twice")
        walls.add((i, j))
    return tuple(sorted(walls))


def _letters(field: str, text: str | None, seats: int) -> tuple[int, ...]:
    letters = text or ""
    if not letters or any(c not in LETTERS[:seats] for c in letters):
        raise ValueError(
            f"{field}: {letters!r} is not a list of seat letters A-{LETTERS[seats - 1]}"
        )
    if len(set(letters)) != len(letters):
        raise ValueError(f"{field}: a seat is named twice in {letters!r}")
    return tuple(LETTERS.index(c) for c in letters)


def _teams(text: str | None, seats: int) -> tuple[tuple[int, ...], ...] | None:
    if text is None:
        return None
    if seats != 4:
        raise ValueError(f"t: teams need four seats, got {seats}")
    teams = [tuple(sorted(_letters("t", part, seats))) for part in text.split("/")]
    if len(teams) < 2 or sorted(s for team in teams for s in team) != list(range(seats)):
        raise ValueError(f"t: {text!r} does not split the seats A-D into teams")
    return tuple(sorted(teams))


def _pie(text: str | None, seats: int) -> bool:
    if text is None:
        return False
    if text != "1":
        raise ValueError(f"pie: the only value is 1, got {text!r}")
    if seats != 2:
        raise ValueError("pie: the pie rule is for two seats")
    return True


def _check_seats(fpn: Fpn) -> None:
    """Cross-field rules: who is out, who conceded, colours of opponents."""
    seats = len(fpn.seat_colors)
    teams = fpn.teams or tuple((seat,) for seat in range(seats))
    side_of = {seat: n for n, team in enumerate(teams) for seat in team}
    if fpn.out:
        if len(teams) < 3 or any(len(team) > 1 for team in teams):
            raise ValueError("out: only three or four seats each playing for itself go out")
        if len(fpn.out) >= seats:
            raise ValueError("out: at least one seat stays in the game")
        if fpn.to_move in fpn.out:
            raise ValueError(f"to move: {LETTERS[fpn.to_move]} is out")
    if fpn.resigned:
        if len(teams) != 2:
            raise ValueError("r: only a two-side game is conceded; three or four sides go out")
        if tuple(sorted(fpn.resigned)) not in teams:
            raise ValueError(f"r: {seat_letters(fpn.resigned)} is not a side")
        if fpn.resigned != tuple(sorted(fpn.resigned)):
            raise ValueError(f"r: letters in seat order, got {seat_letters(fpn.resigned)}")
    active = [seat for seat in range(seats) if seat not in fpn.out]
    for a in active:
        for b in active:
            if a < b and side_of[a] != side_of[b] and fpn.seat_colors[a] == fpn.seat_colors[b]:
                raise ValueError(
                    f"seat colours: {LETTERS[a]} and {LETTERS[b]} are opponents "
                    f"with the same colour {fpn.seat_colors[a]}"
                )
