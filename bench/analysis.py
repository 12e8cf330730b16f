"""Analysis benchmark (SPEC §13): CPU of one worker core for a whole match's review, and
for one "try another move" answer.

Matches are played by the computer against itself (level 3, both games of a match of
two) on Fast and Classic boards; each is then reviewed as the ``analysis`` queue does it
(``games.engine.analysis.review_game``, the analysis budget, one endgame solver per
game). Figures: the median of 5 matches per variant, and the p90 of "try another move"
(the verdict on the position after a tried colour, at the same budget) over the
positions of those matches. Baseline of the same run: one level-4 decision at its
default budget, as the computer plays. Printed, never asserted. Targets: a Fast match
under 10 s, a Classic match under 60 s, a try under 1 s at p90.

    .venv/bin/python bench/analysis.py [--matches 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import VARIANTS
from games.engine.analysis import NODES, model_for, review_game, verdict
from games.engine.bots import choose, decide
from games.engine.match import BETWEEN_GAMES, PLAYING, MatchState
from games.engine.replay import steps


def played_match(variant: str, seed: int) -> list[list[tuple]]:
    """Both games of a computer match: per game, (position, move) for every move."""
    state = MatchState.new(VARIANTS[variant].new_position(seed=seed), games=2)
    while state.status in (PLAYING, BETWEEN_GAMES):
        if state.status == BETWEEN_GAMES:
            state = state.start_next_game()
            continue
        position = state.current.position
        state = state.play(position.to_move, choose(position, 3, seed=seed + state.current.ply))
    games = []
    for timeline in steps(state):
        games.append([(before.position, after.move) for before, after in pairwise(timeline)])
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    tries: list[float] = []
    for variant in ("fast", "classic"):
        model, nodes = model_for(variant), NODES[variant]
        times, plies = [], []
        for seed in range(1, args.matches + 1):
            games = played_match(variant, seed)
            began = time.process_time()
            for moves in games:
                review_game(moves, model, nodes=nodes)
            times.append(time.process_time() - began)
            plies.append(sum(len(moves) for moves in games))
            for position, move in games[0][:: max(1, len(games[0]) // 4)]:
                child = position.play(move)
                if child.is_over:
                    continue
                began = time.process_time()
                verdict(child, model, nodes=nodes)
                tries.append(time.process_time() - began)
        start = VARIANTS[variant].new_position(seed=99)
        began = time.process_time()
        decide(start, 4)
        baseline = time.process_time() - began
        print(
            f"{variant}: a match reviewed in {statistics.median(times):.2f} s CPU (median of "
            f"{len(times)}; {min(times):.2f}-{max(times):.2f} s; {statistics.median(plies)} "
            f"moves), budget {nodes}; baseline: one level-4 decision {baseline * 1000:.0f} ms"
        )
    tries.sort()
    p90 = tries[int(0.9 * (len(tries) - 1))]
    print(f"try another move: p90 {p90 * 1000:.0f} ms CPU over {len(tries)} positions")


if __name__ == "__main__":
    main()
