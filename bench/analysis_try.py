"""The round trip of "try another move" (SPEC §13): from a member's request to the answer
kept, through the ``analysis_try`` queue and its own worker process, as the replay page
asks for it. Needs PostgreSQL and Redis (``bash tests/with_services.sh --run``).

A Fast match is played to its end by greedy moves; then, for every position of both games,
one colour that no one played there is tried (``games.services.analysis_try`` again
until it answers, every 5 ms; the page asks every 300 ms). Figures: wall time per try,
p50 and p90; the baseline of the same run is the engine's verdict alone on the same
positions, in this process. Printed, never asserted. Target: under 1 s at p90.

    bash tests/with_services.sh --run .venv/bin/python bench/analysis_try.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games import services  # noqa: E402
from games.engine.analysis import model_for, verdict  # noqa: E402
from games.engine.match import MatchState  # noqa: E402
from games.engine.replay import steps  # noqa: E402
from games.errors import TableError  # noqa: E402
from games.models import Match  # noqa: E402
from games.services.analysis import TRY_SECONDS  # noqa: E402


def finished_match(members: list[User]) -> Match:
    match = services.match_create(variant="fast", members=members, now=timezone.now(), seed=11)
    while True:
        state = MatchState.from_dict(Match.objects.get(pk=match.pk).state)
        if state.status == "finished":
            return Match.objects.get(pk=match.pk)
        if state.status == "between_games":
            for member in members:
                services.match_ready(match_id=match.pk, user=member, now=timezone.now())
            continue
        position = state.current.position
        legal = [c for c, why in position.legal_colors().items() if why is None]
        services.move_play(
            match_id=match.pk,
            user=members[position.to_move],
            ply=state.current.ply,
            color=max(legal, key=lambda c: (len(position.preview(c)), -c)),
            received_at=timezone.now(),
        )


def main() -> None:
    call_command("migrate", verbosity=0)
    cache.clear()
    names = [f"bench-try-{n}" for n in range(2)]
    User.objects.filter(username__in=names).delete()
    members = [User.objects.create_user(username=name) for name in names]
    match = finished_match(members)
    tries = []  # (game, ply, position, colour)
    for game, timeline in enumerate(steps(MatchState.from_dict(match.state)), start=1):
        for step, after in pairwise(timeline):
            if step.move is None and step.ply:
                continue
            others = [m for m in step.position.legal_moves() if m not in ("swap", after.move)]
            if others and not step.position.is_over:
                tries.append((game, step.ply, step.position, others[0]))
    worker = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"),
            *("-Q", "analysis_try", "-c", "1", "-n", "bench-try@%h"),
        ],
        cwd=ROOT,
    )
    try:
        time.sleep(3)  # the worker starts before the clock runs
        walls, busy = [], 0
        for game, ply, _, colour in tries:
            began = time.perf_counter()
            ask = dict(match_id=match.pk, member=members[0], game=game, ply=ply, colour=str(colour))
            while True:
                try:
                    if services.analysis_try(**ask, now=timezone.now()) is not None:
                        break
                except TableError as error:  # the page, too, asks again when told busy
                    if error.code != "busy":
                        raise
                    busy += 1
                time.sleep(0.005)
            walls.append(time.perf_counter() - began)
    finally:
        worker.terminate()
        worker.wait(timeout=20)
    engine = []
    model = model_for("fast")
    for _, _, position, colour in tries:
        began = time.process_time()
        child = position.play(colour)
        if not child.is_over:
            verdict(child, model, time_limit=TRY_SECONDS)
        engine.append(time.process_time() - began)
    p90 = statistics.quantiles(walls, n=10)[-1]
    print(
        f"try another move through the analysis_try queue: p50 "
        f"{statistics.median(walls) * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms wall over "
        f"{len(walls)} positions of a Fast match; baseline, the engine alone: p50 "
        f"{statistics.median(engine) * 1000:.0f} ms, p90 "
        f"{statistics.quantiles(engine, n=10)[-1] * 1000:.0f} ms CPU; told busy {busy} times"
    )


if __name__ == "__main__":
    main()
