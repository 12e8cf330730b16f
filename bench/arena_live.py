"""Arena benchmark, live (SPEC §12): 200 simulated entrants on two Daphne processes, with a
Celery worker and beat pairing every ``ARENA_PAIRING_SECONDS`` (5 s).

Each entrant holds the arena's page socket (``/ws/arena/<id>/``, on the process of its
number's parity); when a ``started`` notice comes it opens its table, the players make a
move each, seat A resigns the match, and both wait for the next pairing. Measured, in
real time (the site's clock is not injected here):

- from becoming free (the finished state on the table's socket) to being seated again
  (the ``started`` notice), p50 and p99;
- from a match's end (as the player's table socket saw it) to the arena's page hearing
  it: an ``arena`` message with the arena's version as read right after the end, or a
  later one (conservative: that version may already include later changes), p99.

Figures are printed, never asserted. Targets: seated within two pairing intervals at
p99 (10 s), the standings within 1 s at p99.

    bash tests/with_services.sh --run .venv/bin/python bench/arena_live.py [--seconds 90]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.machine import machine  # noqa: E402
from bench.ws_load import Servers, connect, percentile  # noqa: E402

ENTRANTS = 200


def prepare(entrants: int) -> tuple[int, list[tuple[int, str]]]:
    """A running arena and ``entrants`` members in it with sessions: (arena id,
    [(member id, cookie)])."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import User
    from games import timing
    from lobby import services

    call_command("migrate", verbosity=0)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "0"},
        check=True,
    )
    arena = services.arena_create(
        name="Live bench",
        variant="fast",
        clock="5+3",
        starts_at=timing.now() - timedelta(seconds=1),
        minutes=60,
    )
    services.arenas_advance(now=timing.now())
    rows = []
    for index in range(entrants):
        name = f"arena-live-{index}"
        member, _ = User.objects.get_or_create(username=name, defaults={"email": f"{name}@x"})
        client = Client()
        client.force_login(member)
        rows.append((member.pk, f"sessionid={client.cookies['sessionid'].value}"))
        services.arena_join(arena_id=arena.pk, member=member, now=timing.now())
    return arena.pk, rows


class Tally:
    def __init__(self):
        self.seated: list[float] = []  # free → seated, seconds
        self.standings: list[float] = []  # match end → the page hears it, seconds
        self.matches = 0
        self.errors: dict[str, int] = {}


async def receive(socket, timeout: float) -> dict:
    return json.loads(await asyncio.wait_for(socket.recv(), timeout))


async def arena_version(arena_id: int) -> int:
    from asgiref.sync import sync_to_async

    from lobby.models import Arena

    return await sync_to_async(
        lambda: Arena.objects.values_list("version", flat=True).get(pk=arena_id),
        thread_sensitive=False,
    )()


async def entrant(
    servers: Servers, index: int, arena_id: int, cookie: str, tally: Tally, until: float
) -> None:
    """The page's socket is read all the time, as a browser does (a reader that stopped
    while its member plays would leave the server's pings unanswered); the member plays
    each match it is sent to."""
    server = index % 2
    page = await connect(servers.url(server, f"/ws/arena/{arena_id}/"), cookie)
    heard: list[tuple[float, int]] = []  # (when, version) of each arena message
    started: asyncio.Queue = asyncio.Queue()

    async def read() -> None:
        while True:
            message = json.loads(await page.recv())
            if message["type"] == "arena":
                heard.append((time.monotonic(), message["version"]))
            elif message.get("kind") == "started":
                await started.put(message)

    reader = asyncio.create_task(read())
    free_since = time.monotonic()
    try:
        while time.monotonic() < until:
            message = await asyncio.wait_for(started.get(), 60)
            tally.seated.append(time.monotonic() - free_since)
            match_id = int(message["url"].rstrip("/").split("/")[-1])
            await play(servers, server, match_id, cookie)
            free_since = ended_at = time.monotonic()
            tally.matches += 1
            # The arena's version once the end is known here includes the match's score:
            # the page is up to date when it has heard that version (or a later one).
            # Conservative: the version read may already include later changes.
            wanted = await arena_version(arena_id)
            while time.monotonic() < ended_at + 10:
                heard_at = [at for at, v in heard if v >= wanted]
                if heard_at:
                    tally.standings.append(max(0.0, min(heard_at) - ended_at))
                    break
                await asyncio.sleep(0.01)
    except TimeoutError:
        pass
    except Exception as failure:  # counted, never hidden; a close with its code
        received = getattr(failure, "rcvd", None)
        key = type(failure).__name__ + (f" {received.code}" if received else "")
        tally.errors[key] = tally.errors.get(key, 0) + 1
    finally:
        reader.cancel()
        await page.close()


async def play(servers: Servers, server: int, match_id: int, cookie: str) -> None:
    """A move each, then seat A resigns the match; back once the match is over."""
    table = await connect(servers.url(server, f"/ws/table/{match_id}/"), cookie)
    try:
        state = None
        while True:
            message = await receive(table, 60)
            if message["type"] != "state":
                continue
            state = message
            status = state["match"]["status"]
            if status in ("finished", "aborted"):
                return
            mine = state["you"]["seat"]
            ply = state["game"]["ply"]
            if ply >= 2 and mine == "A":
                await table.send(json.dumps({"type": "resign", "scope": "match"}))
            elif state["game"]["to_move"] == mine and ply < 2:
                previews = state["you"]["previews"]
                colour = max(previews, key=lambda c: len(previews[c]))
                await table.send(json.dumps({"type": "move", "color": int(colour), "ply": ply}))
    finally:
        await table.close()


async def run(servers: Servers, arena_id: int, rows, seconds: float) -> Tally:
    tally = Tally()
    until = time.monotonic() + seconds
    await asyncio.gather(
        *(entrant(servers, i, arena_id, cookie, tally, until) for i, (_, cookie) in enumerate(rows))
    )
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--entrants", type=int, default=ENTRANTS)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # this process only builds the data
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "k" * 40)
    print(f"Machine: {machine()}")
    print(f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    arena_id, rows = prepare(args.entrants)
    layer = "pubsub"
    servers = Servers(2, "pubsub")
    env = {**os.environ, "DEBUG": "0", "CHANNEL_LAYER_BACKEND": layer, "LOG_LEVEL": "ERROR"}
    log_path = Path("/tmp/arena-live-celery.log")
    with open(log_path, "w") as log:
        helpers = [
            subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", *command, "--loglevel=ERROR"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            for command in (["worker", "-c", "1"], ["beat", "-s", "/tmp/arena-live-beat"])
        ]
        try:
            tally = asyncio.run(run(servers, arena_id, rows, args.seconds))
        finally:
            for helper in helpers:
                helper.terminate()
                helper.wait(timeout=30)
            servers.stop()
    print(
        f"{args.entrants} entrants on 2 Daphne processes, a worker and beat, {args.seconds:.0f} s:"
        f" {tally.matches // 2} matches, errors {tally.errors or 0}"
    )
    seated, standings = tally.seated, tally.standings
    print(
        f"free → seated: p50 {percentile(seated, 0.5):.2f} s, p99 {percentile(seated, 0.99):.2f} s"
        f" ({len(seated)} seatings; target p99 ≤ 10 s)"
    )
    print(
        f"match end → standings heard: p50 {percentile(standings, 0.5) * 1000:.0f} ms,"
        f" p99 {percentile(standings, 0.99) * 1000:.0f} ms ({len(standings)}; target p99 ≤ 1 s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
