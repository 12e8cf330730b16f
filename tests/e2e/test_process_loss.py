"""Any process can die (issue 41). Two Daphne processes behind a loopback proxy (nginx's
place, deploy/nginx.conf), their channel layer sharded over two Redis servers, and a real
Celery worker in a process of its own. Alice plays in Chromium, her page's socket served
by Daphne #1 through the proxy; Bob plays over a raw websocket to Daphne #2. Daphne #1 is
killed (SIGKILL) in the middle of a rated Fast match with a clock: Alice's page reconnects
through the proxy to #2, catches up by ``version``, and the match plays to its end with
every move recorded once, in order, and clocks that kept time.

Only public behaviour: the lobby's forms, the websocket protocol (docs/protocol.md), the
API and the page's hooks (``#table[data-…]``, the colour buttons)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.conftest import SERVICES
from tests.servers import (
    Daphne,
    Proxy,
    get_json,
    post_form,
    server_environment,
    session_cookie,
)

pytestmark = pytest.mark.django_db(transaction=True)

CLOCK = "3+2"
BANK_MS, INCREMENT_MS = 180_000, 2_000
KILL_AFTER = 2  # Alice's moves before Daphne #1 dies
PLIES = {1: 10, 2: 4}  # Bob resigns each game on his turn from this ply on
WAIT_MS = 20_000


class RawPlayer:
    """A member on a raw websocket (websockets' sync client): sends protocol messages
    and keeps the newest ``state`` the server sent."""

    def __init__(self, server: Daphne, path: str, cookie: str):
        from websockets.sync.client import connect

        self.connection = connect(
            server.ws_url(path),
            additional_headers={"Origin": server.url, "Cookie": cookie},
            open_timeout=10,
            max_size=None,
        )
        self.state: dict | None = None
        self.errors: list[dict] = []

    def send(self, message: dict) -> None:
        self.connection.send(json.dumps(message))

    def state_where(self, predicate, timeout: float = 20) -> dict:
        """The newest state once it satisfies ``predicate`` (the one already held, or one
        still to come)."""
        deadline = time.monotonic() + timeout
        while self.state is None or not predicate(self.state):
            message = json.loads(
                self.connection.recv(timeout=max(0.01, deadline - time.monotonic()))
            )
            if message["type"] == "error":
                self.errors.append(message)
            elif message["type"] == "state" and (
                self.state is None or message["version"] > self.state["version"]
            ):
                self.state = message
        return self.state

    def close(self) -> None:
        self.connection.close()


@pytest.fixture
def two_processes(tmp_path):
    """Daphne #1 and #2 and a Celery worker, their channel layer over both Redis servers
    (tests/with_services.sh starts the second), and the proxy in front of the Daphnes:
    every connection goes to #1 while it lives, then to #2."""
    if not SERVICES or not os.environ.get("REDIS_URL_2"):
        pytest.skip("needs PostgreSQL and two Redis servers: run make test")
    layer = {"CHANNEL_REDIS_URLS": f"{os.environ['REDIS_URL']},{os.environ['REDIS_URL_2']}"}
    daphnes = [Daphne(tmp_path, env=layer, name=f"loss{i}").start() for i in (1, 2)]
    log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 (closed below)
    worker = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"),
            *("-Q", "clocks,bots,default", "-P", "solo", "-n", f"loss-{os.getpid()}@%h"),
        ],
        cwd=settings.BASE_DIR,
        env={**server_environment(), **layer},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    proxy = Proxy([server.port for server in daphnes]).start()
    try:
        yield daphnes, proxy
    finally:
        proxy.stop()
        worker.kill()
        worker.wait(timeout=10)
        log.close()
        for server in daphnes:
            server.stop()


def least_gain(state: dict) -> int:
    """The legal colour that gains the fewest cells (the game lasts)."""
    previews = state["you"]["previews"]
    return min((int(c) for c in previews), key=lambda c: (len(previews[str(c)]), c))


def any_legal(state: dict) -> int:
    """A colour legal for either player of two: neither side's current colour (what the
    other player's ``you.legal`` forbids is the same pair)."""
    return min(int(c) for c, reason in state["you"]["legal"].items() if reason is None)


