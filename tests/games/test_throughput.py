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


@needs_services
async def test_overload_is_refused_fast_and_nothing_is_lost_or_doubled(
    own_daphne, new_table, make_member
):
    """A process that already has ``DB_QUEUE_LIMIT`` actions waiting for the database
    refuses the next at once (``rate_limited``); each move is stored or refused, never
    lost or doubled."""
    server = await sync_to_async(own_daphne)(DB_QUEUE_LIMIT=2)
    tables, sockets = [], []
    for index in range(8):
        a = await sync_to_async(make_member)(f"a{index}")
        b = await sync_to_async(make_member)(f"b{index}")
        table = await sync_to_async(new_table)("fast", [a, b])
        tables.append(table)
        sockets.append(await open_socket(server, table, a))
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
    for socket in sockets:
        await socket.close()
