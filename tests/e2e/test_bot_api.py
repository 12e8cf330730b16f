"""A program plays a rated match over the bot API (SPEC §15, docs/bot-api.md) against a
member in Chromium, on a Daphne process and a Celery worker of its own.

robo's owner makes a token with ``manage.py token_create``, upgrades the account, and runs
the example client (bench/bot_client.py), which reads its event stream. alice challenges
robo over the API with her own token; the client hears the challenge, accepts it, hears
``matchStart``, opens the match's stream (``matchFull`` first) and plays greedy over HTTP
while alice plays from her table page, whose socket is the table's websocket. Meanwhile a
stale ply and a move out of turn sent with robo's token are refused and change nothing.
The match finishes, the worker rates it, the event stream says ``matchFinish``; its
keep-alive lines came at most 7 s apart; ``manage.py token_revoke`` ends the stream (and
the client) within 10 s."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import threading
import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.models import Match
from tests.conftest import SERVICES, wait_for
from tests.servers import Daphne, api_call, server_environment

pytestmark = pytest.mark.django_db(transaction=True)

WAIT_MS = 20_000
KEEP_ALIVE_BOUND = 7.0  # SPEC §15: an empty line at least every 7 s


def manage(*args: str) -> str:
    """A management command as the site's operator runs it, in a process of its own."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=server_environment(),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


