"""Engine benchmark (``make bench``): the fast engine against the plain reference
implementation on the same positions, per variant.

- move: one move with enclosure and the end check, ``pos.play(colour).is_over``, timed
  on every position of a few random games;
- previews: ``pos.preview(c)`` for every legal colour of one mid-game position (plies in
  the middle half of those games);
- games/s: random games from the fresh board to the end (legal moves, the move, the end
  check); the reference replays the same moves;
- search path (two-seat variants): the same moves as the search makes them, on the
  bitboard core of ``games.engine.bots.bitboard`` (``play`` and ``over`` on bare
  states), against the reference's move with the end check.

Each timing is the best of several repetitions after a warm-up, with the garbage
collector off (as ``timeit`` does); the table gives the median and the 90th percentile
over the positions. Figures are printed, never asserted.

    .venv/bin/python bench/engine.py [--variants classic,big] [--games 10]
    .venv/bin/python bench/engine.py --profile classic   # pyinstrument, fast engine only
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.machine import machine
from games.engine import VARIANTS, Position
from games.engine.bots import bitboard
from games.engine.reference import ReferencePosition

FAST_REPEATS = 7
REFERENCE_REPEATS = 3
TARGETS = {"classic": ("move", 50.0, "µs"), "big": ("previews", 1.0, "ms")}


def best_of(repeats: int, run: Callable[[], object]) -> float:
    """Seconds of the fastest of ``repeats`` runs, after one warm-up run."""
    run()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


Ply = tuple[Position, int | str]  # a position and the move played in it


def random_game(pos: Position, rng: random.Random) -> list[Ply]:
    """The positions of one random game, each with the move played in it."""
    plies = []
    while not pos.is_over:
        move = rng.choice(pos.legal_moves())
        plies.append((pos, move))
        pos = pos.play(move)
    return plies


def bench_variant(key: str, games: int) -> dict[str, float]:
    variant = VARIANTS[key]
    rng = random.Random(f"bench:{key}")
    starts = [variant.new_position(seed) for seed in range(games)]
    records = [random_game(start, rng) for start in starts]
    moves = [ply for record in records for ply in record]
    # mid-game: the middle half of each game's plies
    middle = [
        pos
        for record in records
        for n, (pos, _) in enumerate(record)
        if len(record) // 4 <= n < len(record) * 3 // 4
    ]
    reference = {pos.to_text(): ReferencePosition.from_text(pos.to_text()) for pos, _ in moves}

    def fast_move(pos: Position, move: int | str) -> Callable[[], object]:
        return lambda: pos.play(move).is_over

    def ref_move(pos: Position, move: int | str) -> Callable[[], object]:
        ref = reference[pos.to_text()]
        return lambda: ref.play(move).is_over

    def fast_previews(pos: Position) -> Callable[[], object]:
        legal = [c for c, reason in pos.legal_colors().items() if reason is None]
        return lambda: [pos.preview(c) for c in legal]

    def ref_previews(pos: Position) -> Callable[[], object]:
        ref = reference[pos.to_text()]
        legal = [c for c, reason in ref.legal_colors().items() if reason is None]
        return lambda: [ref.gain(c) for c in legal]

    def fast_games() -> None:
        for start, record in zip(starts, records, strict=True):
            pos = start
            for _, move in record:
                pos.legal_moves()
                pos = pos.play(move)
                assert not pos.is_over or move is record[-1][1]

    def ref_games() -> None:
        for start, record in zip(starts, records, strict=True):
            ref = ReferencePosition.from_text(start.to_text())
            for _, move in record:
                ref.legal_colors()
                ref = ref.play(move)
                assert not ref.is_over or move is record[-1][1]

    two_seats = starts[0].seats == 2 and len(starts[0].sides) == 2
    cores = {
        pos.to_text(): (bitboard.Game.of(pos), bitboard.state_of(pos))
        for pos, _ in (moves if two_seats else [])
    }

    def core_move(pos: Position, move: int | str) -> Callable[[], object]:
        game, state = cores[pos.to_text()]
        play, over = bitboard.play, bitboard.over
        return lambda: over(game, play(game, state, move))

    core_plies = [(p, m) for p, m in moves if m != "swap"] if two_seats else []
    gc.disable()
    try:
        core_us = [best_of(FAST_REPEATS, core_move(p, m)) * 1e6 for p, m in core_plies]
        move_us = [best_of(FAST_REPEATS, fast_move(p, m)) * 1e6 for p, m in moves]
        ref_move_us = [best_of(REFERENCE_REPEATS, ref_move(p, m)) * 1e6 for p, m in moves]
        previews_ms = [best_of(FAST_REPEATS, fast_previews(p)) * 1e3 for p in middle]
        ref_previews_ms = [best_of(REFERENCE_REPEATS, ref_previews(p)) * 1e3 for p in middle]
        games_s = best_of(3, fast_games)
        ref_games_s = best_of(1, ref_games)
    finally:
        gc.enable()
    return {
        "cells": starts[0].board.size,
        "plies": len(moves) / len(records),
        "move": statistics.median(move_us),
        "move p90": p90(move_us),
        "ref move": statistics.median(ref_move_us),
        "previews": statistics.median(previews_ms),
        "previews p90": p90(previews_ms),
        "ref previews": statistics.median(ref_previews_ms),
        "core move": statistics.median(core_us) if core_us else float("nan"),
        "games/s": len(records) / games_s,
        "ref games/s": len(records) / ref_games_s,
    }


def profile(key: str, games: int) -> None:
    """Where the fast engine's time goes: pyinstrument over moves (with the end check)
    and all previews on the positions of ``games`` random games, repeated."""
    from pyinstrument import Profiler

    rng = random.Random(f"bench:{key}")
    variant = VARIANTS[key]
    moves = [ply for seed in range(games) for ply in random_game(variant.new_position(seed), rng)]
    profiler = Profiler(interval=0.0002)
    profiler.start()
    deadline = time.perf_counter() + 3
    while time.perf_counter() < deadline:
        for pos, move in moves:
            _ = pos.play(move).is_over
            for colour, reason in pos.legal_colors().items():
                if reason is None:
                    pos.preview(colour)
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=False))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    keys = [key for key in VARIANTS if not VARIANTS[key].boards]
    parser.add_argument("--variants", default=",".join(keys), help="comma-separated keys")
    parser.add_argument("--games", type=int, default=10, help="random games per variant")
    parser.add_argument(
        "--profile", metavar="VARIANT", help="profile the fast engine on one variant instead"
    )
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile, args.games)
        return 0
    chosen = [key.strip() for key in args.variants.split(",") if key.strip()]
    unknown = [key for key in chosen if key not in keys]
    if unknown:
        parser.error(f"unknown or practice-only variants: {', '.join(unknown)}")

    started = time.perf_counter()
    print(f"Engine benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"Machine: {machine()}")
    print(
        f"{args.games} random games per variant; best of {FAST_REPEATS} (reference "
        f"{REFERENCE_REPEATS}) after a warm-up; median and p90 over the positions\n"
    )
    header = (
        "| variant | cells | plies/game | µs/move (p90) | ref µs/move | × "
        "| ms/all previews (p90) | ref ms | × | games/s | ref games/s | × "
        "| search µs/move | × ref |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    results = {}
    for key in chosen:
        r = bench_variant(key, args.games)
        results[key] = r
        print(
            f"| {key} | {r['cells']} | {r['plies']:.0f} "
            f"| {r['move']:.1f} ({r['move p90']:.1f}) | {r['ref move']:.0f} "
            f"| {r['ref move'] / r['move']:.0f} "
            f"| {r['previews']:.3f} ({r['previews p90']:.3f}) | {r['ref previews']:.2f} "
            f"| {r['ref previews'] / r['previews']:.0f} "
            f"| {r['games/s']:.0f} | {r['ref games/s']:.1f} "
            f"| {r['games/s'] / r['ref games/s']:.0f} "
            + (
                f"| {r['core move']:.1f} | {r['ref move'] / r['core move']:.0f} |"
                if r["core move"] == r["core move"]  # NaN: not a two-seat variant
                else "| - | - |"
            ),
            flush=True,
        )
    print()
    for key, (what, limit, unit) in TARGETS.items():
        if key in results:
            value = results[key][what]
            verdict = "met" if value < limit else "NOT met"
            print(f"Target: {key} {what} under {limit:g} {unit}: {value:.3g} {unit}, {verdict}")
    print(f"\nTotal time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
