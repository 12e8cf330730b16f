"""Sockets over real websockets to Daphne processes on PostgreSQL and Redis: a socket
acts as the member is now (ban, logout, deletion, mute), presence that expires even when
the process holding a socket is killed, and what Daphne does with frames by size."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from accounts import services as accounts_services
from games import tasks
from games.models import ChatMessage, Move
from tests import timeshift
from tests.conftest import needs_services
from tests.games.conftest import legal_colour, position_of
from tests.servers import LiveSocket, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def table_path(match) -> str:
    return f"/ws/table/{match.pk}/"


async def open_socket(server, match, user=None, cookie=None) -> LiveSocket:
    if user is not None and cookie is None:
        cookie = await sync_to_async(session_cookie)(user)
    socket = await LiveSocket.open(server, table_path(match), cookie)
    await socket.receive_type("state")
    return socket


async def nothing_stored(match) -> None:
    assert await sync_to_async(Move.objects.filter(game__match=match).count)() == 0
    assert await sync_to_async(ChatMessage.objects.filter(match=match).count)() == 0


async def test_a_ban_closes_the_members_socket_and_nothing_sent_on_it_acts(
    daphnes, fast_table, alice, bob, moderator
):
    a = await open_socket(daphnes[0], fast_table, alice)
    b = await open_socket(daphnes[1], fast_table, bob)
    colour = legal_colour(await sync_to_async(position_of)(fast_table))
    await sync_to_async(accounts_services.member_ban)(
        member=alice, by=moderator, reason="Abusive chat"
    )
    # Sent after the ban, perhaps before the close arrives: neither may act.
    await a.send({"type": "move", "color": colour, "ply": 0}, may_be_closed=True)
    await a.send({"type": "chat", "text": "still here"}, may_be_closed=True)
    assert await a.closed_with() == 4403
    await nothing_stored(fast_table)
    await b.send({"type": "sync"})
    assert (await b.receive_type("state"))["game"]["ply"] == 0
    await b.close()


async def test_a_logout_closes_that_sessions_sockets_only(daphnes, fast_table, alice):
    client = Client()
    await sync_to_async(client.force_login)(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    on_phone = await open_socket(daphnes[0], fast_table, alice)  # another session
    a = await open_socket(daphnes[1], fast_table, alice, cookie=cookie)
    await sync_to_async(client.logout)()
    await a.send({"type": "chat", "text": "logged out, still talking"}, may_be_closed=True)
    assert await a.closed_with() == 4401
    await nothing_stored(fast_table)
    # The member's other session is still there and still acts.
    await on_phone.send({"type": "chat", "text": "from my phone"})
    message = await on_phone.receive_type("chat")
    assert message["text"] == "from my phone" and message["username"] == "alice"
    await on_phone.close()


async def test_deleting_the_account_closes_its_sockets(daphnes, fast_table, alice, bob):
    a = await open_socket(daphnes[0], fast_table, alice)
    b = await open_socket(daphnes[1], fast_table, bob)
    for ply, socket in enumerate([a, b]):  # played: a deletion resigns it (SPEC §3)
        colour = legal_colour(await sync_to_async(position_of)(fast_table))
        await socket.send({"type": "move", "color": colour, "ply": ply})
        await b.state_where(lambda s, p=ply: s["game"]["ply"] == p + 1)
    await sync_to_async(accounts_services.member_delete)(member=alice)
    assert await a.closed_with() == 4410
    # Her running match was resigned for her: the opponent sees it at once.
    state = await b.state_where(lambda s: s["match"]["status"] == "finished")
    assert state["match"]["result"] == {"winners": ["B"], "reason": "resigned"}
    # Her socket going away refreshes the table: the seat shows a deleted member.
    await b.state_where(lambda s: s["match"]["seats"][0]["username"] is None)
    await b.close()


async def test_a_muted_members_chat_is_not_allowed(daphnes, fast_table, alice, moderator):
    a = await open_socket(daphnes[0], fast_table, alice)
    await a.send({"type": "chat", "text": "before"})
    assert (await a.receive_type("chat"))["text"] == "before"
    await sync_to_async(accounts_services.member_mute)(member=alice, by=moderator)
    await a.send({"type": "chat", "text": "after"})
    error = await a.receive_type("error")
    assert error["code"] == "not_allowed"
    assert await sync_to_async(ChatMessage.objects.filter(text="after").count)() == 0
    await a.send({"type": "sync"})  # the socket stays usable
    assert (await a.receive_type("state"))["match"]["id"] == fast_table.pk
    await a.close()


async def test_presence_expires_when_the_process_holding_a_socket_is_killed(
    daphnes, own_daphne, fast_table, alice, bob, carol
):
    doomed = own_daphne()
    a = await open_socket(doomed, fast_table, alice)
    await open_socket(doomed, fast_table, bob)
    await open_socket(doomed, fast_table, carol)  # a spectator
    await a.state_where(
        lambda s: (
            all(seat["connected"] for seat in s["match"]["seats"]) and s["match"]["spectators"] == 1
        )
    )
    doomed.kill()  # no disconnect() runs anywhere

    b = await open_socket(daphnes[0], fast_table, bob)  # bob comes back, alice does not
    await sync_to_async(timeshift.advance)(46)  # past the 45 s expiry
    await b.send({"type": "ping"})
    await b.receive_type("pong")
    await sync_to_async(tasks.presence_sweep)()
    state = await b.state_where(lambda s: not s["match"]["seats"][0]["connected"])
    assert state["match"]["seats"][1]["connected"] is True
    assert state["match"]["spectators"] == 0
    # A restarted process serves the same truth.
    again = own_daphne()
    fresh = await open_socket(again, fast_table, carol)
    assert [s["connected"] for s in fresh.state["match"]["seats"]] == [False, True]
    await b.close()
    await fresh.close()


async def test_frames_by_size(daphnes, fast_table, alice):
    """Up to 4 KB a frame is read; above, ``bad_message`` and the socket stays open; Daphne
    itself drops the connection for a frame over 1 MiB (docs/protocol.md)."""
    a = await open_socket(daphnes[0], fast_table, alice)
    for size in (4097, 1024 * 1024 - 100):
        await a.send(json.dumps({"type": "chat", "text": "x" * size}))
        error = await a.receive_type("error")
        assert error["code"] == "bad_message"
    await a.send({"type": "sync"})
    assert (await a.receive_type("state"))["match"]["id"] == fast_table.pk
    await a.send(json.dumps({"type": "chat", "text": "x" * (1024 * 1024 + 1)}))
    assert await a.closed_with() == 1006  # no close frame: the TCP connection just ends
    await nothing_stored(fast_table)
