"""Fit the analysis' win-chance model (SPEC §13, docs/analysis.md).

The computer plays itself: level 3 on both seats (one move in ten drawn at random, so the
games differ), on fresh boards of each rated two-seat variant. Every position that the
endgame solver does not settle is valued by the analysis search (level 4's, each move
with a full window, at the analysis' budget) and kept with the mover's result of that
game (1 won, 0.5 drawn, 0 lost). A logistic curve of the search value as a share of
what is needed to win is then fitted per variant by Newton's method on the log-loss, and
once over every position (the pooled model the unrated two-seat variants use).

Prints the fits, the data sizes, the CPU spent and a calibration table per variant:
predicted against observed win rate in ten bins of predicted chances.

    .venv/bin/python bench/win_model.py [--games fast=250,classic=100,hex=120] [--nodes 3000]
    .venv/bin/python bench/win_model.py --jobs 2     # two games at once
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import VARIANTS
from games.engine.analysis import DEFAULT_NODES, WinModel
from games.engine.bots import choose, searcher
from games.engine.bots.search import WON
from games.engine.endgame import solvable

Sample = tuple[float, float]  # (value / needed, the mover's result)


def play(variant: str, seed: int, nodes: int) -> list[Sample]:
    rng = random.Random(seed)
    position = VARIANTS[variant].new_position(seed=seed)
    seen: list[tuple[int, float]] = []  # (mover, share)
    ply = 0
    while not position.is_over:
        if not solvable(position):
            values, _ = searcher(position, budget=nodes).each(position.legal_moves())
            best = max(values.values())
            if abs(best) < WON / 2:
                seen.append((position.to_move, best / position.needed_to_win))
        moves = position.legal_moves()
        if rng.random() < 0.1:
            move = rng.choice(moves)
        else:
            move = choose(position, 3, seed=seed * 1000 + ply)
        position = position.play(move)
        ply += 1
    winners = position.winners
    won = 1.0 if len(winners) == 1 else 0.5
    return [(share, won if mover in winners else 0.0) for mover, share in seen]


def fit(samples: list[Sample]) -> WinModel:
    """Logistic regression with one input, by Newton's method."""
    a, b = 1.0, 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in samples:
            p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, a * x + b))))
            w = p * (1.0 - p)
            ga += (p - y) * x
            gb += p - y
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        scale = min(1.0, 5.0 / max(abs(da), abs(db), 1e-12))  # a damped step
        a, b = a - scale * da, b - scale * db
        if abs(da) < 1e-9 and abs(db) < 1e-9:
            break
    return WinModel(round(a, 3), round(b, 3))


def calibration(model: WinModel, samples: list[Sample]) -> list[tuple[int, int, float, float]]:
    bins: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for x, y in samples:
        p = model.chances(x, 1)
        bins[min(9, int(p // 10))].append((p, y))
    return [
        (10 * n, len(b), sum(p for p, _ in b) / len(b), 100 * sum(y for _, y in b) / len(b))
        for n, b in enumerate(bins)
        if b
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="fast=250,classic=100,hex=120")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args()
    plan = {k: int(v) for k, v in (item.split("=") for item in args.games.split(","))}
    pooled: list[Sample] = []
    started = time.process_time()
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    for variant, games in plan.items():
        began, wall = time.process_time(), time.perf_counter()
        jobs = [(variant, seed, args.nodes) for seed in range(1, games + 1)]
        played = pool.starmap(play, jobs) if pool else [play(*job) for job in jobs]
        samples = [s for game in played for s in game]
        pooled += samples
        model = fit(samples)
        cpu = time.process_time() - began
        spent = f"{cpu / 60:.1f} CPU-min" if not pool else f"{time.perf_counter() - wall:.0f} s"
        print(f"\n## {variant}: {games} games, {len(samples)} positions, {spent}")
        print(f"WinModel({model.slope}, {model.offset})")
        print("| predicted | positions | mean predicted | observed |")
        print("|---|---|---|---|")
        for low, count, predicted, observed in calibration(model, samples):
            print(f"| {low}–{low + 10} % | {count} | {predicted:.1f} % | {observed:.1f} % |")
        sys.stdout.flush()
    if pool:
        pool.close()
        pool.join()
    model = fit(pooled)
    print(f"\n## pooled: {len(pooled)} positions: WinModel({model.slope}, {model.offset})")
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - started + children.ru_utime + children.ru_stime
    print(f"total {cpu / 60:.1f} CPU-min, nodes {args.nodes}, {args.jobs} job(s)")


if __name__ == "__main__":
    main()
