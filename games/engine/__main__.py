"""The engine in a terminal: draw a position, watch computer players play a game, or
replay a match record and check its results.

    python -m games.engine show "square 4x3 6 124B/3312/A621 5,6 A"
    python -m games.engine play classic --seed 7 --players greedy,random
    python -m games.engine play practice --board hex --seed 3 --no-color
    python -m games.engine replay match-42.txt

``replay`` prints each game's final position, scores, winners and reason, then the
match's points, totals and result; it exits with 1 if the record's claimed results
disagree with the replay (each disagreement on a line of its own) and with 2 if the file
is not a record that can be played (the line that is wrong is named).

Cells are drawn in the palette's colours (24-bit ANSI) with each colour's symbol; a cell
that a seat owns shows the seat's letter on its current colour, ``#`` is an obstacle,
``*`` paint and ``·`` a dead cell (it counts for nobody). Walls are drawn between the
cells they separate: ``│`` within a row, ``─``, ``╲`` or ``╱`` between rows. With
``--no-color`` (or the ``NO_COLOR`` environment variable) the output is plain text and
free cells show their colour number, as in FPN.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from games.engine import PALETTE, VARIANTS, Position
from games.engine.letters import LETTERS, seat_letters
from games.engine.palette import DARK_INK
from games.engine.record import RecordError, ReplayResult, record_from_text, replay

RESET = "\x1b[0m"
PITCH = 4  # characters per cell: a space, then the cell's three characters
OBSTACLE_RGB = (40, 40, 40)
PAINT_RGB = (235, 235, 235)

Player = Callable[[Position, random.Random], int | str]


# --- drawing --------------------------------------------------------------------------------


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def _paint(text: str, background: tuple[int, int, int], *, dark_text: bool = False) -> str:
    fg = "30" if dark_text else "38;2;255;255;255"
    return f"\x1b[1;{fg};48;2;{background[0]};{background[1]};{background[2]}m{text}{RESET}"


def _swatch(colour: int, text: str, color: bool) -> str:
    entry = PALETTE[colour]
    return _paint(text, _rgb(entry.hex), dark_text=entry.ink == DARK_INK) if color else text


def _cell_text(
    pos: Position, cell: int, owner: int | None, colour: int, dead: bool, color: bool
) -> str:
    """Three characters: the owner's letter, ``#``, ``*``, ``·`` for a dead cell, or the
    colour's symbol (its number in plain text)."""
    if cell in pos.board.obstacles:
        return _paint(" # ", OBSTACLE_RGB) if color else " # "
    if owner is not None:
        return _swatch(colour, f" {LETTERS[owner]} ", color)
    if colour == 0:  # free paint
        return _paint(" * ", PAINT_RGB, dark_text=True) if color else " * "
    if dead:
        return _swatch(colour, " · ", color)
    return _swatch(colour, f" {PALETTE[colour].symbol} ", color) if color else f" {colour} "


def _columns(pos: Position) -> list[tuple[int, int]]:
    """Per cell: (row, column in characters where its three characters start)."""
    board = pos.board
    widest = max(board.row_lengths)
    placed = []
    for r, c in board.coords:
        if board.shape in ("hex", "rhombus"):
            indent = PITCH // 2 if r % 2 else 0  # odd rows are shifted by half a cell
        elif board.shape == "hexagon":
            indent = (widest - board.row_lengths[r]) * PITCH // 2  # rows are centred
        else:
            indent = 0
        placed.append((r, indent + 1 + c * PITCH))
    return placed


