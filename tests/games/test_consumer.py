"""The table protocol (SPEC §7) through the real ASGI application: every message type,
every error code, and for each bad input an error with nothing changed."""

import asyncio
import json
import os

import pytest
from asgiref.sync import sync_to_async

from games.models import ChatMessage, Match, Move
from tests.games.conftest import forbidden_colour, legal_colour, position_of

pytestmark = pytest.mark.django_db(transaction=True)


async def version_of(match) -> int:
    await sync_to_async(match.refresh_from_db)()
    return match.version


async def assert_unchanged(match, version, socket):
    """Nothing changed: same version, no move stored, and the socket still answers."""
    assert await version_of(match) == version
    assert await sync_to_async(Move.objects.filter(game__match=match).count)() == 0
    await socket.send({"type": "sync"})
    state = await socket.receive_type("state")
    assert state["version"] == version


async def test_consumer_tests_run_with_djangos_async_guard_on(connect, fast_table, alice):
    """A consumer that called the ORM from its event loop would be refused here, as in
    production: the check is on while consumer tests run (only browser tests turn it off)."""
    from django.core.exceptions import SynchronousOnlyOperation

    from tests.conftest import ASYNC_UNSAFE

    socket = await connect(fast_table, alice)
    assert socket.state["match"]["id"] == fast_table.pk
    assert ASYNC_UNSAFE not in os.environ
    with pytest.raises(SynchronousOnlyOperation):
        Match.objects.filter(pk=fast_table.pk).exists()


async def test_connect_sends_state_with_you(connect, fast_table, alice):
    socket = await connect(fast_table, alice)
    state = socket.state
    assert state["match"]["id"] == fast_table.pk
    assert state["match"]["status"] == "playing"
    assert [s["username"] for s in state["match"]["seats"]] == ["alice", "bob"]
    assert state["match"]["seats"][0]["connected"] is True
    assert state["match"]["seats"][0]["rating"] is None
    assert state["game"]["ply"] == 0 and state["game"]["to_move"] == "A"
    you = state["you"]
    assert you["seat"] == "A"
    position = await sync_to_async(position_of)(fast_table)
    assert you["legal"] == {str(c): r for c, r in position.legal_colors().items()}
    for colour, reason in you["legal"].items():
        if reason is None:
            assert you["previews"][colour] == sorted(position.preview(int(colour)))
    assert state["clock"] is None


async def test_spectator_gets_public_state_without_controls(connect, fast_table, carol):
    socket = await connect(fast_table, carol)
    assert socket.state["you"] == {
        "seat": None,
        "legal": {},
        "previews": {},
        "can_swap": False,
        "can_abort": False,
    }
    assert socket.state["match"]["spectators"] == 1


async def test_move_is_broadcast_to_everyone(connect, fast_table, alice, bob, carol):
    a = await connect(fast_table, alice)
    b = await connect(fast_table, bob)
    spectator = await connect(fast_table, carol)
    position = await sync_to_async(position_of)(fast_table)
    colour = legal_colour(position)
    await a.send({"type": "move", "color": colour, "ply": 0})
    for socket in (a, b, spectator):
        state = await socket.state_where(lambda s: s["game"]["ply"] == 1)
        assert state["game"]["to_move"] == "B"
        assert state["games"][0]["moves"][0]["color"] == colour
    assert b.state["you"]["previews"]  # now it is Bob's turn
    assert a.state["you"]["previews"] == {}
    assert spectator.state["you"]["seat"] is None


async def test_player_connection_flag_is_live(connect, fast_table, alice, bob):
    a = await connect(fast_table, alice)
    assert a.state["match"]["seats"][1]["connected"] is False
    b = await connect(fast_table, bob)
    await a.state_where(lambda s: s["match"]["seats"][1]["connected"])
    await b.close()
    await a.state_where(lambda s: not s["match"]["seats"][1]["connected"])


async def test_reconnecting_puts_the_player_back(connect, fast_table, alice):
    a = await connect(fast_table, alice)
    position = await sync_to_async(position_of)(fast_table)
    await a.send({"type": "move", "color": legal_colour(position), "ply": 0})
    await a.state_where(lambda s: s["game"]["ply"] == 1)
    await a.close()
    again = await connect(fast_table, alice)
    assert again.state["game"]["ply"] == 1
    assert again.state["you"]["seat"] == "A"


async def test_sync_resends_the_state(connect, fast_table, alice):
    a = await connect(fast_table, alice)
    await a.send({"type": "sync"})
    state = await a.receive_type("state")
    assert state["version"] == a.state["version"]


