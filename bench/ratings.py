"""Ratings benchmark: recompute a scale of 100,000 rated matches between 2,000 members.

Builds the results in a fresh test database (Django's test-database machinery, so nothing
of a real database is touched), then times, with ``time.perf_counter``:

- from scratch: ``services.scale_recalculate(scale="fast")`` over every match when no
  change is stored yet, and again when every change is stored (deleted and rewritten:
  what ``manage.py recalculate_ratings`` does);
- from the middle: the recalculation after annulling the match in the middle;
- one update: ``services.match_rating_update`` of one new match at the end (median of 50).

Figures are printed, never asserted. The target: a whole scale in under a minute.

    make bench-ratings    # throwaway PostgreSQL and Redis (tests/with_services.sh --run)
    DATABASE_URL=postgres://... .venv/bin/python bench/ratings.py   # that server
    .venv/bin/python bench/ratings.py --matches 20000    # a smaller run (SQLite if no URL)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.machine import machine  # noqa: E402

SCALE = "fast"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def build(members: int, matches: int, seed: int) -> list[int]:
    """Members with a hidden strength, and ``matches`` results between random pairs."""
    from accounts.models import User
    from ratings.models import Pairing, PlayerRating, RatedMatch

    rng = random.Random(seed)
    User.objects.bulk_create(
        User(username=f"bench{i}", password="!", email=f"bench{i}@example.com")
        for i in range(members)
    )
    member_ids = list(User.objects.order_by("pk").values_list("pk", flat=True))
    PlayerRating.objects.bulk_create(PlayerRating(member_id=pk, scale=SCALE) for pk in member_ids)
    player_of = dict(PlayerRating.objects.filter(scale=SCALE).values_list("member_id", "pk"))
    strength = {pk: rng.gauss(0, 1) for pk in member_ids}
    at = T0
    rated, pairings = [], []
    for match_id in range(1, matches + 1):
        at += timedelta(seconds=rng.randint(1, 600))
        a, b = rng.sample(member_ids, 2)
        edge = 1 / (1 + 10 ** (strength[b] - strength[a]))
        score = rng.choices([1.0, 0.6, 0.5, 0.4, 0.0], [edge, 0.1, 0.1, 0.1, 1 - edge])[0]
        rated.append((match_id, SCALE, at, at, False, ""))
        pairings.append((match_id, player_of[a], player_of[b], score))
    columns = ("match_id", "scale", "finished_at", "recorded_at", "applied", "annul_reason")
    copy_rows(RatedMatch, columns, rated)
    copy_rows(Pairing, ("rated_match_id", "player_id", "opponent_id", "score"), pairings)
    return member_ids


def copy_rows(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Load rows with ``bulk_create`` in batches (the ORM's documented bulk insert)."""
    model.objects.bulk_create(
        (model(**dict(zip(columns, row, strict=True))) for row in rows), batch_size=2000
    )


def database(connection) -> str:
    if connection.vendor == "postgresql":
        major, minor = divmod(connection.pg_version, 10000)
        return f"PostgreSQL {major}.{minor}"
    if connection.vendor == "sqlite":
        import sqlite3

        return f"SQLite {sqlite3.sqlite_version}"
    return connection.vendor


def timed(label: str, run) -> float:
    """Run ``run`` (which returns the number of matches rated) and print its time."""
    started = time.perf_counter()
    rated = run()
    seconds = time.perf_counter() - started
    print(f"{label:<48} {seconds:8.2f} s  {rated:>7,} matches, {rated / seconds:,.0f}/s")
    return seconds


def bench(members: int, matches: int, seed: int) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # a throwaway database, never served
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "k" * 40)
    django.setup()
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from ratings import services, tasks
    from ratings.models import PlayerRating, RatedMatch, RatingChange

    # The benchmark runs each update itself; nothing is queued.
    tasks.rating_update.delay = lambda match_id: None

    print(f"Machine: {machine()}")
    print(f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    old = setup_databases(verbosity=0, interactive=False)
    try:
        print(f"Database: {database(connection)}")
        started = time.perf_counter()
        member_ids = build(members, matches, seed)
        print(
            f"Built {matches:,} matches between {members:,} members "
            f"in {time.perf_counter() - started:.1f} s"
        )
        timed(
            "recalculate from scratch (nothing stored yet)",
            lambda: services.scale_recalculate(scale=SCALE),
        )
        whole = timed(
            "recalculate from scratch (every change stored)",
            lambda: services.scale_recalculate(scale=SCALE),
        )
        middle = matches // 2
        RatedMatch.objects.filter(pk=middle).update(annulled_at=T0)
        timed(
            "recalculate from the middle (an annulled match)",
            lambda: services.scale_recalculate(scale=SCALE, from_match_id=middle),
        )
        last = RatedMatch.objects.order_by("-finished_at").first().finished_at
        rng = random.Random(seed + 1)
        updates = []
        for i in range(1, 51):
            a, b = rng.sample(member_ids, 2)
            services.match_result_record(
                scale=SCALE,
                match_id=matches + i,
                finished_at=last + timedelta(minutes=i),
                pairings=[(a, b, 1.0)],
            )
            started = time.perf_counter()
            services.match_rating_update(match_id=matches + i)
            updates.append(time.perf_counter() - started)
        median_ms = statistics.median(updates) * 1000
        print(f"{'one update after a match (median of 50)':<48} {median_ms:8.1f} ms")
        print(
            f"Stored: {RatingChange.objects.count():,} rating changes, "
            f"{PlayerRating.objects.filter(rd__lte=110).count():,} established players"
        )
        verdict = "under" if whole < 60 else "OVER"
        print(f"Target: a whole scale in under 60 s: {whole:.1f} s, {verdict} the target")
    finally:
        teardown_databases(old, verbosity=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    bench(args.members, args.matches, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
