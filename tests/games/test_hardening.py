"""What a careless or hostile client cannot do to a table: flood it with sockets or
messages, send control characters, or break a socket's cleanup with a server error."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from games import services
from games.errors import TableError
from games.models import ChatMessage, Match, Presence
from tests.games.conftest import T0, legal_colour, position_of

pytestmark = pytest.mark.django_db(transaction=True)


async def raw_socket(match, user):
    """A socket that has not read anything yet (to count every message it gets)."""
    from config.asgi import application

    client = Client()
    await sync_to_async(client.force_login)(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    communicator = WebsocketCommunicator(
        application,
        f"/ws/table/{match.pk}/",
        headers=[
            (b"host", b"testserver"),
            (b"origin", b"http://testserver"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def count_until(communicator, predicate) -> int:
    """Messages received up to the first state for which ``predicate`` holds, and after
    it, whatever else comes."""
    count = 0
    while True:
        message = json.loads(await communicator.receive_from(timeout=5))
        count += 1
        if message["type"] == "state" and predicate(message):
            break
    while not await communicator.receive_nothing(timeout=0.05):
        await communicator.receive_from()
        count += 1
    return count


async def test_fifty_sockets_of_one_member_cost_a_few_states_each(settings, fast_table, carol):
    settings.SOCKETS_PER_TABLE = settings.SOCKETS_PER_MEMBER = 100
    # Presence is refreshed at most once in this long, however slowly the machine opens
    # the fifty sockets: the count below does not depend on its speed.
    settings.PRESENCE_COALESCE_SECONDS = 5
    sockets = [await raw_socket(fast_table, carol) for _ in range(50)]
    received = 0
    for communicator in sockets:  # until the state that counts all fifty
        received += await count_until(communicator, lambda s: s["match"]["spectators"] == 50)
    # Each socket: its first state, then at most a few coalesced presence updates;
    # broadcasting every open would be 50 * 51 / 2 = 1275 states.
    assert 50 <= received <= 4 * 50
    match = await sync_to_async(Match.objects.get)(pk=fast_table.pk)
    assert match.spectators == 50
    for communicator in sockets:
        await communicator.disconnect()


async def test_sockets_per_member_are_capped(settings, connect, new_table, alice, bob, carol):
    settings.SOCKETS_PER_TABLE = 3
    settings.SOCKETS_PER_MEMBER = 4
    table = await sync_to_async(new_table)("fast", [alice, bob])
    other = await sync_to_async(new_table)("fast", [bob, carol])
    for _ in range(3):
        await connect(table, alice)
    fourth = await raw_socket(table, alice)
    error = json.loads(await fourth.receive_from())
    assert error["type"] == "error" and error["code"] == "too_many_sockets"
    assert (await fourth.receive_output())["code"] == 4429
    await connect(other, alice)  # a fourth socket elsewhere is fine
    fifth = await raw_socket(other, alice)
    assert json.loads(await fifth.receive_from())["code"] == "too_many_sockets"
    count = await sync_to_async(Presence.objects.filter(member=alice).count)()
    assert count == 4


async def test_the_rate_limit_counts_everything_but_moves_in_turn(
    settings, connect, fast_table, alice, bob
):
    settings.SOCKET_RATE = (4, 10.0)
    a = await connect(fast_table, alice)
    b = await connect(fast_table, bob)
    # Six moves each, in turn, more than the limit: none is refused.
    for ply in range(12):
        socket = a if ply % 2 == 0 else b
        position = await sync_to_async(position_of)(fast_table)
        await socket.send({"type": "move", "color": legal_colour(position), "ply": ply})
        await socket.state_where(lambda s, ply=ply: s["game"]["ply"] == ply + 1)
    # Everything else counts: four syncs pass, the fifth is refused.
    for _ in range(4):
        await a.send({"type": "sync"})
        await a.receive_type("state")
    await a.send({"type": "sync"})
    assert (await a.receive_type("error"))["code"] == "rate_limited"
    # Refused moves count too, so a flood of them is refused fast.
    await b.send({"type": "move", "color": 1, "ply": 0})
    assert (await b.receive_type("error"))["code"] == "stale"


@pytest.mark.parametrize("text", ["nul\x00byte", "bell\x07", "\ud800lone surrogate", "esc\x1b[31m"])
async def test_control_characters_in_chat_are_refused(connect, fast_table, alice, text):
    a = await connect(fast_table, alice)
    await a.send(json.dumps({"type": "chat", "text": text}))
    assert (await a.receive_type("error"))["code"] == "bad_message"
    await a.send({"type": "chat", "text": "fine"})
    assert (await a.receive_type("chat"))["text"] == "fine"
    assert await sync_to_async(ChatMessage.objects.count)() == 1


def test_the_chat_limit_is_a_sliding_window(fast_table, alice):
    # Five messages late in one 10-second window and five early in the next used to pass.
    for second in (5, 6, 7, 8, 9):
        services.chat_post(
            match_id=fast_table.pk, user=alice, text="hi", now=T0 + timedelta(seconds=second)
        )
    with pytest.raises(TableError) as refused:
        services.chat_post(
            match_id=fast_table.pk, user=alice, text="hi", now=T0 + timedelta(seconds=11)
        )
    assert refused.value.code == "rate_limited"
    services.chat_post(
        match_id=fast_table.pk, user=alice, text="hi", now=T0 + timedelta(seconds=15.5)
    )
    assert ChatMessage.objects.count() == 6


async def test_a_server_error_answers_internal_and_keeps_the_socket(
    monkeypatch, connect, fast_table, alice
):
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "match_ready", broken)
    a = await connect(fast_table, alice)
    await a.send({"type": "ready"})
    error = await a.receive_type("error")
    assert error["code"] == "internal" and "bug" not in error["message"]
    await a.send({"type": "sync"})
    assert (await a.receive_type("state"))["match"]["id"] == fast_table.pk
    await a.close()
    # The cleanup ran: the socket no longer counts.
    rows = await sync_to_async(list)(Presence.objects.filter(member=alice, closed=False))
    assert rows == []


async def test_errors_with_values_come_in_the_socket_language(connect, fast_table, alice, bob):
    """A refusal that names a number or a type is translated where the socket sends it,
    not fixed in the language active where it was raised (the parser, a database thread)."""
    from django.utils import translation
    from django.utils.translation import gettext

    spanish = await connect(fast_table, bob, lang="es")
    cases = [
        (
            {"type": "move", "ply": 5, "color": 1},
            "stale",
            "The board changed meanwhile: the game is at move %(ply)d.",
            {"ply": 0},
        ),
        ({"type": "dance"}, "bad_message", "Unknown message type %(type)r.", {"type": "dance"}),
        (
            {"type": "chat", "text": "x" * 501},
            "bad_message",
            "A chat message has 1 to %(max)d characters.",
            {"max": 500},
        ),
    ]
    for message, code, english, values in cases:
        await spanish.send(message)
        error = await spanish.receive_type("error")
        with translation.override("es"):
            expected = gettext(english) % values
        assert expected != english % values  # the catalog has it in Spanish
        assert (error["code"], error["message"]) == (code, expected)
    await spanish.send({"type": "sync"})  # the socket is still usable
    assert (await spanish.receive_type("state"))["game"]["ply"] == 0