BAD_FRAMES = [
    "this is not json",
    "[1, 2, 3]",
    json.dumps({"color": 3}),
    json.dumps({"type": "dance"}),
    json.dumps({"type": "move", "color": "3", "ply": 0}),
    json.dumps({"type": "move", "color": 3, "ply": "0"}),
    json.dumps({"type": "move", "color": True, "ply": 0}),
    json.dumps({"type": "move", "color": 3}),
    json.dumps({"type": "resign", "scope": "everything"}),
    json.dumps({"type": "chat", "text": 42}),
    json.dumps({"type": "chat", "text": "x" * 501}),
    json.dumps({"type": "chat", "text": "x" * 5000}),  # over 4 KB
]


@pytest.mark.parametrize("frame", BAD_FRAMES)
async def test_bad_message(connect, fast_table, alice, frame):
    a = await connect(fast_table, alice)
    version = a.state["version"]
    await a.send(frame)
    error = await a.receive_type("error")
    assert error["code"] == "bad_message"
    assert error["message"]
    await assert_unchanged(fast_table, version, a)


async def test_binary_frame_is_a_bad_message(connect, fast_table, alice):
    a = await connect(fast_table, alice)
    await a.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await a.receive_type("error"))["code"] == "bad_message"


@pytest.mark.parametrize(
    ("who", "move", "code"),
    [
        ("bob", {"color": "legal", "ply": 0}, "not_your_turn"),
        ("carol", {"color": "legal", "ply": 0}, "not_a_player"),
        (None, {"color": "legal", "ply": 0}, "not_a_player"),
        ("alice", {"color": "own", "ply": 0}, "illegal_color"),
        ("alice", {"color": "opponent", "ply": 0}, "illegal_color"),
        ("alice", {"color": 12, "ply": 0}, "illegal_color"),
        ("alice", {"color": 0, "ply": 0}, "illegal_color"),
        ("alice", {"color": "swap", "ply": 0}, "illegal_color"),
        ("alice", {"color": "legal", "ply": 5}, "stale"),
    ],
)
async def test_refused_move(connect, fast_table, alice, bob, carol, who, move, code):
    user = {"alice": alice, "bob": bob, "carol": carol, None: None}[who]
    socket = await connect(fast_table, user)
    position = await sync_to_async(position_of)(fast_table)
    colour = move["color"]
    if colour == "legal":
        colour = legal_colour(position)
    elif colour in ("own", "opponent"):
        colour = forbidden_colour(position, colour)
    version = socket.state["version"]
    await socket.send({"type": "move", "color": colour, "ply": move["ply"]})
    error = await socket.receive_type("error")
    assert error["code"] == code
    await assert_unchanged(fast_table, version, socket)


async def test_move_after_the_game_is_over(connect, under_way, alice, bob):
    a = await connect(under_way, alice)
    await a.send({"type": "resign", "scope": "game"})
    state = await a.state_where(lambda s: s["match"]["status"] == "between_games")
    assert state["games"][0]["reason"] == "resigned"
    assert state["games"][0]["winners"] == ["B"]
    version = state["version"]
    await a.send({"type": "move", "color": 1, "ply": state["game"]["ply"]})
    assert (await a.receive_type("error"))["code"] == "game_over"
    assert await version_of(under_way) == version


async def test_ready_starts_game_two(connect, under_way, alice, bob):
    a = await connect(under_way, alice)
    b = await connect(under_way, bob)
    await a.send({"type": "resign", "scope": "game"})
    await b.state_where(lambda s: s["match"]["status"] == "between_games")
    await a.send({"type": "ready"})
    await b.state_where(lambda s: s["match"]["ready"] == ["A"])
    await b.send({"type": "ready"})
    state = await a.state_where(lambda s: s["game"]["number"] == 2)
    assert state["match"]["status"] == "playing"
    assert state["game"]["to_move"] == "B"
    assert state["match"]["points"] == [0.0, 1.0]


async def test_ready_while_playing_is_not_allowed(connect, fast_table, alice):
    a = await connect(fast_table, alice)
    await a.send({"type": "ready"})
    assert (await a.receive_type("error"))["code"] == "not_allowed"


async def test_resign_match(connect, under_way, alice, bob):
    a = await connect(under_way, alice)
    await a.send({"type": "resign", "scope": "match"})
    state = await a.state_where(lambda s: s["match"]["status"] == "finished")
    assert state["match"]["result"] == {"winners": ["B"], "reason": "resigned"}


async def test_spectator_cannot_resign(connect, fast_table, carol):
    c = await connect(fast_table, carol)
    version = c.state["version"]
    await c.send({"type": "resign", "scope": "match"})
    assert (await c.receive_type("error"))["code"] == "not_a_player"
    await assert_unchanged(fast_table, version, c)


