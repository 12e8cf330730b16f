"""Level 4 against other players, game by game, for ``bench/bots.py --sparring`` and
``--before``: the sparring partner of ``bench/sparring.py`` and the level 4 of an
earlier commit.

An earlier commit's engine comes from ``git archive REV games/engine`` into a scratch
directory and runs in a child process of its own (its modules have the same names as
today's); it is asked one position at a time over a pipe and answers with its move and
the seconds it took. Only one of the two computes at any moment.

Each board is played twice, level 4 once from each seat; game points are 1 a game won,
½ drawn. The first mover wins most games between players of like strength, so the two
games of a board are also scored as one match (SPEC §3): 2-0 wins it, 1-1 is decided on
the total score. Everything but the times is the same in every run.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.sparring import BUDGET, Sparring, no_equal_neighbours
from games.engine import VARIANTS, Position
from games.engine.bots import decide

ROOT = Path(__file__).resolve().parents[1]

# Run by the earlier commit's code: one JSON request a line (FPN, seed), one answer.
_WORKER = """
import json, sys, time
from games.engine import Position
from games.engine.bots import decide
for line in sys.stdin:
    text, seed = json.loads(line)
    start = time.perf_counter()
    decision = decide(Position.from_text(text), 4, seed=seed)
    print(json.dumps([decision.colour, time.perf_counter() - start]), flush=True)
"""


class Before:
    """Level 4 of commit ``revision``, in a child process."""

    def __init__(self, revision: str) -> None:
        self.revision = revision
        scratch = Path(tempfile.gettempdir()) / f"vog-engine-{revision}"
        if not (scratch / "games" / "engine").exists():
            scratch.mkdir(parents=True, exist_ok=True)
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", revision, "games/engine"],
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive, check=True)
            (scratch / "games" / "__init__.py").write_text("")
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER],
            cwd=scratch,
            env={"PYTHONPATH": str(scratch), "PATH": "/usr/bin:/bin"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __call__(self, position: Position, seed: int) -> tuple[int | str, float]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps([position.to_text(), seed]) + "\n")
        self.process.stdin.flush()
        colour, seconds = json.loads(self.process.stdout.readline())
        return colour, seconds

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait()


Player = Callable[[Position, int], tuple[int | str, float]]


def level4(nodes: int | None) -> Player:
    def move(position: Position, seed: int) -> tuple[int | str, float]:
        start = time.perf_counter()
        colour = decide(position, 4, seed=seed, nodes=nodes).colour
        return colour, time.perf_counter() - start

    return move


class SparringPlayer:
    """The sparring partner as a player; ``depths`` keeps each move's finished depth."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.depths: list[int] = []

    def __call__(self, position: Position, seed: int) -> tuple[int | str, float]:
        start = time.perf_counter()
        search = Sparring(position, self.budget)
        colour = search.best()
        self.depths.append(search.depth)
        return colour, time.perf_counter() - start


@dataclass
class Tally:
    """Level 4's points and every move's seconds, per player."""

    games: int = 0
    points: float = 0.0
    # the two games of a board as one match (SPEC §3): 1-1 is decided on total score
    match_points: float = 0.0
    lead: int = 0  # level 4's cells minus the other's, over every game
    mine: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def row(self, board: str) -> str:
        mine, theirs = self.mine, self.theirs
        matches = self.games // 2
        return (
            f"| {board} | {self.games} | {self.points:g} | {100 * self.points / self.games:.0f} "
            f"| {self.match_points:g} of {matches} | {100 * self.match_points / matches:.0f} "
            f"| {self.lead / self.games:+.1f} "
            f"| {1000 * statistics.mean(mine):.0f} | {1000 * statistics.median(mine):.0f} "
            f"| {1000 * max(mine):.0f} | {1000 * statistics.mean(theirs):.0f} "
            f"| {1000 * max(theirs):.0f} |"
        )


def start_position(board: str, n: int) -> Position:
    """Board ``n`` of a kind: ``fast`` (the variant's seed ``n``) or ``noeq`` (8x7, no
    two orthogonal neighbours of one colour)."""
    if board == "noeq":
        return no_equal_neighbours(n)
    return VARIANTS[board].new_position(n)


def play_game(start: Position, players: tuple[Player, Player], mine: int, tally: Tally) -> None:
    """One game; ``players[mine]`` is level 4."""
    position, ply = start, 0
    while not position.is_over:
        seat = position.to_move
        colour, seconds = players[seat](position, ply)
        (tally.mine if seat == mine else tally.theirs).append(seconds)
        position = position.play(colour)
        ply += 1
    winners = position.winners
    tally.games += 1
    tally.points += 0.5 if len(winners) == 2 else float(winners == (mine,))
    a, b = position.scores
    tally.lead += (a - b) if mine == 0 else (b - a)
    tally.lines.append(f"level 4 as {'AB'[mine]}: {a}-{b}")


def play_boards(board: str, boards: int, me: Player, other: Player) -> Tally:
    tally = Tally()
    for n in range(boards):
        start = start_position(board, n)
        points, lead = tally.points, tally.lead
        play_game(start, (me, other), 0, tally)
        play_game(start, (other, me), 1, tally)
        won, ahead = tally.points - points, tally.lead - lead
        if won != 1:
            tally.match_points += float(won > 1)
        else:
            tally.match_points += 1.0 if ahead > 0 else 0.5 if ahead == 0 else 0.0
    return tally


HEADER = (
    "| board | games | level 4's game points | % | match points | % | lead a game "
    "| level 4 ms/move mean | median | max | other ms/move mean | max |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|"
)
