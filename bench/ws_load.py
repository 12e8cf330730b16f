"""Load benchmark of the tables: scripted players play Fast matches over real websockets
against live Daphne processes on PostgreSQL and Redis.

    bash tests/with_services.sh --run .venv/bin/python bench/ws_load.py          # everything
    bash tests/with_services.sh --run .venv/bin/python bench/ws_load.py --quick  # a short run

What it measures (figures printed, never asserted; docs/performance.md keeps them):

(a) as people play: think 0.5-1.5 s before each move; N tables; the move's round trip
    (send ``move`` -> the state with the next ply arrives at the mover) p50/p99, errors;
(b) saturated: players answer at once; moves per second, next to two bare echo consumers
    on the same stack (``bench/echo_asgi.py``: a state-sized message through
    ``group_send`` to both sockets of a room) measured in the same run, and the ratios:
    Channels' consumer as it comes, as the site's sockets are (*echo*), and, for
    reference, one without Channels' hop to a thread for every message (*lean*);
(c) both channels-redis layers (pub/sub and core); on two processes, a table's players
    on the same process (as the proxy of docs/deploy.md routes a table's sockets) and
    on different ones;
(d) server CPU per move: the Daphne processes' CPU time over the moves played (and per
    message of each echo, over its run: what the stack itself costs on the machine of
    the day; the lean echo runs second, on the same servers);
(e) at people's pace on two processes: 400 tables, 2-6 s of thought before each move, a
    table's players on one process (as the proxy routes them); the round trip's p50/p99;
and after 60 s of 200 saturated tables, the time a page and a move then take.

``--before [REV]`` (``bench/before.py``) also saturates the site at commit REV (by default
``HOT_PATH``, before the hot path's rewrite by job) on its own database and Daphne
processes, one run before each of today's pub/sub runs (interleaved), and gives the median
of today's CPU a move as a multiple of the median of REV's: a baseline from the same
machine and the same hour.

The players run in this process (asyncio, ``websockets``), on the same 2-core machine as the
servers: the figures are for the whole machine, client included.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.before import HOT_PATH, Before  # noqa: E402
from bench.machine import machine  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")  # this process only builds the data
os.environ.setdefault("SECRET_KEY", "bench-only-" + "k" * 40)

LAYERS = {
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}
HOST = "127.0.0.1"
ECHO_APP = "bench.echo_asgi:application"


# --- the site's data ------------------------------------------------------------------


def prepare(tables: int) -> list[tuple[int, str, str]]:
    """Members with sessions and ``tables`` fresh Fast matches: (match id, cookie A, cookie B)."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import User
    from games import services, timing

    call_command("migrate", verbosity=0)
    # The servers run with DEBUG off: their static files come from collectstatic.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "0"},
        check=True,
    )
    rows = []
    for index in range(tables):
        cookies, members = [], []
        for side in "ab":
            name = f"load-{side}{index}"
            member, _ = User.objects.get_or_create(username=name, defaults={"email": f"{name}@x"})
            client = Client()
            client.force_login(member)
            cookies.append(f"sessionid={client.cookies['sessionid'].value}")
            members.append(member)
        match = services.match_create(variant="fast", members=members, now=timing.now())
        rows.append((match.pk, *cookies))
    return rows


