"""A table socket outlives neither its member's password nor their active flag, and reads
the member's seat afresh (a member who left the seat acts from it no more)."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from accounts import events as member_events
from games import services
from games.models import ChatMessage, Presence, Seat
from tests.games.conftest import T0
from tests.games.table_sockets import cookie_of, opened

pytestmark = pytest.mark.django_db(transaction=True)


async def closed_with(communicator) -> int:
    while True:
        output = await communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output["code"]


async def test_a_password_change_closes_the_sockets_of_every_session(fast_table, alice, password):
    """Changed on the site's own page: every socket opened before closes as at a logout
    (the session that changed it goes on under a new key, so its page opens a new socket,
    which acts); an old session's new socket is refused its member."""
    here = Client()
    await sync_to_async(here.force_login)(alice)
    mine, _ = await opened(fast_table, cookie=here.cookies["sessionid"].value)
    phone_cookie = await cookie_of(alice)
    phone, _ = await opened(fast_table, cookie=phone_cookie)
    new = "a new long secret 42"
    response = await sync_to_async(here.post)(
        "/accounts/password/change/",
        {"oldpassword": password, "password1": new, "password2": new},
    )
    assert response.status_code == 302
    assert await closed_with(phone) == member_events.CLOSE_SESSION_ENDED
    assert await closed_with(mine) == member_events.CLOSE_SESSION_ENDED
    again, first = await opened(fast_table, cookie=here.cookies["sessionid"].value)
    assert first["you"]["seat"] == "A"
    await again.send_to(text_data=json.dumps({"type": "chat", "text": "still here"}))
    while (message := json.loads(await again.receive_from(timeout=5)))["type"] != "chat":
        pass
    assert message["text"] == "still here"
    old, first = await opened(fast_table, cookie=phone_cookie)
    assert first["you"]["seat"] is None  # no longer alice there: a visitor
    for communicator in (again, old):
        await communicator.disconnect()


async def test_an_action_checks_the_password_even_without_the_notice(fast_table, alice):
    """The notice may be lost (a process restarting): each action compares the password
    and the active flag in its own statement, so nothing is done for a stale socket."""
    from accounts.models import User

    socket, _ = await opened(fast_table, cookie=await cookie_of(alice))
    # Changed behind the site's back: no signal, no notice to the socket.
    await sync_to_async(User.objects.filter(pk=alice.pk).update)(password="!changed")
    await socket.send_to(text_data=json.dumps({"type": "chat", "text": "hi"}))
    assert await closed_with(socket) == member_events.CLOSE_SESSION_ENDED
    assert not await sync_to_async(ChatMessage.objects.exists)()


async def test_a_deactivated_members_sockets_close(fast_table, alice):
    socket, _ = await opened(fast_table, cookie=await cookie_of(alice))
    alice.is_active = False
    await sync_to_async(alice.save)()
    assert await closed_with(socket) == member_events.CLOSE_SESSION_ENDED


async def test_a_socket_does_not_keep_a_seat_its_member_left(alice, bob, carol):
    from lobby import services as lobby_services

    table = await sync_to_async(lobby_services.table_open)(
        host=alice, variant="four", clock="", single_game=False, rated=False, private=False, now=T0
    )
    await sync_to_async(lobby_services.table_join)(member=bob, match_id=table.pk, now=T0)
    socket, _ = await opened(table, cookie=await cookie_of(bob), first=False)
    counted = sync_to_async(Presence.objects.filter(match=table, member=bob).exists)
    for _ in range(250):  # the socket counts once its opening ran on a database thread
        if await counted():
            break
        await asyncio.sleep(0.02)
    await sync_to_async(services.presence_refresh)(match_id=table.pk, now=T0)
    assert (await sync_to_async(Seat.objects.get)(match=table, seat=1)).connected
    await sync_to_async(lobby_services.table_leave)(member=bob, match_id=table.pk, now=T0)
    await sync_to_async(lobby_services.table_join)(member=carol, match_id=table.pk, now=T0)
    await sync_to_async(services.presence_refresh)(match_id=table.pk, now=T0)
    seat = await sync_to_async(Seat.objects.get)(match=table, seat=1)
    assert seat.member_id == carol.pk and not seat.connected  # carol has no socket there
    await socket.disconnect()
