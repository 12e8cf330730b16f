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


async def test_overload_is_refused_fast_and_nothing_is_lost_or_doubled(
    settings, connect, new_table, make_member
):
    settings.DB_THREADS = 1
    settings.DB_QUEUE_LIMIT = 2
    from games import threads

    threads._executor = None  # a pool of the size set above
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
    threads._executor = None


def test_members_actions_come_before_housekeeping():
    """After a flood the backlog of closing sockets and presence refreshes waits behind
    the next move (games.threads)."""
    import threading

    from games.threads import LATER, URGENT, PriorityPool

    pool = PriorityPool(1)
    gate, done = threading.Event(), []
    busy = pool.submit(LATER, gate.wait)  # the only thread is taken
    later = [pool.submit(LATER, lambda name=name: done.append(name)) for name in ("a", "b")]
    move = pool.submit(URGENT, lambda: done.append("move"))
    failing = pool.submit(URGENT, lambda: 1 / 0)
    gate.set()
    for future in (busy, *later, move):
        future.result(timeout=10)
    assert done == ["move", "a", "b"]
    assert isinstance(failing.exception(timeout=10), ZeroDivisionError)


def test_one_thread_takes_the_calls_while_it_is_not_held_up():
    """The spare thread sleeps while the first answers (here it would first look after
    a minute): a call waits for the one before it, even one that would release it, and
    runs on the first thread."""
    import threading

    from games.threads import URGENT, PriorityPool

    pool = PriorityPool(2, stall=60.0)
    gate = threading.Event()
    first = pool.submit(URGENT, lambda: gate.wait(timeout=0.5))
    second = pool.submit(URGENT, lambda: gate.set() or threading.current_thread().name)
    assert first.result(timeout=10) is False  # nobody opened the gate meanwhile
    assert second.result(timeout=10) == "db_0"


def test_a_spare_thread_takes_the_calls_while_the_first_is_held_up():
    """The first thread waits on a lock (here a gate): after the stall time the spare
    thread takes the calls waiting behind it, and the first thread answers its own call
    once the gate opens."""
    import threading

    from games.threads import LATER, URGENT, PriorityPool

    pool = PriorityPool(2, stall=0.01)
    gate = threading.Event()
    held = pool.submit(URGENT, lambda: gate.wait(timeout=30))
    done: list[str] = []
    later = pool.submit(LATER, lambda: done.append("later") or threading.current_thread().name)
    move = pool.submit(URGENT, lambda: done.append("move") or threading.current_thread().name)
    assert move.result(timeout=10) == "db_1" and later.result(timeout=10) == "db_1"
    assert sorted(done) == ["later", "move"] and not held.done()
    gate.set()
    assert held.result(timeout=10) is True


def test_a_call_is_answered_on_its_loop_and_skipped_once_its_waiter_left():
    """``games.threads`` hands a result or an error back to the waiting coroutine, and a
    call whose coroutine was cancelled (its socket went away) before a thread took it
    never runs."""
    import threading

    from games import threads

    pool = threads.PriorityPool(1)
    gate, ran = threading.Event(), []
    threads._executor = pool
    try:
        pool.submit(threads.LATER, gate.wait)  # the only thread is taken

        async def scenario() -> None:
            gone = asyncio.ensure_future(threads.run_unbounded(ran.append, "gone"))
            await asyncio.sleep(0)  # let it queue its call
            gone.cancel()
            gate.set()
            assert await threads.run(lambda: "answer") == "answer"
            with pytest.raises(ZeroDivisionError):
                await threads.run_unbounded(lambda: 1 / 0)
            assert gone.cancelled()

        asyncio.run(scenario())
    finally:
        threads._executor = None
    assert ran == []