def render_board(pos: Position, *, color: bool = True) -> str:
    """The board as lines of text, walls drawn between the cells they separate."""
    board = pos.board
    owners, colours, dead = pos.owners(), pos.cell_colors(), pos.dead
    placed = _columns(pos)
    rows: list[list[tuple[int, str]]] = [[] for _ in board.row_lengths]
    for cell, (r, x) in enumerate(placed):
        text = _cell_text(pos, cell, owners[cell], colours[cell], cell in dead, color)
        rows[r].append((x, text))
    # walls inside a row sit in the gap before the right-hand cell; walls between two
    # rows go on a line of their own at the midpoint of the two cells
    in_row: dict[int, set[int]] = {}
    between: dict[int, dict[int, str]] = {}
    for i, j in board.walls:
        (ri, xi), (rj, xj) = placed[i], placed[j]
        if ri == rj:
            in_row.setdefault(ri, set()).add(max(xi, xj) - 1)
        else:
            (top, xt), (_, xb) = sorted([(ri, xi), (rj, xj)])
            line = between.setdefault(top, {})
            if xt == xb:
                line.update({xt: "─", xt + 1: "─", xt + 2: "─"})
            else:
                line[(xt + xb) // 2 + 1] = "╲" if xb > xt else "╱"
    lines = []
    for r, cells in enumerate(rows):
        text, column = "", 0
        for x, cell_text in cells:
            gap = x - column
            text += " " * (gap - 1) + ("│" if x - 1 in in_row.get(r, ()) else " ") + cell_text
            column = x + 3
        lines.append(text.rstrip())
        if board.walls and r < len(rows) - 1:
            marks = between.get(r, {})
            width = max(marks, default=-1) + 1
            lines.append("".join(marks.get(x, " ") for x in range(width)).rstrip())
    return "\n".join(lines)


def render_figures(pos: Position, *, color: bool = True) -> str:
    """Per seat its colour, score and potential, who is to move, and the figures per
    side shown above the board (SPEC §1)."""
    figures = pos.side_figures()
    solo = all(len(side.seats) == 1 for side in figures) and len(figures) > 2
    lines = []
    for seat in range(pos.seats):
        colour = pos.seat_colors[seat]
        swatch = _swatch(colour, f" {LETTERS[seat]} ", color)
        lead = f"  lead {figures[seat].lead:+d}" if solo else ""
        status = (
            "  out"
            if seat in pos.out
            else "  to move"
            if seat == pos.to_move and not pos.is_over
            else ""
        )
        lines.append(
            f"{swatch} {PALETTE[colour].key:<6} score {pos.scores[seat]:>3}  "
            f"potential {pos.potentials[seat]:>3}{lead}{status}"
        )
    if not solo:
        needed = pos.needed_to_win
        lines.append(f"needed to win: {needed} of {pos.countable}")
        for side in figures:
            name = "+".join(LETTERS[seat] for seat in side.seats)
            lines.append(
                f"{name}: score {side.score}, {side.to_equator} to go, lead {side.lead:+d}"
            )
    if pos.is_over:
        lines.append(result_line(pos))
    return "\n".join(lines)


def render_palette(pos: Position, *, color: bool = True) -> str:
    return "  ".join(
        _swatch(c, f" {PALETTE[c].symbol} ", color) + f" {c} {PALETTE[c].key}"
        if color
        else f"{c} {PALETTE[c].key}"
        for c in range(1, pos.colors + 1)
    )


def render(pos: Position, *, color: bool = True) -> str:
    return "\n".join(
        [
            render_palette(pos, color=color),
            render_board(pos, color=color),
            render_figures(pos, color=color),
        ]
    )


def result_line(pos: Position) -> str:
    scores = "-".join(str(score) for score in pos.side_scores)
    winners = "+".join(LETTERS[seat] for seat in pos.winners)
    sides = {pos.side_of(seat) for seat in pos.winners}
    if len(sides) > 1:
        return f"result: draw between {winners} ({scores})"
    return f"result: {winners} wins ({scores})"


# --- players --------------------------------------------------------------------------------


def random_player(pos: Position, rng: random.Random) -> int | str:
    """Any legal move, swap included."""
    return rng.choice(pos.legal_moves())


def greedy_player(pos: Position, rng: random.Random) -> int | str:
    """The move after which its side's score is highest (lowest colour on ties)."""
    side = pos.side_of(pos.to_move)
    return max(
        pos.legal_moves(),
        key=lambda move: (pos.play(move).side_scores[side], -(move if move != "swap" else 0)),
    )


PLAYERS: dict[str, Player] = {"random": random_player, "greedy": greedy_player}


def play_game(
    pos: Position, players: Sequence[str], rng: random.Random, *, color: bool = True
) -> tuple[Position, list[str]]:
    """Play ``pos`` to its end with one player per seat; returns the final position and a
    line per move."""
    lines = []
    ply = 0
    while not pos.is_over:
        ply += 1
        seat = pos.to_move
        move = PLAYERS[players[seat]](pos, rng)
        before = pos.scores[seat]
        pos = pos.play(move)
        if move == "swap":
            what = "swap"
        else:
            what = f"{move} {PALETTE[move].key}"
            if color:
                what = _swatch(move, f" {PALETTE[move].symbol} ", color) + " " + what
        lines.append(
            f"{ply:>3}. {LETTERS[seat]} ({players[seat]}) {what}: "
            f"{pos.scores[seat] - before:+d}, scores {'-'.join(map(str, pos.scores))}"
        )
    return pos, lines


# --- replaying a record -----------------------------------------------------------------------


def replay_file(path: str, *, color: bool = True) -> int:
    """Replay the record in ``path`` ("-": stdin) and print it; the exit status: 0 when
    the record agrees with the replay, 1 when it does not, 2 when it cannot be read."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        record = record_from_text(text)
        result = replay(record)
    except (OSError, UnicodeDecodeError) as error:
        print(f"{path}: cannot read the record: {error}", file=sys.stderr)
        return 2
    except RecordError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 2
    names = ", ".join(f"{LETTERS[seat]} {name}" for seat, name in enumerate(record.players))
    variant = VARIANTS[record.variant].name if record.variant in VARIANTS else record.variant
    print(f"{variant}, {record.date or 'no date'}, clock {record.clock}: {names}")
    print(render_replay(result, color=color))
    if result.agrees:
        return 0
    for line in result.disagreements:
        print(f"disagreement: {line}", file=sys.stderr)
    count = len(result.disagreements)
    print(
        f"{path}: the record's claimed results disagree with the replay in {count} place(s)",
        file=sys.stderr,
    )
    return 1


def render_replay(result: ReplayResult, *, color: bool = True) -> str:
    """Each game's final position, scores, winners and reason, then the match's points,
    totals and result."""
    lines = []
    for game in result.games:
        scores = ", ".join(f"{LETTERS[seat]} {score}" for seat, score in enumerate(game.scores))
        lines += [
            f"Game {game.number}",
            render(game.position, color=color),
            f"scores: {scores}",
            f"winners: {seat_letters(game.winners) or '-'}",
            f"reason: {game.reason or 'not over'}",
        ]
    points = ", ".join(f"{LETTERS[seat]} {p:g}" for seat, p in enumerate(result.points))
    totals = ", ".join(f"{LETTERS[seat]} {t}" for seat, t in enumerate(result.totals))
    if result.reason is None:
        outcome = f"not over ({result.status})"
    elif not result.winners:
        outcome = f"no result ({result.reason})"
    elif result.reason == "drawn":
        outcome = f"drawn between {seat_letters(result.winners)}"
    else:
        outcome = f"{seat_letters(result.winners)} wins ({result.reason})"
    lines += [f"Match points: {points}", f"Match totals: {totals}", f"Match result: {outcome}"]
    return "\n".join(lines)


# --- command line ---------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--no-color", action="store_true", help="plain text, no ANSI colours")
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser("show", help="draw a position given in FPN")
    show.add_argument("fpn", nargs="+", help="the FPN line (quoted, or its fields)")
    show.add_argument("--no-color", action="store_true", default=argparse.SUPPRESS)
    play = commands.add_parser("play", help="computer players play a game")
    play.add_argument("variant", choices=list(VARIANTS))
    play.add_argument("--seed", type=int, required=True, help="board seed")
    play.add_argument("--board", help="practice: which variant's board (default fast)")
    play.add_argument(
        "--players",
        default="random",
        help="comma-separated, one per seat, repeated as needed: random, greedy",
    )
    play.add_argument("--rng", type=int, help="seed of the random players (default: --seed)")
    play.add_argument("--no-color", action="store_true", default=argparse.SUPPRESS)
    replay_command = commands.add_parser(
        "replay", help="replay a match record and check the results it claims"
    )
    replay_command.add_argument("file", help="the record (docs/record.md); - reads stdin")
    replay_command.add_argument("--no-color", action="store_true", default=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    color = not args.no_color and not os.environ.get("NO_COLOR")

    if args.command == "replay":
        return replay_file(args.file, color=color)

    if args.command == "show":
        try:
            pos = Position.from_text(" ".join(args.fpn))
        except ValueError as error:
            parser.error(f"not a position: {error}")
        print(render(pos, color=color))
        return 0

    variant = VARIANTS[args.variant]
    try:
        pos = variant.new_position(args.seed, board=args.board)
    except ValueError as error:
        parser.error(str(error))
    names = [name.strip() for name in args.players.split(",") if name.strip()]
    unknown = sorted(set(names) - set(PLAYERS))
    if not names or unknown:
        parser.error(f"players are {', '.join(PLAYERS)}; got {args.players!r}")
    players = [names[seat % len(names)] for seat in range(pos.seats)]
    rng = random.Random(args.seed if args.rng is None else args.rng)
    print(f"{variant.name}, seed {args.seed}: {pos.to_text()}")
    print(render(pos, color=color))
    final, lines = play_game(pos, players, rng, color=color)
    print("\n".join(lines))
    print(render(final, color=color))
    print(final.to_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
