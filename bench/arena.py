"""Arena benchmark (SPEC §12): the worker's CPU for one pairing round of a running arena
with 1,000 waiting entrants.

Builds, in a fresh test database, an arena with 1,000 entrants, each with a present
socket and a rating (their arena points and last opponents from 2,000 earlier results),
then times with ``time.process_time`` (CPU of this process, the worker's share; the
database's own CPU is not in it):

- the round's decision: who waits (``arena_waiting``: six queries) and the pairs
  (``lobby.pairing.pair``), median of 7;
- the same decision for 100 waiting entrants, as the baseline of the same run;
- the whole round once: the decision and the 500 matches it starts (``arena_pair``),
  as CPU per match started.

Figures are printed, never asserted. The target: a round's decision at 1,000 waiting
entrants under 100 ms of CPU.

    bash tests/with_services.sh --run .venv/bin/python bench/arena.py
"""

from __future__ import annotations

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

ROUNDS = 7


def build(entrants: int, now: datetime, seed: int):
    """A running arena with ``entrants`` present members, their ratings and earlier
    results (two each, against random others)."""
    from accounts.models import User
    from games.models import Match, Presence
    from lobby.models import Arena, ArenaEntry, ArenaResult
    from ratings.models import PlayerRating

    rng = random.Random(seed)
    arena = Arena.objects.create(
        name="Bench",
        variant="fast",
        clock="1+1",
        minutes=180,
        status=Arena.Status.RUNNING,
        starts_at=now - timedelta(minutes=10),
    )
    start = User.objects.count()
    User.objects.bulk_create(
        User(username=f"arena{start + i}", password="!", email=f"arena{start + i}@example.com")
        for i in range(entrants)
    )
    members = list(
        User.objects.filter(username__startswith="arena")
        .order_by("-pk")
        .values_list("pk", flat=True)[:entrants]
    )
    PlayerRating.objects.bulk_create(
        PlayerRating(member_id=pk, scale="fast", rating=rng.gauss(1500, 200)) for pk in members
    )
    ArenaEntry.objects.bulk_create(
        ArenaEntry(arena=arena, member_id=pk, joined_at=now) for pk in members
    )
    Presence.objects.bulk_create(
        Presence(channel_name=f"bench-{pk}", member_id=pk, opened_at=now, last_seen=now)
        for pk in members
    )
    played = [
        Match.objects.create(variant="fast", format="match", seed=n, board="-") for n in (1, 2)
    ]
    results = []
    for pk in members:
        for match in played:
            results.append(
                ArenaResult(
                    arena=arena,
                    member_id=pk,
                    match=match,
                    opponent_id=rng.choice(members),
                    opponent_rating=1500,
                    outcome="win",
                    points=rng.choice([0, 1, 2, 4]),
                    finished_at=now,
                    moves=10,
                )
            )
    ArenaResult.objects.bulk_create(results)
    return arena


def decision_cpu(arena, now) -> tuple[float, int]:
    """CPU seconds of one round's decision, and how many were waiting."""
    from lobby.pairing import pair
    from lobby.services.arena_play import arena_waiting

    started = time.process_time()
    _, waiting = arena_waiting(arena, now)
    pairs = pair(waiting)
    spent = time.process_time() - started
    assert len(pairs) == len(waiting) // 2
    return spent, len(waiting)


def bench() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # a throwaway database, never served
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "k" * 40)
    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from games import events
    from lobby.models import ArenaResult
    from lobby.services.arena_play import arena_pair

    events.send = lambda group, message: None  # no pages listen here
    settings.CELERY_TASK_ALWAYS_EAGER = False

    print(f"Machine: {machine()}")
    print(f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    old = setup_databases(verbosity=0, interactive=False)
    try:
        print(f"Database: {connection.vendor}")
        now = datetime.now(UTC)
        figures = {}
        for entrants in (100, 1000):
            arena = build(entrants, now, seed=entrants)
            runs = [decision_cpu(arena, now) for _ in range(ROUNDS)]
            waiting = runs[0][1]
            figures[entrants] = statistics.median(spent for spent, _ in runs)
            print(
                f"decision, {waiting:5d} waiting: median {figures[entrants] * 1000:7.1f} ms CPU"
                f" (of {ROUNDS}; {min(s for s, _ in runs) * 1000:.1f}–"
                f"{max(s for s, _ in runs) * 1000:.1f})"
            )
        print(f"1,000 waiting ÷ 100 waiting: {figures[1000] / figures[100]:.1f}×")
        started = time.process_time()
        wall = time.perf_counter()
        made = arena_pair(arena_id=arena.pk, now=now)
        spent = time.process_time() - started
        print(
            f"whole round, 1,000 waiting: {made} matches started, {spent:.2f} s CPU"
            f" ({spent / made * 1000:.1f} ms a match), {time.perf_counter() - wall:.2f} s wall"
        )
        met = "met" if figures[1000] < 0.1 else "not met"
        print(f"target: the decision at 1,000 waiting under 100 ms CPU: {met}")
        ArenaResult.objects.all().delete()
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    bench()
