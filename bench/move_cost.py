"""CPU a move costs in the services alone: Fast matches played through
``games.services.move_play`` in this one process, on PostgreSQL, without sockets: one
transaction that locks the match, as a table's socket calls it today. A checkout whose
``move_play`` takes the ``version`` the socket last saw (the kept path before the one
move path through the ORM, 992bf98) is measured both ways: with it (most moves start from
what that process committed) and without it (every move under the lock).

    bash tests/with_services.sh --run .venv/bin/python bench/move_cost.py [--moves 2000]

Run from another checkout's folder (``cd /tmp/old && python /path/to/bench/move_cost.py``)
it measures that checkout's code on a database of its own: the same script for both.
``--statements``: what each statement of today's move costs on its own (the lock, the
seats, the ``UPDATE``, the move's ``INSERT``, each in its own ``atomic()``), how much of
the seats' is building their SQL, Channels' ``get_user`` and one hop to the database
thread: the least a move through the ORM can cost (docs/performance.md).

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, os.getcwd())  # the checkout whose code is measured
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# As in production: DEBUG off (Django's debug cursor would log and format every statement).
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "k" * 40)
# As in production, a connection outlives a call (tests/with_services.sh sets 0 for the
# tests, which would open a connection on every hop to the database thread).
os.environ["DB_CONN_MAX_AGE"] = "60"


def database(name: str) -> None:
    """A fresh database of this name on the server of ``DATABASE_URL``."""
    import psycopg

    url = os.environ["DATABASE_URL"]
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument(
        "--profile", action="store_true", help="where the time of the kept moves goes (cProfile)"
    )
    parser.add_argument(
        "--statements", action="store_true", help="each statement of a move on its own"
    )
    parser.add_argument("--database", default="vog_move_cost_" + Path.cwd().name.replace("-", "_"))
    args = parser.parse_args()
    database(args.database)

    import django

    django.setup()
    from django.core.management import call_command

    from accounts.models import User
    from games import events, services, timing
    from games.engine.match import MatchState
    from games.models import Match

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.machine import machine

    call_command("migrate", verbosity=0)
    members = [
        User.objects.get_or_create(username=name, defaults={"email": f"{name}@x"})[0]
        for name in ("cost-a", "cost-b")
    ]

    def greedy(position) -> int:
        legal = [c for c, reason in position.legal_colors().items() if reason is None]
        return max(legal, key=lambda c: (len(position.preview(c)), -c))

    def play(moves: int, with_version: bool) -> tuple[float, float]:
        """CPU and wall seconds of ``moves`` moves (matches started as needed)."""
        cpu = wall = 0.0
        played = 0
        while played < moves:
            match = services.match_create(variant="fast", members=members, now=timing.now())
            version = Match.objects.get(pk=match.pk).version
            state = MatchState.from_dict(Match.objects.get(pk=match.pk).state)
            while state.status == "playing" and played < moves:
                position = state.current.position
                colour = greedy(position)
                started, clock = time.process_time(), time.perf_counter()
                with events.capture():
                    done = services.move_play(
                        match_id=match.pk,
                        user=members[position.to_move],
                        ply=state.current.ply,
                        color=colour,
                        received_at=timing.now(),
                        **({"version": version} if with_version else {}),
                    )
                cpu += time.process_time() - started
                wall += time.perf_counter() - clock
                played += 1
                version = done.version
                state = MatchState.from_dict(done.state)
        return cpu, wall

    print(machine(), "-", os.getcwd())
    kept = "version" in inspect.signature(services.move_play).parameters
    play(200, kept)  # warm-up: statements prepared, caches filled
    if args.statements:
        statements(members, calls=args.moves)
        return 0
    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile(time.process_time)  # CPU, as the figures below
        profile.runcall(play, args.moves, kept)
        stats = pstats.Stats(profile)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)
        return 0
    ways = (("as a socket plays", True), ("always under the lock", False))
    for label, with_version in ways if kept else (("under the lock", False),):
        cpu, wall = play(args.moves, with_version)
        print(
            f"{label:>24}: {cpu / args.moves * 1e6:7.0f} µs CPU a move, "
            f"{wall / args.moves * 1e6:7.0f} µs wall ({args.moves} moves)"
        )
    return 0


def statements(members, *, calls: int) -> None:
    """CPU of each statement a move makes, in its own ``atomic()``, ``calls`` times."""
    import asyncio
    import itertools
    from importlib import import_module

    from channels.auth import get_user
    from channels.db import aclose_old_connections
    from django.conf import settings
    from django.db import connection, transaction
    from django.test import Client

    from games import access, services, timing
    from games.models import Move, Seat

    match = services.match_create(variant="fast", members=members, now=timing.now())
    game = match.current_game
    plies = itertools.count(1000)
    seats = Seat.objects.filter(match_id=match.pk).order_by("seat")
    sql, params = seats.values_list(*access.SEAT_COLUMNS).query.sql_with_params()

    def atomic(work):
        def call():
            with transaction.atomic():
                work()

        return call

    def precompiled():
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            cursor.fetchall()

    def update():
        match.version += 1
        match.save(update_fields={"version", "state", "status", "clock_state", "updated_at"})

    def insert():
        Move.objects.create(
            game_id=game.pk, ply=next(plies), seat=0, color=1, played_at=timing.now()
        )

    visitor = Client()
    visitor.force_login(members[0])  # a session as a log-in leaves it
    store = import_module(settings.SESSION_ENGINE).SessionStore
    key = visitor.session.session_key

    def standing():
        """As a socket asks before each action: the session read afresh, then the member."""
        return get_user({"session": store(key)})

    def cpu(call) -> float:
        call()
        started = time.process_time()
        for _ in range(calls):
            call()
        return (time.process_time() - started) / calls * 1e6

    async def cpu_async(call) -> float:
        await call()
        started = time.process_time()
        for _ in range(calls):
            await call()
        return (time.process_time() - started) / calls * 1e6

    rows = [
        ("atomic() around nothing", cpu(atomic(lambda: None))),
        (
            "atomic() around a SELECT 1",
            cpu(atomic(lambda: connection.cursor().execute("SELECT 1"))),
        ),
        ("the lock (access.locked_match)", cpu(atomic(lambda: access.locked_match(match.pk)))),
        ("the seats (access.seats_for)", cpu(atomic(lambda: access.seats_for(match.pk)))),
        (
            "the seats' SQL built, not run",
            cpu(lambda: seats.values_list(*access.SEAT_COLUMNS).query.sql_with_params()),
        ),
        ("the seats' SQL run, built once", cpu(atomic(precompiled))),
        ("the match's UPDATE (save)", cpu(atomic(update))),
        ("the move's INSERT", cpu(atomic(insert))),
        ("Channels' get_user, its hop included", asyncio.run(cpu_async(standing))),
        ("one hop (aclose_old_connections)", asyncio.run(cpu_async(aclose_old_connections))),
    ]
    for label, micros in rows:
        print(f"{label:>40}: {micros:6.0f} µs CPU a call ({calls} calls)")


if __name__ == "__main__":
    sys.exit(main())
