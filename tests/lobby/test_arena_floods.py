"""An arena cannot be flooded (SPEC §12): 36 joins and withdrawals in 15 s once made 706
renders of open arena pages and slowed everyone's moves 14×. Joins and withdrawals are
rate limited (429, ``rate_limited``), and an arena's socket carries at most one message
a second, the newest version for a burst of changes."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from games import timing
from lobby import services as lobby
from lobby.models import Arena, ArenaEntry
from tests.lobby.test_arena_pages import make_arena

pytestmark = pytest.mark.django_db


def test_joins_and_withdrawals_past_the_limit_are_refused_with_429(client, make_member, settings):
    settings.ARENA_ENTRIES_PER_MINUTE = 6
    alice = make_member("alice")
    arena = make_arena()
    client.force_login(alice)
    answers = []
    for turn in range(8):
        action = "arena_join" if turn % 2 == 0 else "arena_withdraw"
        answers.append(client.post(reverse(action, args=[arena.pk])).status_code)
    assert answers == [302] * 6 + [429, 429]
    # The refused join changed nothing: alice withdrew last.
    assert not ArenaEntry.objects.get(arena=arena, member=alice).active
    refused = client.post(
        reverse("arena_join", args=[arena.pk]), HTTP_ACCEPT="application/json"
    ).json()
    assert refused["error"] == "rate_limited" and "6" in refused["message"]


@pytest.mark.django_db(transaction=True)
async def test_a_burst_of_changes_reaches_an_arena_page_as_few_messages(make_member):
    from config.asgi import application

    members = [await sync_to_async(make_member)(f"m{i}") for i in range(12)]
    arena = await sync_to_async(make_arena)()
    socket = WebsocketCommunicator(
        application,
        f"/ws/arena/{arena.pk}/",
        headers=[(b"host", b"testserver"), (b"origin", b"http://testserver")],
    )
    assert (await socket.connect())[0]
    assert json.loads(await socket.receive_from(timeout=5))["version"] == arena.version
    for member in members:
        await sync_to_async(lobby.arena_join)(arena_id=arena.pk, member=member, now=timing.now())
    final = (await sync_to_async(Arena.objects.get)(pk=arena.pk)).version
    assert final == arena.version + 12
    heard = []
    while not heard or heard[-1] != final:
        heard.append(json.loads(await socket.receive_from(timeout=5))["version"])
    assert len(heard) < 12 and heard == sorted(heard)
    await socket.disconnect()
