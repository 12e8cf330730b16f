"""Run the whole site on one machine: ``make run`` (= ``python -m config.run``).

SQLite under ``var/``, a private Redis on a unix socket under ``var/`` (for the channel
layer, the cache and the Celery broker, so whatever the worker does reaches every open
table), Daphne, a Celery worker with beat, and the two one-process workers of the
computer's reviews (queues ``analysis`` and ``analysis_try``). It migrates and creates
the demo members first; while it runs, beat keeps a table that the computer hosts waiting
in the lobby (``HOUSE_TABLE``) and a match of two computers on VOG TV. Ctrl-C stops
everything.

    python -m config.run [--host 127.0.0.1] [--port 8000] [--var-dir var]

Settings can still come from the environment (``GAME_NEXT_GAME_SECONDS=5 make run``),
``DATABASE_URL`` among them; ``REDIS_URL`` and ``REDIS_CACHE_URL`` are the run's own.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: how much lower the analysis workers' CPU priority is than the web processes' (``nice``)
ANALYSIS_NICENESS = 10


def redis_server() -> str:
    """The redis-server binary (``make run`` installs it first: config/prerequisites.sh)."""
    found = shutil.which("redis-server")
    if found is None:
        raise SystemExit("redis-server is missing: make run installs it (apt-get redis-server).")
    return found


def wait_for(path: Path, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            raise SystemExit(f"{path} did not appear")
        time.sleep(0.05)


def analysis_workers(python: str) -> list[list[str]]:
    """The computer's reviews and tried colours: one process each, so a flag never waits
    behind them, and at a lower CPU priority (``nice``) than the web processes, so a flood
    of analyses on a shared machine takes only the CPU the tables leave (docs/deploy.md)."""
    celery = ["nice", "-n", str(ANALYSIS_NICENESS), python, "-m", "celery", "-A", "config"]
    return [
        [*celery, "worker", "--loglevel=WARNING", "-Q", queue, "-c", "1", "-n", f"{name}@%h"]
        for queue, name in (("analysis", "analysis"), ("analysis_try", "analysis-try"))
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the site with its worker and Redis.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--var-dir", default=os.environ.get("VOG_VAR_DIR", str(ROOT / "var")))
    args = parser.parse_args(argv)

    var = Path(args.var_dir).resolve()
    # The run's folders (the settings create none): Redis's socket, the static files.
    for folder in ("redis", "static"):
        (var / folder).mkdir(parents=True, exist_ok=True)
    sock = var / "redis" / "redis.sock"
    sock.unlink(missing_ok=True)
    env = {
        **os.environ,
        "DEBUG": os.environ.get("DEBUG", "1"),
        "VOG_VAR_DIR": str(var),
        "REDIS_URL": f"unix://{sock}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # The demo: the computer keeps a table waiting in the lobby (lobby.tasks).
        "HOUSE_TABLE": os.environ.get("HOUSE_TABLE", "1"),
    }
    # SQLite under var/ (SPEC §9) unless DATABASE_URL names another database. The run's
    # own Redis serves the cache too: a REDIS_CACHE_URL of the shell must not point
    # elsewhere.
    env.pop("REDIS_CACHE_URL", None)
    python = sys.executable
    children: list[subprocess.Popen] = []

    def start(command: list[str]) -> subprocess.Popen:
        process = subprocess.Popen(command, cwd=ROOT, env=env)
        children.append(process)
        return process

    def stop(*_args) -> None:
        for process in reversed(children):
            if process.poll() is None:
                process.terminate()
        for process in reversed(children):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()

    signal.signal(signal.SIGTERM, lambda *a: (stop(), sys.exit(0)))
    try:
        start(
            [
                redis_server(),
                "--port", "0",
                "--unixsocket", str(sock),
                "--unixsocketperm", "700",
                "--save", "",
                "--appendonly", "no",
                "--dir", str(var / "redis"),
                "--loglevel", "warning",
            ]
        )  # fmt: skip
        wait_for(sock)
        manage = [python, "manage.py"]
        subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
        subprocess.run([*manage, "seed_demo"], cwd=ROOT, env=env, check=True)
        celery = [python, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"]
        start([*celery, "--beat", "-Q", "clocks,bots,default", "-n", "main@%h"])
        for command in analysis_workers(python):
            start(command)
        start(
            [
                python,
                "-m",
                "daphne",
                "-b",
                args.host,
                "-p",
                str(args.port),
                "config.asgi:application",
            ]
        )
        print(f"Serving http://{args.host}:{args.port}/  (Ctrl-C stops everything)", flush=True)
        while all(process.poll() is None for process in children):
            time.sleep(0.5)
        print("A process stopped; stopping the others.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