def test_a_match_plays_on_when_a_web_process_dies(browser, two_processes, make_member):
    daphnes, proxy = two_processes
    alice, bob = make_member("alice"), make_member("bob")
    cookies = {member.username: session_cookie(member) for member in (alice, bob)}
    form = {"variant": "fast", "clock": CLOCK, "format": "match", "rated": "on"}
    assert post_form(proxy, cookies["alice"], "/tables/", form) == 200
    table = next(t for t in get_json(proxy, "/api/tables/")["tables"] if t["host"] == "alice")
    assert post_form(proxy, cookies["bob"], f"/tables/{table['id']}/join/", {}) == 200
    match_id = table["id"]

    # Alice in Chromium through the proxy (so on Daphne #1); Bob straight to Daphne #2.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    name, value = cookies["alice"].split("=", 1)
    context.add_cookies([{"name": name, "value": value, "url": proxy.url}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{proxy.url}/match/{match_id}/")
    table_root = page.locator("#table")
    expect(table_root).to_have_attribute("data-synced", "1", timeout=WAIT_MS)
    assert set(proxy.chosen) == {daphnes[0].port}
    bobs = RawPlayer(daphnes[1], f"/ws/table/{match_id}/", cookies["bob"])
    start = time.monotonic()

    state = bobs.state_where(lambda s: s["match"]["status"] == "playing")
    seat_of = {s["username"]: s["seat"] for s in state["match"]["seats"]}
    assert state["match"]["rated"] and state["match"]["clock"] == CLOCK
    sent: dict[tuple[int, int], tuple[str, int]] = {}  # (game, ply before) -> (seat, colour)
    alice_moves = 0
    killed = False

    def at(game: int, ply: int):
        return page.locator(f'#table[data-synced="1"][data-game="{game}"][data-ply="{ply}"]')

    while state["match"]["status"] != "finished":
        where = (state["match"]["status"], state["game"]["number"], state["game"]["ply"])
        if where[0] == "between_games":
            page.locator('#table[data-synced="1"][data-status="between_games"]').wait_for(
                timeout=WAIT_MS
            )
            page.get_by_role("button", name="Ready for the next game").click()
            expect(page.locator("#ready-info")).to_contain_text("Ready: alice", timeout=WAIT_MS)
            bobs.send({"type": "ready"})
            state = bobs.state_where(lambda s: s["match"]["status"] != "between_games")
            continue
        number, ply, to_move = (state["game"][key] for key in ("number", "ply", "to_move"))
        if to_move == seat_of["bob"]:
            if not killed and alice_moves == KILL_AFTER:
                # Alice's move is in; her process dies before Bob answers, so the
                # state of his move can reach her only after she reconnects.
                daphnes[0].kill()
                killed = True
                expect(page.locator("#reconnecting")).to_be_visible(timeout=WAIT_MS)
            if ply >= PLIES[number]:
                bobs.send({"type": "resign", "scope": "game"})
            else:
                colour = least_gain(state)
                bobs.send({"type": "move", "color": colour, "ply": ply})
                sent[(number, ply)] = (seat_of["bob"], colour)
        else:
            # The page shows this very position, its socket open, before she chooses.
            expect(at(number, ply)).to_have_count(1, timeout=WAIT_MS)
            colour = any_legal(state)
            page.locator(f'#colours .colour[data-color="{colour}"]').click()
            sent[(number, ply)] = (seat_of["alice"], colour)
            alice_moves += 1
        state = bobs.state_where(
            lambda s, where=where: (
                (s["match"]["status"], s["game"]["number"], s["game"]["ply"]) != where
                or s["game"]["over"]
            )
        )
        if state["game"]["over"] and state["match"]["status"] == "playing":
            state = bobs.state_where(lambda s: s["match"]["status"] != "playing")

    # Alice's page reconnected through the proxy to the live process and shows the end.
    assert killed and daphnes[1].port in proxy.chosen
    expect(page.locator("#reconnecting")).to_be_hidden()
    expect(table_root).to_have_attribute("data-status", "finished", timeout=WAIT_MS)
    page.wait_for_function(
        "v => +(document.querySelector('main').dataset.drawnVersion || -1) >= v",
        arg=state["version"],
        timeout=WAIT_MS,
    )

    # Every move sent is recorded once, in order: none lost, none doubled.
    by_game = {1: [], 2: []}
    for (number, _ply), (seat, colour) in sorted(sent.items()):
        by_game[number].append((seat, colour))
    assert all(len(moves) >= 4 for moves in by_game.values())
    for game in state["games"]:
        recorded = [(move["seat"], move["color"]) for move in game["moves"]]
        assert recorded == by_game[game["number"]]
        assert [move["ply"] for move in game["moves"]] == list(range(1, len(recorded) + 1))
    record = get_json(proxy, f"/api/matches/{match_id}/")
    assert [g["moves"] for g in record["games"]] == [
        [colour for _seat, colour in by_game[number]] for number in (1, 2)
    ]
    assert [g["reason"] for g in record["games"]] == ["resigned", "resigned"]
    assert record["result"] == {"winners": [seat_of["alice"]], "reason": "points"}

    # The clocks kept time: no seat flagged, none credited more than its increments,
    # none charged more than the time that passed (the killed process's seat included).
    elapsed_ms = (time.monotonic() - start) * 1000
    moves_of = {seat: [s for s, _c in sent.values()].count(seat) for seat in seat_of.values()}
    for seat, remaining in zip(("A", "B"), state["clock"]["remaining_ms"], strict=True):
        assert 0 < remaining <= BANK_MS + INCREMENT_MS * moves_of[seat]
        assert remaining >= BANK_MS - elapsed_ms - 2_000
    assert state["clock"]["running"] is None

    # The worker (a process of its own, on the sharded layer) rates the match, and the
    # table hears it.
    rated = bobs.state_where(lambda s: s["match"]["rating_changes"], timeout=30)
    assert {change["seat"] for change in rated["match"]["rating_changes"]} == {"A", "B"}
    expect(page.locator("#result")).to_contain_text("alice won the match")
    assert not [e for e in bobs.errors if e["code"] != "not_your_turn"], bobs.errors
    assert not errors
    bobs.close()
    context.close()