def new_tables(rows: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    """Fresh matches for the same members (the previous run may have finished some)."""
    from accounts.models import User
    from games import services, timing

    fresh = []
    for index, (_, cookie_a, cookie_b) in enumerate(rows):
        members = [User.objects.get(username=f"load-{side}{index}") for side in "ab"]
        match = services.match_create(variant="fast", members=members, now=timing.now())
        fresh.append((match.pk, cookie_a, cookie_b))
    return fresh


# --- servers --------------------------------------------------------------------------


class Servers:
    def __init__(
        self,
        count: int,
        layer: str,
        before: Before | None = None,
        env: dict | None = None,
        envs: list[dict] | None = None,
    ):
        """``count`` Daphne processes on ``layer``: today's site with the echoes, or the
        site at an earlier commit (``before``) on its own database; ``env``: settings of
        the run; ``envs``: each process's own besides."""
        from tests.servers import free_port

        self.ports = [free_port() for _ in range(count)]
        env = {
            **os.environ,
            "DEBUG": "0",
            "SECURE_SSL_REDIRECT": "0",
            "ALLOWED_HOSTS": HOST,
            "DB_CONN_MAX_AGE": "60",
            "CHANNEL_LAYER_BACKEND": before.layer_setting(layer, LAYERS[layer])
            if before
            else layer,
            "LOG_LEVEL": "ERROR",
            **(before.env if before else {}),
            **(env or {}),
        }
        root, app, options = ROOT, ECHO_APP, []
        if before is not None:
            # Before the throughput work a busy process took longer than Daphne's
            # default 5 s to accept a socket, and Daphne then dropped it.
            root, app = before.root, "config.asgi:application"
            options = ["--websocket_connect_timeout", "120"]
        log_dir = Path(os.environ.get("VOG_VAR_DIR", "/tmp")) / "ws_load"
        log_dir.mkdir(parents=True, exist_ok=True)
        self.processes = []
        for index, port in enumerate(self.ports):
            own = {**env, **(envs[index] if envs else {})}
            with open(log_dir / f"daphne-{layer}-{port}.log", "w") as log:
                self.processes.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "daphne",
                            *options,
                            "-b",
                            HOST,
                            "-p",
                            str(port),
                            app,
                        ],
                        cwd=root,
                        env=own,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
                )
        for port in self.ports:
            self._wait(port)

    @staticmethod
    def _wait(port: int) -> None:
        import socket

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection((HOST, port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"Daphne on {port} did not start")

    def url(self, index: int, path: str, scheme: str = "ws") -> str:
        return f"{scheme}://{HOST}:{self.ports[index % len(self.ports)]}{path}"

    def cpu_seconds(self, kind: str = "both") -> float:
        """CPU time of the Daphne processes: user, system or both."""
        tick = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for process in self.processes:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            user, system = int(fields[11]), int(fields[12])
            total += {"user": user, "system": system, "both": user + system}[kind] / tick
        return total

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


# --- players --------------------------------------------------------------------------


@dataclass
class Tally:
    round_trips: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    #: moves refused ``game_over``: the game had ended before they arrived (at people's
    #: pace on a Fast clock, the mover's time or the opponent's ran out while thinking):
    #: the site refusing what it must, counted apart from the errors
    late: int = 0
    #: round trips count from here (after the sockets connected): the steady state
    measure_from: float = 0.0

    def error(self, code: str) -> None:
        if code == "game_over":
            self.late += 1
            return
        self.errors[code] = self.errors.get(code, 0) + 1


async def connect(url: str, cookie: str | None, *, forwarded_for: str | None = None):
    from websockets.asyncio.client import connect as ws_connect

    origin = url.replace("ws://", "http://").split("/ws/")[0]
    headers = {"Origin": origin}
    if cookie:
        headers["Cookie"] = cookie
    if forwarded_for:  # as a trusted proxy in front would say (TRUSTED_PROXIES)
        headers["X-Forwarded-For"] = forwarded_for
    return await ws_connect(url, additional_headers=headers, max_size=None, open_timeout=30)


async def player(
    servers: Servers,
    server_index: int,
    match_id: int,
    cookie: str,
    think: tuple[float, float],
    tally: Tally,
    stop_at: float,
    rng: random.Random,
    ramp: float = 0.0,
) -> None:
    """Plays one seat until ``stop_at``; follows rematches so tables stay busy. ``ramp``:
    the player arrives at a random moment within that many seconds (people do not all
    open their tables in the same second)."""
    if ramp:
        await asyncio.sleep(rng.uniform(0, ramp))
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    while time.monotonic() < stop_at:
        try:
            socket = await connect(servers.url(server_index, f"/ws/table/{match_id}/"), cookie)
        except (OSError, InvalidHandshake):
            tally.error("connect")
            await asyncio.sleep(1)  # as a page waits before it tries again
            continue
        sent: dict[tuple[int, int], float] = {}
        asked_rematch = False
        ready_for = 0  # the game after which this player said ready
        try:
            while time.monotonic() < stop_at:
                try:
                    # A page pings every PRESENCE_PING_SECONDS (20) while nothing else goes.
                    raw = await asyncio.wait_for(
                        socket.recv(), max(0.1, min(20.0, stop_at - time.monotonic()))
                    )
                except TimeoutError:
                    if time.monotonic() >= stop_at:
                        return
                    await socket.send('{"type":"ping"}')
                    continue
                except ConnectionClosed:
                    tally.error("closed")
                    break
                message = json.loads(raw)
                kind = message["type"]
                if kind == "error":
                    tally.error(message["code"])
                    sent.clear()  # refused: look again and retry
                    await socket.send('{"type":"sync"}')
                    continue
                if kind != "state":
                    continue
                match, game, you = message["match"], message["game"], message["you"]
                key = (game["number"], game["ply"] - 1)
                if key in sent:
                    began = sent.pop(key)
                    if began >= tally.measure_from:
                        tally.round_trips.append(time.monotonic() - began)
                    tally.moves += 1
                if match["rematch"]:
                    match_id = match["rematch"]
                    break
                if match["status"] == "finished" and not asked_rematch:
                    asked_rematch = True
                    await socket.send('{"type":"rematch"}')
                elif match["status"] == "between_games" and ready_for < game["number"]:
                    ready_for = game["number"]  # once: states of presence come meanwhile
                    await socket.send('{"type":"ready"}')
                elif (
                    match["status"] == "playing"
                    and not game["over"]
                    and game["to_move"] == you["seat"]
                    and (game["number"], game["ply"]) not in sent
                ):
                    legal = [int(c) for c, reason in you["legal"].items() if reason is None]
                    if think[1]:
                        await asyncio.sleep(rng.uniform(*think))  # a person thinking
                    sent[(game["number"], game["ply"])] = time.monotonic()
                    await socket.send(
                        json.dumps({"type": "move", "color": rng.choice(legal), "ply": game["ply"]})
                    )
        finally:
            await socket.close()


async def play(
    servers: Servers, tables, think, seconds: float, *, split: bool = True, ramp: float = 0.0
) -> tuple[Tally, float, float]:
    """Play for ``seconds``; returns the tally, and the servers' CPU seconds and the moves
    in the steady part (after the first quarter, when the sockets have connected).
    ``split``: a table's two players on different processes; else on the same one, as the
    proxy of docs/deploy.md routes a table's sockets."""
    tally = Tally(measure_from=time.monotonic() + seconds / 4)
    rng = random.Random(7)
    stop_at = time.monotonic() + seconds
    steady = {}

    async def measure() -> None:
        await asyncio.sleep(seconds / 4)
        steady["cpu"], steady["moves"] = servers.cpu_seconds(), tally.moves

    watcher = asyncio.ensure_future(measure())
    await asyncio.gather(
        *(
            player(
                servers, index + seat * split, match_id, cookie, think, tally, stop_at, rng, ramp
            )
            for index, (match_id, *cookies) in enumerate(tables)
            for seat, cookie in enumerate(cookies)
        )
    )
    await watcher
    return tally, servers.cpu_seconds() - steady["cpu"], tally.moves - steady["moves"]


async def echo(
    servers: Servers, rooms: int, seconds: float, *, split: bool = True, lean: bool = False
) -> int:
    """Saturated echo: in each room two sockets take turns, each sends when the previous
    message reached it. Returns group sends (each delivered to both sockets) done.
    ``split`` as for ``play``; ``lean``: the echo without Channels' thread hop."""
    route = "echo-lean" if lean else "echo"
    done = 0
    stop_at = time.monotonic() + seconds

    async def room(index: int) -> None:
        nonlocal done
        sockets = [
            await connect(servers.url(index + s * split, f"/ws/{route}/{index}/"), None)
            for s in (0, 1)
        ]
        try:
            turn = 0
            while time.monotonic() < stop_at:
                await sockets[turn].send("go")
                await asyncio.gather(*(s.recv() for s in sockets))
                done += 1
                turn = 1 - turn
        finally:
            for s in sockets:
                await s.close()

    await asyncio.gather(*(room(i) for i in range(rooms)))
    return done


@dataclass
class Saturated:
    layer: str
    processes: int
    rate: float
    echoes: float
    cpu_ms: float
    errors: dict[str, int]
    #: the servers' CPU per echo message, in the same run: the stack's own cost
    echo_cpu_ms: float = float("nan")
    #: whether a table's (and an echo room's) two sockets were on different processes
    split: bool = True
    #: the lean echo (no thread hop per message): messages a second and CPU per message
    lean_echoes: float = float("nan")
    lean_echo_cpu_ms: float = float("nan")

    @property
    def ratio(self) -> float:
        return self.rate / self.echoes

    @property
    def lean_ratio(self) -> float:
        return self.rate / self.lean_echoes

    @property
    def placement(self) -> str:
        return "-" if self.processes == 1 else "split" if self.split else "table"

    def line(self, label: str = "") -> str:
        return (
            f"{self.layer:<6}  {self.processes:>9}  {self.placement:<9}  {self.rate:7.0f}  "
            f"{self.echoes:10.0f}  {self.ratio:5.2f}  {self.lean_echoes:9.0f}  "
            f"{self.lean_ratio:10.2f}  {self.cpu_ms:11.2f}  {self.echo_cpu_ms:11.2f}  "
            f"{self.lean_echo_cpu_ms:11.2f}  {self.errors or 0}  {label}"
        ).rstrip()


def saturated(
    layer: str,
    processes: int,
    tables,
    seconds: float,
    *,
    split: bool = True,
    before: Before | None = None,
) -> Saturated:
    """The tables saturated, then both echoes, on the same fresh servers; the site at an
    earlier commit (``before``) only plays."""
    servers = Servers(processes, layer, before)
    try:
        tally, cpu, steady_moves = asyncio.run(play(servers, tables, (0, 0), seconds, split=split))
        rates = {False: (float("nan"),) * 2, True: (float("nan"),) * 2}
        for lean in () if before else (False, True):
            try:
                start = servers.cpu_seconds()
                sent = asyncio.run(echo(servers, len(tables), seconds, split=split, lean=lean))
                rates[lean] = sent / seconds, (servers.cpu_seconds() - start) / sent * 1000
            except Exception as failure:  # the core layer gives up under this load
                rates[lean] = float("nan"), float("nan")
                tally.errors[f"{'lean ' if lean else ''}echo: {type(failure).__name__}"] = 1
        (echoes, echo_cpu_ms), (lean_echoes, lean_echo_cpu_ms) = rates[False], rates[True]
        return Saturated(
            layer,
            processes,
            tally.moves / seconds,
            echoes,
            cpu / steady_moves * 1000 if steady_moves else float("nan"),
            tally.errors,
            echo_cpu_ms=echo_cpu_ms,
            split=split,
            lean_echoes=lean_echoes,
            lean_echo_cpu_ms=lean_echo_cpu_ms,
        )
    finally:
        servers.stop()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def page_and_move_after(servers: Servers, tables) -> tuple[float, float]:
    started = time.monotonic()
    urllib.request.urlopen(servers.url(0, "/rules/", "http"), timeout=10).read()
    page = time.monotonic() - started

    async def one_move() -> float:
        match_id, cookie, _ = tables[0]
        socket = await connect(servers.url(0, f"/ws/table/{match_id}/"), cookie)
        state = json.loads(await socket.recv())
        legal = [int(c) for c, r in state["you"]["legal"].items() if r is None]
        began = time.monotonic()
        await socket.send(json.dumps({"type": "move", "color": legal[0], "ply": 0}))
        while True:
            message = json.loads(await socket.recv())
            if message["type"] != "state" or message["game"]["ply"] >= 1:
                break
        await socket.close()
        return time.monotonic() - began

    return page, asyncio.run(one_move())


# --- the run ----------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short phases, fewer tables")
    parser.add_argument(
        "--repeat", type=int, default=3, help="saturated runs per pub/sub configuration"
    )
    parser.add_argument(
        "--only",
        choices=[
            "play",
            "people",
            "saturated",
            "overload",
            "hint-flood",
            "visitor-flood",
            "arena-flood",
            "analysis-flood",
        ],
        action="append",
        help="run only these phases (repeatable); all by default",
    )
    parser.add_argument(
        "--hint-flood",
        action="store_true",
        help="only the hint flood: moves at 20 tables with and without hints flooding another",
    )
    parser.add_argument(
        "--visitor-flood",
        action="store_true",
        help="only the visitor flood: moves at 20 tables with and without 300 visitors'"
        " sockets syncing at one of them",
    )
    parser.add_argument(
        "--people-tables", type=int, default=400, help="tables of phase (e), people's pace"
    )
    parser.add_argument(
        "--before",
        nargs="?",
        const=HOT_PATH,
        metavar="REV",
        help=f"also saturate the site at commit REV (default {HOT_PATH}: before the hot path's"
        " rewrite by job)",
    )
    args = parser.parse_args()
    phases = set(
        args.only
        or [
            "play",
            "people",
            "saturated",
            "overload",
            "hint-flood",
            "visitor-flood",
            "arena-flood",
            "analysis-flood",
        ]
    )
    if args.hint_flood or args.visitor_flood:
        phases = {"hint-flood"} if args.hint_flood else set()
        phases |= {"visitor-flood"} if args.visitor_flood else set()
    play_seconds, saturate_seconds, overload_seconds = (8, 6, 10) if args.quick else (30, 20, 60)
    sizes = [10, 50] if args.quick else [10, 50, 100, 200]
    print(f"Machine: {machine()}")
    print(f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    tables = prepare(max(args.people_tables if "people" in phases else 0, *sizes))

    if "play" in phases:
        play_phase(tables, sizes, play_seconds)
    if "people" in phases:
        people_phase(tables, args.people_tables, 40 if args.quick else 120)
    if "saturated" in phases:
        before = None
        if args.before:
            scratch = Path(os.environ.get("VOG_VAR_DIR", "/tmp"))
            before = Before(ROOT, args.before, scratch)
        saturated_phase(tables, args.repeat, saturate_seconds, before)
    if "overload" in phases:
        overload_phase(tables, overload_seconds)
    if "hint-flood" in phases:
        hint_flood_phase(tables, play_seconds)
    if "visitor-flood" in phases:
        visitor_flood_phase(tables, play_seconds)
    if "arena-flood" in phases:
        arena_flood_phase(tables, play_seconds)
    if "analysis-flood" in phases:
        analysis_flood_phase(tables, play_seconds)
    return 0


def play_phase(tables, sizes: list[int], play_seconds: float) -> None:
    print("\n(a) as people play (think 0.5-1.5 s), pub/sub layer")
    print("processes  tables  moves  p50 ms  p99 ms  errors")
    for processes in (1, 2):
        servers = Servers(processes, "pubsub")
        try:
            for size in sizes:
                tables = new_tables(tables)
                tally, _, _ = asyncio.run(play(servers, tables[:size], (0.5, 1.5), play_seconds))
                print(
                    f"{processes:>9}  {size:>6}  {tally.moves:>5}  "
                    f"{percentile(tally.round_trips, 0.5) * 1000:6.0f}  "
                    f"{percentile(tally.round_trips, 0.99) * 1000:6.0f}  {tally.errors or 0}"
                )
        finally:
            servers.stop()


def people_phase(tables, count: int, seconds: float) -> None:
    """(e): ``count`` tables at people's pace (2-6 s a move) over two processes."""
    print(f"\n(e) at people's pace: {count} tables, think 2-6 s, two processes,")
    print("a table's players on one process, arriving over the first fifth; pub/sub layer")
    print("processes  tables  moves  p50 ms  p99 ms  max ms  CPU ms/move  late  errors")
    servers = Servers(2, "pubsub")
    try:
        tables = new_tables(tables[:count])
        # The players arrive over the first fifth; round trips count from the first quarter.
        tally, cpu, moves = asyncio.run(
            play(servers, tables, (2.0, 6.0), seconds, split=False, ramp=seconds / 5)
        )
        print(
            f"{2:>9}  {len(tables):>6}  {tally.moves:>5}  "
            f"{percentile(tally.round_trips, 0.5) * 1000:6.0f}  "
            f"{percentile(tally.round_trips, 0.99) * 1000:6.0f}  "
            f"{max(tally.round_trips, default=0) * 1000:6.0f}  "
            f"{cpu * 1000 / max(moves, 1):11.2f}  {tally.late:4}  {tally.errors or 0}"
        )
    finally:
        servers.stop()


def saturated_phase(
    tables, repeat: int, saturate_seconds: float, before: Before | None = None
) -> None:
    print(f"\n(b, c, d) saturated: 100 tables, players answer at once; {repeat} runs of")
    print("the game then both echoes, each on fresh servers; the median run by the ratio")
    print("to Channels' echo last. On two processes a table's players (an echo room's")
    print("sockets) are on the same process (table: the proxy of docs/deploy.md) or on")
    print("different ones (split).")
    if before is not None:
        print(f"On pub/sub each run follows one of the site at {before.revision} (its own code,")
        print("database and Daphne processes, the same players, at least 20 s); the median of")
        print("today's CPU a move is then given as a multiple of the median of those runs'.")
    print(
        "layer   processes  placement  moves/s  echo msg/s  ratio  lean msg/s  lean ratio"
        "  CPU ms/move  CPU ms/echo  CPU ms/lean  errors"
    )
    for layer in LAYERS:
        for processes, split in ((1, True), (2, False), (2, True)):
            earlier, runs = [], []
            for _ in range(repeat if layer == "pubsub" else 1):
                if before is not None and layer == "pubsub":  # interleaved with today's runs
                    earlier.append(
                        saturated(
                            layer,
                            processes,
                            before.tables(100),
                            max(20, saturate_seconds),
                            split=split,
                            before=before,
                        )
                    )
                    print(earlier[-1].line(f"at {before.revision}"), flush=True)
                tables = new_tables(tables)
                runs.append(
                    saturated(layer, processes, tables[:100], saturate_seconds, split=split)
                )
                print(runs[-1].line(), flush=True)
            ranked = sorted(runs, key=lambda run: run.ratio)
            median = ranked[len(ranked) // 2]
            label = "median" if len(runs) > 1 else ""
            if earlier:
                # The CPU target: the median of today's runs against the median of the
                # earlier commit's, each run's CPU a move whichever run it is.
                cpu_ms = statistics.median(run.cpu_ms for run in runs)
                then_ms = statistics.median(run.cpu_ms for run in earlier)
                label += (
                    f" CPU a move {cpu_ms:.2f} ms, {cpu_ms / then_ms:.2f}× {before.revision}'s"
                    f" {then_ms:.2f}"
                )
            if label:
                print(median.line(label.strip()))


def flood_table(player: str = "load-flood") -> tuple[int, str]:
    """A practice table on the big board (the costliest hints) and its player's cookie
    (a member may have two practice tables in play: each round has its own player)."""
    from django.test import Client

    from accounts.models import User
    from games import services, timing

    member, _ = User.objects.get_or_create(username=player, defaults={"email": "f@x"})
    client = Client()
    client.force_login(member)
    match = services.practice_start(
        member=member, board="big", level=1, member_starts=True, clock="", now=timing.now()
    )
    return match.pk, f"sessionid={client.cookies['sessionid'].value}"


async def hint_flood(servers: Servers, match_id: int, cookie: str, stop_at: float) -> str:
    """Ten sockets of one player at a practice table ask for hints as fast as the
    socket's limit lets them (30 in 10 s each); the first also plays each hint it gets,
    so every hint after it is for a new position. Says how many hints came."""
    url = servers.url(0, f"/ws/table/{match_id}/")
    sockets = [await connect(url, cookie) for _ in range(10)]
    received = 0

    async def ask(socket) -> None:
        while time.monotonic() < stop_at:
            await socket.send('{"type":"hint"}')
            await asyncio.sleep(0.34)

    async def read(socket, plays: bool) -> None:
        nonlocal received
        ply = 0
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(socket.recv(), max(0.1, stop_at - time.monotonic()))
            except TimeoutError:
                return
            message = json.loads(raw)
            if message["type"] == "state":
                ply = message["game"]["ply"]
            elif message["type"] == "hint":
                received += 1
                if plays:
                    await socket.send(
                        json.dumps({"type": "move", "color": message["color"], "ply": ply})
                    )

    try:
        await asyncio.gather(
            *(ask(socket) for socket in sockets),
            *(read(socket, index == 0) for index, socket in enumerate(sockets)),
        )
    finally:
        for socket in sockets:
            await socket.close()
    return f"{received} hints answered"


def _worker_settled(worker: subprocess.Popen, log: Path, seconds: float = 120) -> None:
    """Wait until the worker is ready and its queues are empty (the tables made for the
    benchmark queued their deadlines' tasks before it started): its start-up and that
    backlog are part of neither side of a comparison. The broker is asked with a plain
    Redis client, closed after: a forked flood must inherit no open broker connection."""
    import redis
    from django.conf import settings

    from config.celery import QUEUES

    deadline = time.monotonic() + seconds
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        while " ready." not in log.read_text() or any(broker.llen(q) for q in QUEUES):
            if time.monotonic() > deadline or worker.poll() is not None:
                raise SystemExit(f"the Celery worker did not settle within {seconds:.0f} s")
            time.sleep(0.2)
    finally:
        broker.close()
    time.sleep(2)  # the last tasks taken from the queues


def hint_flood_phase(tables, seconds: float) -> None:
    """p99 of moves at 20 tables as people play, on one process with a worker (serving
    every queue, as ``make run``'s does), without and then with a flood of hints at
    another table (a new practice table each round, the flood in a process of its own),
    in ``FLOOD_ROUNDS`` rounds once the worker is ready."""
    print(f"\nHint flood: 20 tables as people play (think 0.5-1.5 s), {seconds:.0f} s each,")
    print("one Daphne process and a Celery worker; then the same while ten sockets of a")
    print("player at a practice table (big board) ask for hints as fast as allowed and play")
    print("each hint they get")
    servers = Servers(1, "pubsub")
    env = {**os.environ, "DEBUG": "0", "SECURE_SSL_REDIRECT": "0", "LOG_LEVEL": "ERROR"}
    log = Path(os.environ.get("VOG_VAR_DIR", "/tmp")) / "hint-flood-worker.log"
    with log.open("w") as output:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=output,
        )
    try:
        _worker_settled(worker, log)
        players = (f"load-flood-{n}" for n in itertools.count())
        flood = partial(hint_flood, servers)
        setup = lambda: flood_table(next(players))  # noqa: E731
        _flood_compare("hint flood", servers, tables, seconds, flood, setup=setup)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        servers.stop()


VISITORS = 400  # more than a table takes (VISITORS_PER_TABLE, 300)
FLOODS = {  # label: visitors' addresses
    "without the flood": 0,
    "300 visitors from one address (the issue's flood)": 1,
    f"{VISITORS} visitors from as many addresses (through a trusted proxy)": VISITORS,
}


async def visitor_flood(
    servers: Servers, match_id: int, stop_at: float, addresses: int
) -> tuple[int, int]:
    """Cookie-less sockets open at one table from ``addresses`` addresses (as a trusted
    proxy in front says; one address: 300 sockets, else ``VISITORS``, one an address),
    and each sends ``sync`` as fast as a visitor's limit lets it
    (``VISITOR_SOCKET_RATE``). Returns the sockets let in and the states they received."""
    from django.conf import settings

    url = servers.url(0, f"/ws/table/{match_id}/")
    states = 0
    limit, window = settings.VISITOR_SOCKET_RATE
    pause = window / limit * 1.05  # just under the limit
    count = 300 if addresses == 1 else VISITORS

    async def visitor(index: int):
        address = f"198.18.{index % addresses // 250}.{index % addresses % 250 + 1}"
        try:
            socket = await connect(url, None, forwarded_for=address)
            first = json.loads(await asyncio.wait_for(socket.recv(), 30))
        except Exception:
            return None
        if first["type"] != "state":
            await socket.close()
            return None
        return socket

    async def sync(socket) -> None:
        async def send() -> None:
            while time.monotonic() < stop_at:
                await socket.send('{"type":"sync"}')
                await asyncio.sleep(pause)

        async def read() -> None:
            nonlocal states
            while time.monotonic() < stop_at:
                try:
                    raw = await asyncio.wait_for(
                        socket.recv(), max(0.1, stop_at - time.monotonic())
                    )
                except Exception:
                    return
                states += '"type": "state"' in raw or '"type":"state"' in raw

        await asyncio.gather(send(), read())

    opened = [s for s in await asyncio.gather(*(visitor(i) for i in range(count))) if s]
    try:
        await asyncio.gather(*(sync(socket) for socket in opened))
    finally:
        for socket in opened:
            await socket.close()
    return len(opened), states


class _forked:
    """``flood(stop_at)``, a coroutine function, run in a forked process, started now;
    ``result()`` waits for what it returns. A flood runs apart from the players: on their
    event loop (and under their GIL) its traffic would delay the players' own reading of
    the states, which is what is measured."""

    def __init__(self, flood, stop_at: float) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.answers = context.Queue()

        def work(answers) -> None:  # the monotonic clock is the machine's: stop_at holds
            try:
                answers.put(asyncio.run(flood(stop_at)))
            except BaseException as error:  # said where the round's line is printed
                answers.put(f"the flood failed: {error!r}")
                raise

        self.process = context.Process(target=work, args=(self.answers,))
        self.process.start()

    def result(self):
        answer = self.answers.get(timeout=120)
        self.process.join(timeout=30)
        return answer


def visitor_flood_phase(tables, seconds: float) -> None:
    """p99 of moves at 20 tables as people play, on one process, without and then with a
    flood of visitors' sockets at one of them, in one run: at the 19 other tables, and at
    the flooded one (its states go to every visitor there too)."""
    print(f"\nVisitor flood: 20 tables as people play (think 0.5-1.5 s), {seconds:.0f} s each,")
    print("one Daphne process; then the same while cookie-less sockets open at one of the 20")
    print("tables and send sync as fast as a visitor's limit allows (the flood runs in a")
    print("process of its own)")
    servers = Servers(1, "pubsub", env={"TRUSTED_PROXIES": HOST})
    try:
        results = {}
        for label, addresses in FLOODS.items():
            rows = new_tables(tables)[:20]

            async def run(rows=rows):
                others, flooded = await asyncio.gather(
                    play(servers, rows[1:], (0.5, 1.5), seconds),
                    play(servers, rows[:1], (0.5, 1.5), seconds),
                )
                return others[0], flooded[0]

            # The visitors run in a process of their own: on the players' event loop their
            # traffic would delay the players' own reading of the states.
            flooder = (
                _forked(
                    partial(visitor_flood, servers, rows[0][0], addresses=addresses),
                    time.monotonic() + seconds,
                )
                if addresses
                else None
            )
            others, flooded = asyncio.run(run())
            admitted, states = flooder.result() if flooder else (0, 0)
            print(
                f"  {label}"
                + (f": {admitted} let in, {states} states sent to them" if addresses else "")
            )
            for where, tally in (("19 other tables", others), ("the flooded table", flooded)):
                p99 = percentile(tally.round_trips, 0.99) * 1000
                results[(addresses, where)] = p99
                ratio = f", {p99 / results[(0, where)]:.2f} x without" if addresses else ""
                print(
                    f"    {where}: {tally.moves} moves, "
                    f"p50 {percentile(tally.round_trips, 0.5) * 1000:.0f} ms, p99 {p99:.0f} ms"
                    f"{ratio}, errors {tally.errors or 0}"
                )
    finally:
        servers.stop()


def overload_phase(tables, overload_seconds: float) -> None:
    print(f"\nOverload: 200 tables saturated for {overload_seconds} s on 1 process, then")
    servers = Servers(1, "pubsub")
    try:
        tables = new_tables(tables)
        tally, _, _ = asyncio.run(play(servers, tables[:200], (0, 0), overload_seconds))
        page, move = page_and_move_after(servers, new_tables(tables[:1]))
        print(
            f"  {tally.moves / overload_seconds:.0f} moves/s during, errors {tally.errors or 0}; "
            f"after: a page in {page * 1000:.0f} ms, a move in {move * 1000:.0f} ms"
        )
    finally:
        servers.stop()


# --- floods of the community surfaces (fair play) ---------------------------------------


def member_cookie(name: str) -> tuple[object, str]:
    """A member (made if new) and a logged-in session's cookie header, with a CSRF token."""
    from django.test import Client

    from accounts.models import User

    member, _ = User.objects.get_or_create(username=name, defaults={"email": f"{name}@x"})
    client = Client()
    client.force_login(member)
    token = "b" * 32  # Django accepts an unmasked secret equal to the cookie's
    return member, f"sessionid={client.cookies['sessionid'].value}; csrftoken={token}"


def post(url: str, cookie: str, data: dict | None = None) -> int:
    """POST a form as a page does; the answer's status."""
    from urllib.error import HTTPError
    from urllib.parse import urlencode

    request = urllib.request.Request(
        url,
        data=urlencode(data or {}).encode(),
        headers={
            "Cookie": cookie,
            "X-CSRFToken": "b" * 32,
            "Accept": "application/json",
            "X-Forwarded-Proto": "http",
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status
    except HTTPError as refused:
        return refused.code


class _Apart:
    """Two Daphne processes as docs/deploy.md's proxy uses them with pages apart: the
    players' sockets (and every ``ws`` URL) on the first, the pages (every ``http`` URL)
    on the second, with psycopg's pool as docs/deploy.md gives the pages' processes
    (``PAGES_POOL``, default ``2,8``; empty: none); ``APART=0`` in the environment: both
    on one process."""

    def __init__(self, servers: Servers) -> None:
        self.servers = servers
        self.apart = len(servers.ports) > 1

    def url(self, index: int, path: str, scheme: str = "ws") -> str:
        return self.servers.url(1 if self.apart and scheme == "http" else 0, path, scheme)

    def cpu_seconds(self, kind: str = "both") -> float:
        return self.servers.cpu_seconds(kind)

    def stop(self) -> None:
        self.servers.stop()


def _layout() -> str:
    if os.environ.get("APART") == "0":
        return "one process"
    return f"pages apart (their pool {os.environ.get('PAGES_POOL', '2,8') or 'off'})"


def _flood_servers() -> _Apart:
    if os.environ.get("APART") == "0":
        return _Apart(Servers(1, "pubsub"))
    pages = {"DB_POOL": os.environ.get("PAGES_POOL", "2,8")}
    return _Apart(Servers(2, "pubsub", envs=[{}, pages]))


#: rounds of a flood's comparison: without and with, one after the other, each time
FLOOD_ROUNDS = 3


def _flood_compare(
    label: str, servers: Servers, tables, seconds: float, flood, *, setup=None
) -> None:
    """p99 of moves at 20 tables as people play, without and then with ``flood(stop_at)``
    (a coroutine returning a line to print; run in a process of its own; ``setup``: what
    to make here before each flood, its values given to ``flood`` first), in one run:
    ``FLOOD_ROUNDS`` times in turn, the round trips of each side pooled (the p99 of some
    600 moves alone moves by 2-3x from one 30 s run to the next on a quiet machine)."""
    pooled: dict[bool, list[float]] = {False: [], True: []}
    errors = {False: 0, True: 0}
    for round_ in range(1, FLOOD_ROUNDS + 1):
        for flooding in (False, True):
            rows = new_tables(tables)[:20]
            flooding_with = partial(flood, *setup()) if flooding and setup else flood
            stop_at = time.monotonic() + seconds
            flooder = _forked(flooding_with, stop_at) if flooding else None
            tally, _, _ = asyncio.run(play(servers, rows, (0.5, 1.5), seconds))
            said = flooder.result() if flooder else ""
            pooled[flooding] += tally.round_trips
            errors[flooding] += tally.errors or 0
            print(
                f"  round {round_}, {'with' if flooding else 'without'} the {label}: "
                f"{tally.moves} moves, p50 {percentile(tally.round_trips, 0.5) * 1000:.0f} ms,"
                f" p99 {percentile(tally.round_trips, 0.99) * 1000:.0f} ms"
                + (f"; {said}" if flooding else "")
            )
    p99 = {}
    for flooding in (False, True):
        trips = pooled[flooding]
        p99[flooding] = percentile(trips, 0.99) * 1000
        print(
            f"  {'with' if flooding else 'without'} the {label}, pooled: {len(trips)} moves, "
            f"p50 {percentile(trips, 0.5) * 1000:.0f} ms, p99 {p99[flooding]:.0f} ms, "
            f"errors {errors[flooding]}"
        )
    print(f"  p99 with the {label} / without: {p99[True] / p99[False]:.2f}")


def arena_flood_phase(tables, seconds: float) -> None:
    """Fair play, finding 5: three members join and withdraw an arena, each 4 times a
    second (together five times the pace of the finding: 36 in 15 s), while 20 arena
    pages listen (each fetches the standings once per message, as
    ``static/js/arena.js`` does) and 20 tables play."""
    from games import timing
    from lobby import services as lobby

    print(f"\nArena flood: 20 tables as people play, {seconds:.0f} s each, {_layout()}; then")
    print("the same while 3 members join and withdraw an arena 4 times a second each and 20")
    print("open arena pages fetch the standings on every message")
    now = timing.now()
    arena = lobby.arena_create(name="Flood", variant="fast", clock="1+1", starts_at=now, minutes=60)
    lobby.arenas_advance(now=now)
    flooders = [member_cookie(f"load-arena-{i}")[1] for i in range(3)]
    watchers = [member_cookie(f"load-watch-{i}")[1] for i in range(20)]
    servers = _flood_servers()

    async def flood(stop_at: float) -> str:
        answers: dict[int, int] = {}
        heard = fetched = 0

        async def toggle(cookie: str) -> None:
            turn = 0
            while time.monotonic() < stop_at:
                await asyncio.sleep(0.25)
                action = "join" if turn % 2 == 0 else "withdraw"
                url = servers.url(0, f"/arenas/{arena.pk}/{action}/", "http")
                status = await asyncio.to_thread(post, url, cookie)
                answers[status] = answers.get(status, 0) + 1
                turn += status < 400  # a refused toggle is tried again

        async def watch(cookie: str) -> None:
            nonlocal heard, fetched
            socket = await connect(servers.url(0, f"/ws/arena/{arena.pk}/"), cookie)
            standings = servers.url(0, f"/arenas/{arena.pk}/standings/", "http")
            request = urllib.request.Request(standings, headers={"Cookie": cookie})
            try:
                while time.monotonic() < stop_at:
                    try:
                        await asyncio.wait_for(socket.recv(), max(0.1, stop_at - time.monotonic()))
                    except TimeoutError:
                        break
                    heard += 1
                    await asyncio.to_thread(lambda: urllib.request.urlopen(request).read())
                    fetched += 1
            finally:
                await socket.close()

        await asyncio.gather(*(toggle(c) for c in flooders), *(watch(c) for c in watchers))
        shown = ", ".join(f"{count} answered {status}" for status, count in sorted(answers.items()))
        return f"toggles: {shown}; arena messages heard by 20 pages: {heard}, standings {fetched}"

    try:
        _flood_compare("arena flood", servers, tables, seconds, flood)
    finally:
        servers.stop()


def analysis_flood_phase(tables, seconds: float) -> None:
    """Fair play, finding 7: seven members try colours in a finished match and ask for
    analyses of others, each twice a second, while 20 tables play; the computer's two
    queues are served by workers started as ``config/run.py`` starts them (``nice``)."""
    import random

    from games.engine import Position
    from games.selectors import match_steps
    from tests.moves import play_out

    print(f"\nAnalysis flood: 20 tables as people play, {seconds:.0f} s each, {_layout()} and")
    print("the analysis workers; then the same while 7 members post tried colours and")
    print("analysis requests twice a second each")
    from games import services, timing

    members = [member_cookie(f"load-try-{i}") for i in range(7)]
    finished = []
    for index in range(4):
        pair = [members[index][0], members[index + 1][0]]
        match = services.match_create(variant="fast", members=pair, now=timing.now())
        play_out(match, pair, rng=random.Random(index), now=timing.now())
        finished.append(match.pk)
    steps = [s for s in match_steps(match)["games"][0] if s["event"] is None]
    tries = []
    for step in steps:
        position = Position.from_text(step["position"])
        for colour, why in position.legal_colors().items():
            if why is None:
                tries.append({"game": 1, "ply": step["ply"], "colour": str(colour)})
    from config.run import analysis_workers

    env = {**os.environ, "DEBUG": "0", "SECURE_SSL_REDIRECT": "0", "LOG_LEVEL": "ERROR"}
    workers = [
        subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for command in analysis_workers(sys.executable)
    ]
    servers = _flood_servers()

    async def flood(stop_at: float) -> str:
        answers: dict[str, int] = {}

        async def member(index: int, cookie: str) -> None:
            turn = index
            while time.monotonic() < stop_at:
                await asyncio.sleep(0.5)
                if turn % 3:
                    url = servers.url(0, f"/match/{match.pk}/analysis/try/", "http")
                    status = await asyncio.to_thread(post, url, cookie, tries[turn % len(tries)])
                    kind = "try"
                else:
                    target = finished[turn % len(finished)]
                    url = servers.url(0, f"/match/{target}/analysis/", "http")
                    status = await asyncio.to_thread(post, url, cookie)
                    kind = "analysis"
                answers[f"{kind} {status}"] = answers.get(f"{kind} {status}", 0) + 1
                turn += 1

        await asyncio.gather(*(member(i, cookie) for i, (_, cookie) in enumerate(members)))
        return "posts: " + ", ".join(f"{n} {key}" for key, n in sorted(answers.items()))

    try:
        _flood_compare("analysis flood", servers, tables, seconds, flood)
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)
        servers.stop()


if __name__ == "__main__":
    sys.exit(main())
