"""Strength ladder of the bots (``games.engine.bots``): every level plays every other
level in two-game matches on the Fast and Classic boards, each at its default budget.

Match ``n`` of a pairing is played on the board of seed ``n``; the higher level sits at A
in even matches and at B in odd ones (game 2 rotates the corners, so each bot starts
once from each corner). The bots' seed is ``1000 n + 500 (game - 1) + ply``, new on every
move as at a table. Everything but the times is the same in every run.

Printed: match points per pairing (1 a match won, ½ drawn; the rated split 1 / 0.6 /
0.5 / 0.4 / 0 beside it), the higher level's share, an Elo estimate per level (level 1
= 0), and the time per move per level and board. Figures are printed, never asserted.

    .venv/bin/python bench/bots.py                # the full ladder (20 matches a pairing)
    .venv/bin/python bench/bots.py --quick        # 4 matches a pairing
    .venv/bin/python bench/bots.py --levels 3,4 --boards classic --matches 10 --nodes 2000
    .venv/bin/python bench/bots.py --variants 2   # level 4's time per move on every variant
    .venv/bin/python bench/bots.py --sparring 20  # level 4 against bench/sparring.py
    .venv/bin/python bench/bots.py --sparring 20 --before 992bf98   # and an earlier level 4

``--sparring N`` plays N boards of each kind (``--boards fast,noeq``: our Fast boards and
8x7 boards with no two orthogonal neighbours of one colour), each twice, level 4 once
from each seat: 2N games a kind. ``--before REV`` plays the same games against level 4
of commit REV instead (``bench/opponents.py``).
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import opponents
from bench.machine import machine
from games.engine import VARIANTS
from games.engine.bots import (
    DEFAULT_NODES,
    SMALL_BOARD,
    SMALL_BOARD_NODES,
    TWO_SEAT_NODES,
    decide,
)
from games.engine.match import MatchState

LEVEL_NAMES = {1: "random", 2: "greedy", 3: "heuristic", 4: "search"}
DEFAULT_BUDGETS = (
    f"{SMALL_BOARD_NODES} positions on two-seat boards of at most {SMALL_BOARD} cells, "
    f"{TWO_SEAT_NODES} on the larger"
)


@dataclass(frozen=True)
class Job:
    board: str
    seed: int
    low: int  # the lower level
    high: int
    nodes: int | None


@dataclass
class Result:
    job: Job
    high_points: float  # 1 the higher level won the match, ½ drawn, 0 lost
    high_rated: float  # the rated split: 1 / 0.6 / 0.5 / 0.4 / 0
    games: list[str]  # "A 31-25" per game: winner letter and scores
    times: dict[int, list[float]] = field(default_factory=dict)  # level: seconds per move
    depths: list[int] = field(default_factory=list)  # level 4's finished depths


def play_match(job: Job) -> Result:
    """One two-game match between the two levels of ``job``."""
    high_seat = job.seed % 2  # the higher level sits at A in even matches
    level_of = {high_seat: job.high, 1 - high_seat: job.low}
    state = MatchState.new(VARIANTS[job.board].new_position(job.seed), games=2)
    times: dict[int, list[float]] = {job.low: [], job.high: []}
    depths: list[int] = []
    while state.status != "finished":
        if state.status == "between_games":
            state = state.start_next_game()
            continue
        position = state.current.position
        level = level_of[position.to_move]
        start = time.perf_counter()
        seed = 1000 * job.seed + len(state.games) * 500 + state.current.ply
        decision = decide(position, level, seed=seed, nodes=job.nodes if level == 4 else None)
        times[level].append(time.perf_counter() - start)
        if level == 4:
            depths.append(decision.depth)
        state = state.play(position.to_move, decision.colour)
    # both seats among the winners: a drawn match
    points = 0.5 if len(state.winners) == 2 else float(high_seat in state.winners)
    rated = next(s for a, b, s in state.pairwise_scores() if (a, b) == (0, 1))
    high_rated = rated if high_seat == 0 else 1.0 - rated
    games = []
    for game in state.games:
        scores = game.position.scores
        winner = "=" if len(game.winners) != 1 else "AB"[game.winners[0]]
        games.append(f"{winner} {scores[0]}-{scores[1]}")
    return Result(job, points, round(high_rated, 2), games, times, depths)


def elo(levels: list[int], results: list[Result]) -> dict[int, float]:
    """Elo per level by maximum likelihood over match points, level 1 (or the lowest) = 0.

    Each pairing also gets one virtual drawn match, so a clean sweep gives a large but
    finite gap rather than an infinite one.
    """
    score: dict[tuple[int, int], float] = {}
    played: dict[tuple[int, int], int] = {}
    for result in results:
        key = (result.job.high, result.job.low)
        score[key] = score.get(key, 0.5) + result.high_points
        played[key] = played.get(key, 1) + 1
    ratings = dict.fromkeys(levels, 0.0)
    for _ in range(200):
        for level in levels[1:]:
            surplus = slope = 0.0
            for (high, low), games in played.items():
                if level not in (high, low):
                    continue
                other = low if level == high else high
                won = score[(high, low)] if level == high else games - score[(high, low)]
                p = 1.0 / (1.0 + 10 ** ((ratings[other] - ratings[level]) / 400))
                surplus += won - games * p
                slope += games * p * (1 - p) * math.log(10) / 400
            if slope:
                # one Newton step on this level's likelihood, the others held
                ratings[level] += max(-200.0, min(200.0, surplus / slope))
    return ratings


def variant_times(games: int) -> None:
    """Level 4 at its default budget on every variant: every third move of games where
    level 3 plays the other moves, from the boards of seeds 0, 1, ..."""
    print()
    print("| variant | moves timed | ms/move median | p90 | max | median depth |")
    print("|---|---|---|---|---|---|")
    for key, variant in VARIANTS.items():
        if variant.boards:  # practice plays on the boards of other variants
            continue
        times: list[float] = []
        depths: list[int] = []
        for seed in range(games):
            position = variant.new_position(seed)
            ply = 0
            while not position.is_over:
                if ply % 3 == 0:
                    start = time.perf_counter()
                    decision = decide(position, 4, seed=ply)
                    times.append(time.perf_counter() - start)
                    depths.append(decision.depth)
                else:
                    decision = decide(position, 3, seed=ply)
                position = position.play(decision.colour)
                ply += 1
        print(
            f"| {key} | {len(times)} | {1000 * statistics.median(times):.0f} | "
            f"{1000 * _p90(times):.0f} | {1000 * max(times):.0f} | "
            f"{statistics.median(depths):g} |"
        )


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def against(args: argparse.Namespace) -> None:
    """Level 4 against the sparring partner or an earlier level 4, game by game."""
    boards = args.boards.split(",") if args.boards != "fast,classic" else ["fast", "noeq"]
    before = opponents.Before(args.before) if args.before else None
    name = f"level 4 of {args.before}" if before else "the sparring partner"
    print(f"# Level 4 against {name}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {machine()}")
    print(
        f"# {args.sparring} boards per kind, each played from both seats; level 4 budget "
        f"{args.nodes or DEFAULT_BUDGETS}"
        + ("" if before else f"; sparring budget {opponents.BUDGET} positions")
    )
    print()
    print(opponents.HEADER)
    me = opponents.level4(args.nodes)
    other = before or opponents.SparringPlayer()
    began = time.perf_counter()
    try:
        for board in boards:
            tally = opponents.play_boards(board, args.sparring, me, other)
            if args.verbose:
                print("# " + "; ".join(tally.lines))
            print(tally.row(board), flush=True)
    finally:
        if before:
            before.close()
    if not before:
        depths = sorted(other.depths)
        print(
            f"# sparring partner's finished depth: median {statistics.median(depths):g}, "
            f"lowest {depths[0]}, {sum(d >= 20 for d in depths)} of {len(depths)} moves 20+"
        )
    print(f"# whole run: {time.perf_counter() - began:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="4 matches a pairing")
    parser.add_argument("--matches", type=int, default=20, help="matches per pairing and board")
    parser.add_argument("--boards", default="fast,classic")
    parser.add_argument("--levels", default="1,2,3,4")
    parser.add_argument("--nodes", type=int, default=None, help="level 4's budget")
    parser.add_argument("--jobs", type=int, default=1, help="matches played at once")
    parser.add_argument("--verbose", action="store_true", help="print every match")
    parser.add_argument(
        "--variants",
        type=int,
        metavar="GAMES",
        help="instead of the ladder: level 4's time per move on every variant",
    )
    parser.add_argument("--sparring", type=int, metavar="BOARDS", help="boards per kind")
    parser.add_argument("--before", metavar="REV", help="with --sparring: level 4 of REV")
    args = parser.parse_args()
    if args.sparring:
        against(args)
        return
    if args.variants:
        print(f"# Level 4 per variant, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {machine()}")
        print(
            f"# budget {DEFAULT_BUDGETS}, {DEFAULT_NODES} with more seats; "
            f"{args.variants} game(s) per variant"
        )
        variant_times(args.variants)
        return
    matches = 4 if args.quick else args.matches
    boards = args.boards.split(",")
    levels = sorted(int(level) for level in args.levels.split(","))
    pairings = [(low, high) for low, high in itertools.combinations(levels, 2)]
    jobs = [
        Job(board, seed, low, high, args.nodes)
        for board in boards
        for low, high in pairings
        for seed in range(matches)
    ]
    began = time.perf_counter()
    print(f"# Bot ladder, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {machine()}")
    print(
        f"# {matches} two-game matches per pairing and board; level 4 budget "
        f"{args.nodes or DEFAULT_BUDGETS}; {args.jobs} match(es) at once"
    )
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = list(pool.imap(play_match, jobs))
    else:
        results = [play_match(job) for job in jobs]
    if args.verbose:
        for r in results:
            j = r.job
            print(f"{j.board} {j.high}v{j.low} seed {j.seed}: {r.high_points} {r.games}")

    print()
    print("| pairing | board | matches | higher level's match points | % | rated split % |")
    print("|---|---|---|---|---|---|")
    for low, high in pairings:
        for board in [*boards, "both"]:
            chosen = [
                r
                for r in results
                if (r.job.low, r.job.high) == (low, high) and board in (r.job.board, "both")
            ]
            points = sum(r.high_points for r in chosen)
            rated = sum(r.high_rated for r in chosen)
            n = len(chosen)
            print(
                f"| {high} vs {low} | {board} | {n} | {points:g} - {n - points:g} | "
                f"{100 * points / n:.0f} | {100 * rated / n:.0f} |"
            )

    ratings = elo(levels, results)
    print()
    print("| level | bot | Elo (level 1 = 0) |", end="")
    for board in boards:
        print(f" {board} ms/move mean | median | p90 |", end="")
    print()
    print("|---|---|---|" + "---|---|---|" * len(boards))
    for level in levels:
        print(f"| {level} | {LEVEL_NAMES[level]} | {ratings[level]:.0f} |", end="")
        for board in boards:
            times = [t for r in results if r.job.board == board for t in r.times.get(level, [])]
            if not times:
                print(" - | - | - |", end="")
                continue
            p90 = _p90(times)
            print(
                f" {1000 * statistics.mean(times):.1f} | {1000 * statistics.median(times):.1f}"
                f" | {1000 * p90:.1f} |",
                end="",
            )
        print()
    if 4 in levels:
        for board in boards:
            depths = [d for r in results if r.job.board == board for d in r.depths]
            if depths:
                print(
                    f"# level 4 on {board}: median depth {statistics.median(depths):g}, "
                    f"{len(depths)} moves"
                )
    print(f"# whole run: {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