@pytest.mark.parametrize("kind", ["claim", "hint", "takeback"])
async def test_not_allowed_here(connect, fast_table, alice, kind):
    a = await connect(fast_table, alice)
    await a.send({"type": kind})
    assert (await a.receive_type("error"))["code"] == "not_allowed"


async def test_chat_reaches_everyone_escaped_as_data(connect, fast_table, alice, carol):
    a = await connect(fast_table, alice)
    c = await connect(fast_table, carol)
    await c.send({"type": "chat", "text": "<b>gg</b>"})
    for socket in (a, c):
        message = await socket.receive_type("chat")
        assert message["username"] == "carol"
        assert message["text"] == "<b>gg</b>"  # data, escaped by the page when shown
        assert message["at"]


async def test_chat_rate_limited(connect, fast_table, alice):
    a = await connect(fast_table, alice)
    for n in range(5):
        await a.send({"type": "chat", "text": f"m{n}"})
        await a.receive_type("chat")
    await a.send({"type": "chat", "text": "one too many"})
    assert (await a.receive_type("error"))["code"] == "rate_limited"
    assert await sync_to_async(ChatMessage.objects.count)() == 5


async def test_anonymous_chat_is_not_allowed(connect, fast_table):
    visitor = await connect(fast_table, None)
    await visitor.send({"type": "chat", "text": "hi"})
    assert (await visitor.receive_type("error"))["code"] == "not_allowed"


async def test_players_never_see_spectator_chat_at_rated_tables(
    connect, new_table, alice, bob, carol, make_member
):
    match = await sync_to_async(new_table)("fast", [alice, bob], rated=True, clock="3+2")
    dave = await sync_to_async(make_member)("dave")
    a = await connect(match, alice)
    c = await connect(match, carol)
    d = await connect(match, dave)
    await c.send({"type": "chat", "text": "play 3!"})
    message = await d.receive_type("chat")
    assert message["spectators_only"] is True
    await c.receive_type("chat")
    # Alice gets only state updates, never the spectators' chat, also not on reconnecting.
    await a.send({"type": "chat", "text": "hello"})
    assert (await a.receive_type("chat"))["text"] == "hello"
    await a.close()
    again = await connect(match, alice)
    history = [m for m in await _drain(again) if m["type"] == "chat"]
    assert [m["text"] for m in history] == ["hello"]


async def _drain(socket):
    messages = []
    while not await socket.communicator.receive_nothing(timeout=0.3):
        messages.append(await socket.receive())
    return messages


async def test_rematch_moves_everyone_to_the_new_match(connect, under_way, alice, bob):
    a = await connect(under_way, alice)
    b = await connect(under_way, bob)
    await a.send({"type": "resign", "scope": "match"})
    await b.state_where(lambda s: s["match"]["status"] == "finished")
    await a.send({"type": "rematch"})
    state = await b.state_where(lambda s: s["match"]["rematch_offer"] is not None)
    assert state["match"]["rematch_offer"]["seats"] == ["A"]
    await b.send({"type": "rematch"})
    state = await a.state_where(lambda s: s["match"]["rematch"] is not None)
    new = await sync_to_async(Match.objects.get)(pk=state["match"]["rematch"])
    assert new.status == "playing" and new.variant == "fast"


async def test_socket_without_origin_is_refused(fast_table):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    communicator = WebsocketCommunicator(application, f"/ws/table/{fast_table.pk}/")
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


