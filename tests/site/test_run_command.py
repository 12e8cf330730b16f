"""``make run``'s processes (config/run.py: its own Redis on a unix socket, SQLite, Daphne,
a Celery worker and beat) as a newcomer starts them: what the worker does reaches an open
table. Game 2 starts on its own after the ready timeout (shortened by a setting) while a
player's socket is open and nobody presses Ready; the web process's own deadline timer is
off, so only the worker can have started it."""

import asyncio
import json
import os
import subprocess
import sys
import time

import pytest
from django.conf import settings

from tests.conftest import needs_services
from tests.servers import free_port

pytestmark = needs_services

SETUP = """
from django.test import Client
from accounts.models import User
from games import services, timing
alice = User.objects.get(username="alice")  # the demo members the run command made
bob = User.objects.get(username="bob")
from tests.moves import play_opening
match = services.match_create(variant="fast", members=[alice, bob], now=timing.now())
play_opening(match, [alice, bob], now=timing.now())  # a resignation now is one, not an abort
client = Client()
client.force_login(alice)
print(match.pk, client.cookies["sessionid"].value)
"""


@pytest.fixture
def site_run(tmp_path):
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "REDIS_CACHE_URL", "GAME_TIME_SOURCE")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
        GAME_NEXT_GAME_SECONDS="1",
        WEB_DEADLINE_TIMERS="0",
        LOG_LEVEL="WARNING",
    )
    log = open(tmp_path / "run.log", "w")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(
        [sys.executable, "-m", "config.run", "--port", str(port), "--var-dir", str(tmp_path)],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 90
    import socket

    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            assert process.poll() is None, (tmp_path / "run.log").read_text()
            time.sleep(0.2)  # waiting for the processes to start, not for time to pass
    else:
        process.kill()
        raise RuntimeError((tmp_path / "run.log").read_text()[-3000:])
    env["REDIS_URL"] = f"unix://{tmp_path / 'redis' / 'redis.sock'}"
    env["VOG_VAR_DIR"] = str(tmp_path)
    yield port, env
    process.terminate()
    try:
        process.wait(timeout=20)
    finally:
        log.close()
    assert not (tmp_path / "redis" / "redis.sock").exists()  # its Redis stopped too


async def test_game_two_starts_by_itself_on_an_open_socket(site_run):
    from websockets.asyncio.client import connect

    port, env = site_run
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SETUP],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr[-3000:]
    match_id, session = made.stdout.split()[-2:]
    url = f"ws://127.0.0.1:{port}/ws/table/{match_id}/"
    headers = {"Origin": f"http://127.0.0.1:{port}", "Cookie": f"sessionid={session}"}
    async with connect(url, additional_headers=headers) as socket:
        first = json.loads(await asyncio.wait_for(socket.recv(), 30))
        assert first["game"]["number"] == 1 and first["you"]["seat"] == "A"
        await socket.send(json.dumps({"type": "resign", "scope": "game"}))
        seen = []
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 30))
            if message["type"] != "state":
                continue
            seen.append((message["match"]["status"], message["game"]["number"]))
            if message["game"]["number"] == 2:
                break
    assert ("between_games", 1) in seen
    assert seen[-1] == ("playing", 2)