class Client:
    """bench/bot_client.py in a process of its own; each JSON line it logs, stamped with
    the moment it came."""

    def __init__(self, url: str, token: str):
        self.process = subprocess.Popen(
            [sys.executable, "-u", "bench/bot_client.py", "--url", url, "--token", token],
            cwd=settings.BASE_DIR,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[tuple[float, dict]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for raw in self.process.stdout:
            try:
                self.lines.append((time.monotonic(), json.loads(raw)))
            except ValueError:
                self.lines.append((time.monotonic(), {"text": raw}))

    def logged(self, predicate) -> dict | None:
        return next((data for _at, data in list(self.lines) if predicate(data)), None)

    def wait(self, predicate, timeout: float = 20, *, server: Daphne | None = None) -> dict:
        """The first line ``predicate`` accepts, within ``timeout`` seconds; else a failure
        that shows the event stream's last lines (and the server's log, given one)."""
        if not wait_for(lambda: self.logged(predicate) is not None, timeout):
            event = [data for _at, data in self.lines if data.get("stream") == "event"]
            log = server.log_path.read_text()[-3000:] if server is not None else ""
            pytest.fail(f"event stream: {event[-12:]}\nlast lines: {self.lines[-6:]}\n{log}")
        return self.logged(predicate)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def server_and_worker(tmp_path):
    """A Daphne process with the default keep-alive, and a Celery worker (it rates the
    match)."""
    if not SERVICES:
        pytest.skip("needs PostgreSQL and Redis: run make test")
    daphne = Daphne(tmp_path, name="bots").start()
    log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 (closed below)
    worker = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"),
            *("-Q", "clocks,bots,default", "-P", "solo", "-n", f"botapi-{os.getpid()}@%h"),
        ],
        cwd=settings.BASE_DIR,
        env=server_environment(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield daphne
    finally:
        worker.kill()
        worker.wait(timeout=10)
        log.close()
        daphne.stop()


def where(match_id: int) -> tuple[str, int, int]:
    """The match's status, game and ply as the database has them."""
    state = Match.objects.get(pk=match_id).engine_state()
    return state.status, state.current.number, state.current.ply


def least_gain(state) -> int:
    """The legal colour of the seat to move that gains the fewest cells (a long match)."""
    position = state.current.position
    legal = [c for c, reason in position.legal_colors().items() if reason is None]
    return min(legal, key=lambda c: (len(position.preview(c)), c))


def test_a_program_plays_a_rated_match_over_the_api(browser, server_and_worker, make_member):
    server = server_and_worker
    make_member("robo")
    alice = make_member("alice")
    robos = manage("token_create", "robo", "--scopes", "bot:play,challenge:write").split()[-1]
    alices = manage("token_create", "alice", "--scopes", "challenge:write").split()[-1]
    assert api_call(server, "POST", "/api/bot/account/upgrade", robos) == (200, {"ok": True})
    client = Client(server.url, robos)
    try:
        client.wait(lambda d: (d.get("stream") == "event" and "line" in d) or "ended" in d)
        assert not client.logged(lambda d: d.get("ended"))

        # alice in Chromium, in the lobby; she challenges robo over the API.
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        from django.test import Client as DjangoClient

        session = DjangoClient()
        session.force_login(alice)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": session.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": server.url,
                }
            ]
        )
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(error))
        page.goto(server.url + "/")
        status, sent = api_call(
            server,
            "POST",
            "/api/challenge/robo",
            alices,
            {"variant": "fast", "clock": "3+2", "rated": "true"},
        )
        assert status == 200 and sent["challenge"]["rated"]
        challenge_id = sent["challenge"]["id"]

        # Heard, accepted, started: alice's page goes to the table.
        heard = client.wait(lambda d: d.get("line") and d["line"]["type"] == "challenge")
        assert heard["line"]["challenge"]["id"] == challenge_id
        accepted = client.wait(lambda d: d.get("call") == f"/api/challenge/{challenge_id}/accept")
        assert accepted["status"] == 200
        match_id = accepted["answer"]["match"]["id"]
        started = client.wait(lambda d: d.get("line") and d["line"]["type"] == "matchStart")
        assert started["line"]["match"]["id"] == match_id
        first = client.wait(lambda d: d.get("stream") == match_id and d.get("line"))
        assert first["line"]["type"] == "matchFull" and first["line"]["you"]["seat"] == "B"
        expect(page).to_have_url(re.compile(rf"/match/{match_id}/$"), timeout=WAIT_MS)
        table = page.locator("#table")
        expect(table).to_have_attribute("data-synced", "1", timeout=WAIT_MS)
        expect(page.locator("#table .bot-mark").first).to_have_text("BOT")

        match = Match.objects.get(pk=match_id)
        refused = False
        while True:
            match.refresh_from_db()
            state = match.engine_state()
            if state.status == "finished":
                break
            if state.status == "between_games":
                page.locator('#table[data-synced="1"][data-status="between_games"]').wait_for(
                    timeout=WAIT_MS
                )
                page.get_by_role("button", name="Ready for the next game").click()
                assert wait_for(lambda: Match.objects.get(pk=match_id).status != "between_games")
                continue
            game, ply = state.current.number, state.current.ply
            if state.current.position.to_move == 0:  # alice (A): her page, its socket
                if not refused and ply >= 2:
                    # robo's refusals while it is not its turn: nothing changes.
                    version = match.version
                    stale = api_call(
                        server, "POST", f"/api/bot/match/{match_id}/move/1", robos, {"ply": ply - 1}
                    )
                    colour = least_gain(state)
                    early = api_call(
                        server,
                        "POST",
                        f"/api/bot/match/{match_id}/move/{colour}",
                        robos,
                        {"ply": ply},
                    )
                    assert (stale[0], stale[1]["error"]) == (409, "stale")
                    assert (early[0], early[1]["error"]) == (409, "not_your_turn")
                    match.refresh_from_db()
                    assert match.version == version
                    refused = True
                page.locator(
                    f'#table[data-synced="1"][data-game="{game}"][data-ply="{ply}"]'
                ).wait_for(timeout=WAIT_MS)
                page.locator(f'#colours .colour[data-color="{least_gain(state)}"]').click()
            before = (state.status, game, ply)
            moved = wait_for(lambda before=before: where(match_id) != before, timeout=30)
            assert moved, client.lines[-10:]
        assert refused

        # Finished, rated by the worker, heard on the event stream.
        finished = client.wait(
            lambda d: d.get("line") and d["line"]["type"] == "matchFinish", server=server
        )
        assert finished["line"]["match"]["id"] == match_id
        assert wait_for(
            lambda: api_call(server, "GET", f"/api/matches/{match_id}/", None)[1]["rating_changes"],
            timeout=30,
        )
        record = api_call(server, "GET", f"/api/matches/{match_id}/", None)[1]
        assert record["status"] == "finished" and record["rated"]
        assert [s["title"] for s in record["seats"]] == [None, "BOT"]
        assert {c["username"] for c in record["rating_changes"]} == {"alice", "robo"}
        bot_moves = [d for _at, d in client.lines if "/move/" in d.get("call", "")]
        assert bot_moves and all(d["status"] == 200 for d in bot_moves)
        expect(page.locator("#table")).to_have_attribute("data-status", "finished")

        # The event stream kept alive: at most 7 s between two of its lines.
        moments = [at for at, d in client.lines if d.get("stream") == "event" and "line" in d]
        gaps = [later - earlier for earlier, later in itertools.pairwise(moments)]
        assert moments and max(gaps) <= KEEP_ALIVE_BOUND, max(gaps)
        assert any(d.get("line") is None for _at, d in client.lines if d.get("stream") == "event")

        # The token revoked: the stream ends within 10 s, and the client with it.
        manage("token_revoke", robos)
        revoked_at = time.monotonic()
        client.wait(lambda d: d.get("stream") == "event" and d.get("ended"), timeout=15)
        ended_at = next(
            at for at, d in client.lines if d.get("stream") == "event" and d.get("ended")
        )
        assert ended_at - revoked_at <= 10
        assert client.process.wait(timeout=10) == 0
        assert api_call(server, "GET", "/api/stream/event", robos)[0] == 401
        assert not errors
        context.close()
    finally:
        client.stop()
