"""How many bots one Daphne process holds (SPEC §15, docs/bot-api.md): bot accounts play
Classic matches against each other over the bot API, each holding its event stream and
its match's stream, on one Daphne process on PostgreSQL and Redis.

    bash tests/with_services.sh --run .venv/bin/python bench/bot_streams.py
    bash tests/with_services.sh --run .venv/bin/python bench/bot_streams.py --bots 40 --seconds 10

At each level (a number of bots, each with 2 streams) the bots play for ``--seconds``
at people's pace (``--think`` seconds before each move, from the state that gave the
turn); printed (never asserted; docs/performance.md keeps the figures):

- a move *answered*: the POST of the move to its 200, p50/p99;
- a move *seen*: the POST to the ``matchState`` of that ply on the mover's own stream;
- the longest time between two lines of any stream (keep-alives every 5 s, at most 7);
- errors (a refused move, a stream ended early), the Daphne process's CPU, threads and
  memory, and the machine's load average (other work on a shared machine shows there).

The bots run in this process (asyncio, raw HTTP/1.1), on the same machine as the server:
the figures are for the whole machine, client included.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.machine import machine  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")  # this process only builds the data
os.environ.setdefault("SECRET_KEY", "bench-only-" + "k" * 40)
HOST = "127.0.0.1"
# Daphne, with what its start made (Django, the site's modules) frozen: the collector's
# full passes then walk only what serving made (``gc.freeze``).
FROZEN = (
    "import gc, sys, django; django.setup(); import config.asgi; gc.freeze();"
    " from daphne.cli import CommandLineInterface;"
    " sys.argv[0] = 'daphne'; CommandLineInterface.entrypoint()"
)


def prepare(bots: int, offset: int) -> list[tuple[int, str, str]]:
    """``bots`` bot accounts with tokens, seated in pairs at fresh Classic matches (10+5):
    (match id, token of A, token of B) per match."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from accounts.models import User
    from accounts.services import member_bot_mark, token_create
    from games import services, timing

    call_command("migrate", verbosity=0)
    tables = []
    for index in range(offset, offset + bots // 2):
        seated, tokens = [], []
        for side in "ab":
            name = f"bot-{side}{index}"
            member = User.objects.create_user(username=name, email=f"{name}@example.com")
            member_bot_mark(member=member)
            scopes = ["bot:play", "challenge:write"]
            tokens.append(
                token_create(member=member, description="bench", scopes=scopes, now=timezone.now())[
                    1
                ]
            )
            seated.append(member)
        match = services.match_create(
            variant="classic", members=seated, now=timing.now(), clock="10+5"
        )
        tables.append((match.pk, *tokens))
    return tables


# --- a little HTTP/1.1 ----------------------------------------------------------------


async def _head(reader) -> tuple[int, dict[str, str]]:
    status = int((await reader.readline()).split()[1])
    headers = {}
    while (raw := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = raw.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


async def _chunks(reader):
    """The body of a chunked response, chunk by chunk."""
    while True:
        size = int((await reader.readline()).strip() or b"0", 16)
        if size == 0:
            return
        data = await reader.readexactly(size)
        await reader.readexactly(2)
        yield data


@dataclass
class Totals:
    answered: list[float] = field(default_factory=list)
    seen: list[float] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    streams: int = 0


class Bot:
    def __init__(self, port: int, token: str, match_id: int, totals: Totals, think: float):
        self.port, self.token, self.match_id = port, token, match_id
        self.totals, self.think = totals, think
        self.sent: dict[tuple[int, int], float] = {}  # (game, ply) -> when its move was posted
        self.poster = None
        self.busy = asyncio.Lock()  # one request at a time on the kept-alive connection
        self.turns: set[tuple[int, int]] = set()  # the turns it has begun to answer
        self.pending: set[asyncio.Future] = set()

    async def stream(self, path: str, on_line) -> None:
        reader, writer = await asyncio.open_connection(HOST, self.port)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {self.token}\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        status, _headers = await _head(reader)
        if status != 200:
            self.totals.errors.append(f"{path}: {status}")
            return
        self.totals.streams += 1
        buffer, last = b"", time.monotonic()
        try:
            async for chunk in _chunks(reader):
                buffer += chunk
                while b"\n" in buffer:
                    raw, buffer = buffer.split(b"\n", 1)
                    now = time.monotonic()
                    self.totals.gaps.append(now - last)
                    last = now
                    if raw.strip():
                        await on_line(json.loads(raw))
        finally:
            self.totals.streams -= 1
            writer.close()

    async def post(self, path: str, fields: str) -> int:
        async with self.busy:
            try:
                return await self._post(path, fields)
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
                self.poster = None  # the server closed it: a new connection next time
                return 0

    async def _post(self, path: str, fields: str) -> int:
        if self.poster is None:
            self.poster = await asyncio.open_connection(HOST, self.port)
        reader, writer = self.poster
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {self.token}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(fields)}\r\n\r\n{fields}".encode()
        )
        status, headers = await _head(reader)
        if "content-length" in headers:
            await reader.readexactly(int(headers["content-length"]))
        else:
            async for _ in _chunks(reader):
                pass
        return status

    async def on_state(self, state: dict) -> None:
        if state["type"] not in ("matchFull", "matchState"):
            return
        match, game, you = state["match"], state["game"], state["you"]
        sent = self.sent.pop((game["number"], game["ply"] - 1), None)
        if sent is not None:
            self.totals.seen.append(time.monotonic() - sent)
        turn = (game["number"], game["ply"])
        playing = match["status"] == "playing" and not game["over"]
        if match["status"] == "between_games" and you["seat"] not in match["ready"]:
            self.later(self.post(f"/api/bot/match/{self.match_id}/ready", ""))
        elif playing and game["to_move"] == you["seat"] and turn not in self.turns:
            self.turns.add(turn)
            self.later(self.move(turn, you["previews"]))

    def later(self, work) -> None:
        task = asyncio.ensure_future(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def move(self, turn: tuple[int, int], previews: dict) -> None:
        await asyncio.sleep(random.uniform(self.think / 2, self.think * 1.5))
        colour = random.choice(sorted(previews)) if previews else "1"
        ply = turn[1]
        self.sent[turn] = started = time.monotonic()
        status = await self.post(f"/api/bot/match/{self.match_id}/move/{colour}", f"ply={ply}")
        self.totals.answered.append(time.monotonic() - started)
        if status != 200:
            self.totals.errors.append(f"move {status}")

    async def play(self) -> None:
        async def on_event(event):
            pass

        await asyncio.gather(
            self.stream("/api/stream/event", on_event),
            self.stream(f"/api/bot/match/{self.match_id}/stream", self.on_state),
            return_exceptions=True,
        )


def process_status(pid: int) -> tuple[int, int]:
    """The process's threads and resident memory (MB)."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(fields["Threads"]), int(fields["VmRSS"].split()[0]) // 1024


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def level(port: int, pid: int, tables, seconds: float, think: float, warmup: float) -> dict:
    totals = Totals()
    bots = [Bot(port, token, match_id, totals, think) for match_id, *ts in tables for token in ts]
    tasks = [asyncio.ensure_future(bot.play()) for bot in bots]
    # Connected: every stream open, before anything is counted.
    deadline = time.monotonic() + 60
    while totals.streams < 2 * len(bots) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    held = totals.streams
    await asyncio.sleep(warmup)  # the first moves of every match, a process warming up
    totals.answered.clear(), totals.seen.clear(), totals.gaps.clear(), totals.errors.clear()
    cpu, started = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(seconds)
    elapsed = time.monotonic() - started
    used = cpu_seconds(pid) - cpu
    threads, rss = process_status(pid)
    result = {
        "bots": len(bots),
        "streams": held,
        "moves": len(totals.answered),
        "moves_per_s": len(totals.answered) / elapsed,
        "answered_p50_ms": 1000 * statistics.median(totals.answered or [float("nan")]),
        "answered_p99_ms": 1000 * percentile(totals.answered, 0.99),
        "seen_p99_ms": 1000 * percentile(totals.seen, 0.99),
        "longest_gap_s": max(totals.gaps or [float("nan")]),
        "errors": len(totals.errors),
        "cpu_percent": 100 * used / elapsed,
        "still_open": totals.streams,
        "threads": threads,
        "rss_mb": rss,
        "load": os.getloadavg()[0],
    }
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for bot in bots:
        if bot.poster is not None:
            bot.poster[1].close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, nargs="*", default=[50, 100, 200, 400, 600])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a move")
    parser.add_argument("--warmup", type=float, default=5, help="seconds before counting")
    parser.add_argument("--profile", help="write cProfile's figures of the Daphne process here")
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="Daphne with the objects of its start moved out of the collector's reach",
    )
    args = parser.parse_args()
    from tests.servers import free_port

    port = free_port()
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECURE_SSL_REDIRECT": "0",
        "ALLOWED_HOSTS": HOST,
        "DB_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
    }
    offset = 0
    print(machine())
    print(f"one Daphne process; Classic 10+5, {args.think} s a move, {args.seconds} s a level")
    header = (
        "bots streams moves/s answered p50/p99 ms  seen p99 ms  longest gap s  errors  CPU %"
        "  threads  RSS MB  load"
    )
    print(header)
    for bots in args.bots:
        tables = prepare(bots, offset)
        offset += bots
        logs = Path(os.environ.get("VOG_VAR_DIR", "/tmp"))
        logs.mkdir(parents=True, exist_ok=True)
        log = open(logs / f"bot-streams-{port}.log", "w")  # noqa: SIM115 (closed below)
        server = subprocess.Popen(
            [
                sys.executable,
                *(["-m", "cProfile", "-o", args.profile] if args.profile else []),
                *(["-c", FROZEN] if args.gc_freeze else ["-m", "daphne"]),
                *("-b", HOST, "-p", str(port), "config.asgi:application"),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait(port)
            row = asyncio.run(
                level(port, server.pid, tables, args.seconds, args.think, args.warmup)
            )
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
            log.close()
        print(
            f"{row['bots']:>4} {row['streams']:>7} {row['moves_per_s']:>7.1f}"
            f" {row['answered_p50_ms']:>8.1f}/{row['answered_p99_ms']:<7.1f}"
            f" {row['seen_p99_ms']:>11.1f} {row['longest_gap_s']:>14.2f}"
            f" {row['errors']:>7} {row['cpu_percent']:>6.0f} {row['threads']:>8}"
            f" {row['rss_mb']:>7} {row['load']:>5.1f}",
            flush=True,
        )


def _wait(port: int) -> None:
    import socket

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection((HOST, port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("Daphne did not start")


if __name__ == "__main__":
    main()