@pytest.mark.parametrize(
    "origin",
    [b"http://testserver:9999", b"https://testserver", b"http://evil.example", b"null"],
)
async def test_a_socket_from_another_origin_is_refused(fast_table, origin):
    """Origin is compared by scheme, host and port with the site's own (SPEC §9)."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    communicator = WebsocketCommunicator(
        application,
        f"/ws/table/{fast_table.pk}/",
        headers=[(b"host", b"testserver"), (b"origin", origin)],
    )
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


async def test_unknown_table(db, alice):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    communicator = WebsocketCommunicator(
        application,
        "/ws/table/999999/",
        headers=[(b"host", b"testserver"), (b"origin", b"http://testserver")],
    )
    connected, _ = await communicator.connect()
    assert connected
    error = json.loads(await communicator.receive_from())
    assert error["code"] == "not_found"
    assert (await communicator.receive_output())["type"] == "websocket.close"
    await communicator.disconnect()


async def test_a_tables_timers_go_with_its_last_socket_here(
    connect, fast_table, alice, bob, settings
):
    """What a process keeps for a table it serves (its presence and deadline timers) is
    dropped when the table's last socket there closes (with no presence refresh waiting
    for its slot: every change refreshes at once here)."""
    from games import consumers

    settings.PRESENCE_COALESCE_SECONDS = 0
    a = await connect(fast_table, alice)
    b = await connect(fast_table, bob)
    await a.send(
        {
            "type": "move",
            "color": legal_colour(await sync_to_async(position_of)(fast_table)),
            "ply": 0,
        }
    )
    await b.receive_type("state")
    watched = consumers.tables_watched()
    assert watched >= 1
    await a.close()
    assert consumers.tables_watched() == watched  # bob's socket still serves it
    await b.close()
    for _ in range(500):  # until the refresh their leaving caused has committed
        if consumers.tables_watched() == watched - 1:
            break
        await asyncio.sleep(0.01)
    assert consumers.tables_watched() == watched - 1


async def test_a_closed_sockets_housekeeping_waits_behind_the_players_moves(
    connect, fast_table, alice, bob, carol
):
    """What the process does for a socket that went (its presence closed, the table's
    presence refreshed) takes at most ``HOUSEKEEPING_DB_CALLS`` database calls at once, and
    the players never wait for it: with every such slot taken, carol's closed socket is
    still open on record while alice and bob play two moves; once a slot is free, it is
    recorded."""
    from games.models import Presence
    from games.sockets import HOUSEKEEPING_DB_CALLS, db_slots

    a = await connect(fast_table, alice)
    b = await connect(fast_table, bob)
    watcher = await connect(fast_table, carol)
    still_open = Presence.objects.filter(match=fast_table, member=carol, closed=False).exists
    assert await sync_to_async(still_open)()
    housekeeping = db_slots().housekeeping
    for _ in range(HOUSEKEEPING_DB_CALLS):
        await housekeeping.acquire()
    closing = asyncio.ensure_future(watcher.communicator.disconnect(timeout=10))
    for ply, (mover, other) in enumerate(((a, b), (b, a))):
        colour = legal_colour(await sync_to_async(position_of)(fast_table))
        await mover.send({"type": "move", "color": colour, "ply": ply})
        await other.state_where(lambda s, ply=ply: s["game"]["ply"] == ply + 1)
    assert not closing.done()
    assert await sync_to_async(still_open)()
    for _ in range(HOUSEKEEPING_DB_CALLS):
        housekeeping.release()
    await closing
    assert not await sync_to_async(still_open)()


async def test_a_crowds_syncs_share_one_read_and_wait_behind_the_moves(
    settings, monkeypatch, connect, fast_table, alice, bob
):
    """Syncs are housekeeping: with every housekeeping slot taken, three visitors' syncs
    wait while alice's move goes through (a socket answers its messages in turn, so the
    visitors hear of it after their answer); once a slot is free, one read made after
    their asks answers all three, each with the state after the move."""
    from games import selectors
    from games.sockets import HOUSEKEEPING_DB_CALLS, db_slots

    settings.PRESENCE_COALESCE_SECONDS = 0  # each opening refreshes at once: no later one
    a = await connect(fast_table, alice)
    b = await connect(fast_table, bob)
    crowd = [await connect(fast_table) for _ in range(3)]
    reads = []
    table_event = selectors.table_event
    monkeypatch.setattr(
        selectors, "table_event", lambda match_id: reads.append(match_id) or table_event(match_id)
    )
    housekeeping = db_slots().housekeeping
    for _ in range(HOUSEKEEPING_DB_CALLS):
        await housekeeping.acquire()
    for socket in crowd:
        await socket.send({"type": "sync"})
    colour = legal_colour(await sync_to_async(position_of)(fast_table))
    await a.send({"type": "move", "color": colour, "ply": 0})
    moved = await b.state_where(lambda s: s["game"]["ply"] == 1)
    assert reads == []
    for _ in range(HOUSEKEEPING_DB_CALLS):
        housekeeping.release()
    for socket in crowd:
        answer = await socket.state_where(lambda s: s["game"]["ply"] == 1)
        assert answer["version"] == moved["version"]
    assert reads == [fast_table.pk]


def test_each_event_loop_has_its_own_bounds_on_database_calls():
    """A semaphore serves one event loop: a process has one, a test's is not the next's."""
    from games.sockets import HOUSEKEEPING_DB_CALLS, db_slots

    async def twice():
        return db_slots(), db_slots()

    first, again = asyncio.run(twice())
    assert first is again
    other, _ = asyncio.run(twice())
    assert other is not first and other.actions is not first.actions

    async def full_after_the_bound() -> list[bool]:
        housekeeping = db_slots().housekeeping
        full = []
        for _ in range(HOUSEKEEPING_DB_CALLS):
            full.append(housekeeping.locked())
            await housekeeping.acquire()
        return [*full, housekeeping.locked()]

    assert asyncio.run(full_after_the_bound()) == [False] * HOUSEKEEPING_DB_CALLS + [True]
