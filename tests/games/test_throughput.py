"""Several servers serve one site, and overload is refused fast without losing or doubling
anything."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games.engine import Position
from games.models import Match, Move
from tests.conftest import needs_services
from tests.games.conftest import legal_colour, position_of
from tests.games.test_sockets_live import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def greedy(state: dict) -> int:
    position = Position.from_text(state["game"]["position"])
    legal = [c for c, reason in position.legal_colors().items() if reason is None]
    return max(legal, key=lambda c: (len(position.preview(c)), -c))


@needs_services
async def test_players_on_two_processes_play_a_whole_match(
    daphnes, fast_table, alice, bob, carol, dave
):
    a = await open_socket(daphnes[0], fast_table, alice)
    b = await open_socket(daphnes[1], fast_table, bob)
    watchers = [
        await open_socket(daphnes[0], fast_table, carol),
        await open_socket(daphnes[1], fast_table, dave),
    ]
    players = {"A": a, "B": b}
    everyone = [a, b, *watchers]
    seen = []
    state = a.state
    while state["match"]["status"] != "finished":
        if state["match"]["status"] == "between_games":
            for socket in (a, b):
                await socket.send({"type": "ready"})
            number = state["game"]["number"] + 1
            for socket in everyone:
                state = await socket.state_where(
                    lambda s, n=number: (
                        s["game"]["number"] == n and s["match"]["status"] != "between_games"
                    )
                )
            continue
        mover = players[state["game"]["to_move"]]
        ply, number = state["game"]["ply"], state["game"]["number"]
        await mover.send({"type": "move", "color": greedy(state), "ply": ply})
        for socket in everyone:  # every move reaches both processes' sockets
            state = await socket.state_where(
                lambda s, n=number, p=ply: s["game"]["number"] > n or s["game"]["ply"] == p + 1
            )
        seen.append((number, ply))
    results = {socket.state["match"]["result"]["reason"] for socket in everyone}
    assert len(results) == 1
    match = await sync_to_async(Match.objects.get)(pk=fast_table.pk)
    assert match.status == "finished"
    moves = await sync_to_async(Move.objects.filter(game__match=match).count)()
    assert moves == len(seen) > 20
    for socket in everyone:
        await socket.close()


@needs_services
async def test_a_move_after_another_processs_is_judged_against_the_row(
    daphnes, new_table, alice, bob
):
    """Alice plays on one process, Bob on the other. Between Alice's move and Bob's the
    row changes in the database without a new version (Bob's time is used up): Bob's
    process heard Alice's state, but judges his move against the row, so he is flagged
    instead of his move being stored."""
    table = await sync_to_async(new_table)("fast", [alice, bob], clock="3+2")
    a = await open_socket(daphnes[0], table, alice)
    b = await open_socket(daphnes[1], table, bob)
    for ply, mover in enumerate([a, b, a]):  # both clocks have started by then
        await mover.send({"type": "move", "color": greedy(mover.state), "ply": ply})
        for socket in (a, b):
            await socket.state_where(lambda s, p=ply: s["game"]["ply"] == p + 1)
    heard = b.state
    assert heard["clock"]["running"] == "B" and heard["clock"]["remaining_ms"][1] > 100_000

    def use_up_bobs_time() -> int:
        match = Match.objects.get(pk=table.pk)
        clock = dict(match.clock_state, remaining_ms=[match.clock_state["remaining_ms"][0], 0])
        return Match.objects.filter(pk=table.pk, version=match.version).update(clock_state=clock)

    assert await sync_to_async(use_up_bobs_time)() == 1  # the same version: nothing sent
    await b.send({"type": "move", "color": greedy(heard), "ply": 3})
    refused = await b.receive_type("error")
    assert refused["code"] == "game_over"
    flagged = await a.state_where(lambda s: s["match"]["status"] == "finished")
    assert flagged["match"]["result"] == {"winners": ["A"], "reason": "flagged"}
    assert await sync_to_async(Move.objects.filter(game__match=table).count)() == 3
    for socket in (a, b):
        await socket.close()


async def test_overload_is_refused_fast_and_nothing_is_lost_or_doubled(
    settings, connect, new_table, make_member
):
    settings.DB_THREADS = 1
    settings.DB_QUEUE_LIMIT = 2
    from games import threads

    threads.reset()  # a pool and a queue of the sizes set above
    tables, sockets = [], []
    for index in range(8):
        a = await sync_to_async(make_member)(f"a{index}")
        b = await sync_to_async(make_member)(f"b{index}")
        table = await sync_to_async(new_table)("fast", [a, b])
        tables.append(table)
        sockets.append(await connect(table, a))
    colours = [legal_colour(await sync_to_async(position_of)(t)) for t in tables]
    moves = [{"type": "move", "color": c, "ply": 0} for c in colours]
    await asyncio.gather(*(s.send(m) for s, m in zip(sockets, moves, strict=True)))
    outcomes = []
    for socket in sockets:
        while True:
            message = await socket.receive()
            if message["type"] == "error":
                outcomes.append(message["code"])
                break
            if message["type"] == "state" and message["game"]["ply"] == 1:
                outcomes.append("applied")
                break
    assert "rate_limited" in outcomes and "applied" in outcomes
    assert set(outcomes) == {"rate_limited", "applied"}
    for table, outcome in zip(tables, outcomes, strict=True):
        moves = await sync_to_async(Move.objects.filter(game__match=table).count)()
        assert moves == (1 if outcome == "applied" else 0)
    threads.reset()


def test_a_backlog_of_housekeeping_never_holds_up_a_members_action():
    """After a flood the closing sockets and presence refreshes wait on their own pool:
    a move is answered while they are all still held up (games.threads)."""
    import threading

    from games import threads

    threads.reset()
    gate, done = threading.Event(), []

    async def scenario() -> None:
        held = [
            asyncio.ensure_future(threads.run_unbounded(gate.wait, 30))
            for _ in range(5)  # the housekeeping thread is taken, four calls wait behind it
        ]
        await asyncio.sleep(0)
        assert await threads.run(lambda: done.append("move") or "answered") == "answered"
        assert not any(task.done() for task in held)
        gate.set()
        assert await asyncio.gather(*held) == [True] * 5

    try:
        asyncio.run(scenario())
    finally:
        gate.set()
        threads.reset()
    assert done == ["move"]


def test_a_call_is_answered_on_its_loop_and_skipped_once_its_waiter_left(settings):
    """``games.threads`` hands a result or an error back to the waiting coroutine, and a
    call whose coroutine was cancelled (its socket went away) before a thread took it
    never runs."""
    import threading

    from games import threads

    settings.DB_THREADS = 1
    threads.reset()
    gate, started, ran = threading.Event(), threading.Event(), []

    def hold() -> bool:
        started.set()
        return gate.wait(30)

    async def scenario() -> None:
        busy = asyncio.ensure_future(threads.run(hold))  # the only thread is taken
        while not started.is_set():  # until the thread runs it
            await asyncio.sleep(0.001)
        gone = asyncio.ensure_future(threads.run(ran.append, "gone"))
        await asyncio.sleep(0)  # let it queue its call
        gone.cancel()
        while not gone.done():  # the cancel reaches the queued call within a few turns
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        gate.set()
        assert await busy is True
        assert await threads.run(lambda: "answer") == "answer"
        with pytest.raises(ZeroDivisionError):
            await threads.run_unbounded(lambda: 1 / 0)
        assert gone.cancelled()

    try:
        asyncio.run(scenario())
    finally:
        gate.set()
        threads.reset()
    assert ran == []


def test_one_thread_takes_the_actions_and_a_spare_only_when_it_is_held_up(settings):
    """``games.threads``: with ``DB_THREADS`` 2 the members' actions all run on one thread
    while it keeps up (two threads contend for the interpreter's lock); a call queued
    behind one that is held up (a lock wait) is taken by the spare thread."""
    import threading

    from games import threads

    settings.DB_THREADS, settings.DB_STALL_MS = 2, 1000
    threads.reset()
    gate, started = threading.Event(), threading.Event()

    def name() -> str:
        return threading.current_thread().name

    def hold() -> str:
        started.set()
        gate.wait(30)
        return name()

    async def scenario() -> None:
        names = await asyncio.gather(*(threads.run(name) for _ in range(20)))
        assert len(set(names)) == 1 and names[0].startswith("db-actions")
        settings.DB_STALL_MS = 20  # read at each call: a held-up thread is found sooner
        held = asyncio.ensure_future(threads.run(hold))
        while not started.is_set():
            await asyncio.sleep(0.001)
        spared = await threads.run(name)  # answered while the first call is still held
        assert spared.startswith("db-spare") and not held.done()
        gate.set()
        assert (await held).startswith("db-actions")

    try:
        asyncio.run(scenario())
    finally:
        gate.set()
        threads.reset()
