"""Self-play for level 4's leaf weights on two seats (``games.engine.bots.duel``): a
version of level 4 with other weights against today's, on our Fast boards and on 8x7
boards with no equal neighbours, each board from both seats, at the same budget.

    .venv/bin/python bench/tune.py --tempo 0.5 --race 1.0 --boards 40
    .venv/bin/python bench/tune.py --tempo 0.25 --race 0.5 --kinds noeq

Prints game points and match points (a board's two games as one match, SPEC §3) of the
tried weights; everything but the times is the same in every run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import opponents
from bench.machine import machine
from games.engine import Position
from games.engine.bots import SMALL_BOARD_NODES, decide
from games.engine.bots.duel import Duel


def tried(tempo: float, race: float, nodes: int) -> opponents.Player:
    """Level 4 with the leaf weights ``tempo`` and ``race``, tie-broken as ``decide``
    breaks ties."""

    class Tried(Duel):
        tempo_weight = tempo
        race_weight = race

    def move(position: Position, seed: int) -> tuple[int | str, float]:
        start = time.perf_counter()
        moves = position.legal_moves()
        if len(moves) > 1:
            random.Random(f"{seed}:{position.to_text()}").shuffle(moves)
            colour = Tried(position, budget=nodes).run(moves).move
        else:
            colour = moves[0]
        return colour, time.perf_counter() - start

    return move


def today(nodes: int) -> opponents.Player:
    def move(position: Position, seed: int) -> tuple[int | str, float]:
        start = time.perf_counter()
        colour = decide(position, 4, seed=seed, nodes=nodes).colour
        return colour, time.perf_counter() - start

    return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tempo", type=float, required=True)
    parser.add_argument("--race", type=float, required=True)
    parser.add_argument("--boards", type=int, default=40, help="boards per kind")
    parser.add_argument("--kinds", default="fast,noeq")
    parser.add_argument("--nodes", type=int, default=SMALL_BOARD_NODES, help="8x7 boards")
    args = parser.parse_args()
    print(f"# Leaf weights tempo {args.tempo:g}, race {args.race:g} against today's level 4")
    print(f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {machine()}; budget {args.nodes}")
    print()
    print(opponents.HEADER.replace("level 4", "tried"))
    me, other = tried(args.tempo, args.race, args.nodes), today(args.nodes)
    for kind in args.kinds.split(","):
        print(opponents.play_boards(kind, args.boards, me, other).row(kind), flush=True)


if __name__ == "__main__":
    main()
