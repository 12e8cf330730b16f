"""Visitors' sockets at a table: capped by address and by table, a smaller budget of
messages, a crowd of visitors served through one relay, and visitors coming and going
leave a finished match alone."""

import json

import pytest
from asgiref.sync import sync_to_async

from games import services
from tests.games.conftest import T0, legal_colour, position_of
from tests.games.table_sockets import cookie_of, fresh, opened, refused

pytestmark = pytest.mark.django_db(transaction=True)


async def test_visitors_sockets_are_capped_by_address_and_by_table(
    settings, new_table, alice, bob, carol
):
    settings.VISITOR_SOCKETS_PER_TABLE = 2
    settings.VISITOR_SOCKETS = 3
    settings.VISITORS_PER_TABLE = 4
    table = await sync_to_async(new_table)("fast", [alice, bob])
    other = await sync_to_async(new_table)("fast", [bob, carol])
    kept = []
    for _ in range(2):  # two from one address at one table
        communicator, first = await opened(table, address="203.0.113.7")
        assert first["type"] == "state"
        kept.append(communicator)
    assert await refused(table, address="203.0.113.7")  # a third there is one too many
    communicator, first = await opened(other, address="203.0.113.7")  # elsewhere: three
    assert first["type"] == "state"
    kept.append(communicator)
    assert await refused(other, address="203.0.113.7")  # a fourth anywhere is refused
    # The table takes four visitors' sockets in all, whatever their addresses.
    for address in ("198.51.100.1", "198.51.100.2"):
        communicator, first = await opened(table, address=address)
        assert first["type"] == "state"
        kept.append(communicator)
    assert await refused(table, address="198.51.100.3")
    # Members are not visitors: a player still comes in.
    communicator, first = await opened(table, address="198.51.100.3", cookie=await cookie_of(alice))
    assert first["type"] == "state" and first["you"]["seat"] == "A"
    kept.append(communicator)
    for communicator in kept:
        await communicator.disconnect()


async def sync_answer(communicator) -> str:
    """Send ``sync``; "state", or the error's code, whichever comes first."""
    await communicator.send_to(text_data=json.dumps({"type": "sync"}))
    while True:
        message = json.loads(await communicator.receive_from(timeout=5))
        if message["type"] in ("state", "error"):
            return message.get("code", "state")


async def test_a_visitor_has_a_smaller_budget_of_messages(settings, fast_table, carol):
    settings.SOCKET_RATE = (6, 10.0)
    settings.VISITOR_SOCKET_RATE = (3, 10.0)
    visitor, _ = await opened(fast_table)
    member, _ = await opened(fast_table, cookie=await cookie_of(carol))
    answers = {}
    for name, communicator in (("visitor", visitor), ("member", member)):
        answers[name] = [await sync_answer(communicator) for _ in range(4)]
    assert answers["visitor"] == ["state", "state", "state", "rate_limited"]
    assert answers["member"] == ["state"] * 4
    for communicator in (visitor, member):
        await communicator.disconnect()


async def test_a_sockets_budget_is_its_own_and_a_cache_flush_does_not_renew_it(
    settings, fast_table
):
    """A socket counts its own messages (no call to the cache on the event loop for each
    frame): clearing the shared cache midway leaves its count as it was."""
    from django.core.cache import cache

    settings.VISITOR_SOCKET_RATE = (3, 3600.0)  # one window for the whole test
    visitor, _ = await opened(fast_table)
    codes = [await sync_answer(visitor), await sync_answer(visitor)]
    await sync_to_async(cache.clear)()
    codes += [await sync_answer(visitor), await sync_answer(visitor)]
    assert codes == ["state", "state", "state", "rate_limited"]
    await visitor.disconnect()


async def test_a_crowd_of_visitors_hears_every_event(connect, fast_table, alice, bob):
    """States and chat reach each visitor of a table, also after another visitor left."""
    a = await connect(fast_table, alice)
    b = await connect(fast_table, bob)
    crowd = [await connect(fast_table, None) for _ in range(3)]
    await a.send({"type": "chat", "text": "welcome"})
    for socket in crowd:
        assert (await socket.receive_type("chat"))["text"] == "welcome"
    await crowd[0].close()
    position = await sync_to_async(position_of)(fast_table)
    await a.send({"type": "move", "color": legal_colour(position), "ply": 0})
    for socket in crowd[1:]:
        await socket.state_where(lambda s: s["game"]["ply"] == 1)
    await b.state_where(lambda s: s["game"]["ply"] == 1)


async def test_a_crowd_of_visitors_costs_one_message_an_event(
    monkeypatch, connect, fast_table, alice, bob
):
    """One visitor's socket of a table on a process hears the group's events and hands
    them to the others there: a move's state is handled once for the crowd, and each of
    them still gets it, also after that socket went."""
    from games.consumers import TableConsumer

    handled = []
    table_state = TableConsumer.table_state

    async def counted(socket, event):
        handled.append((socket.member.username if socket.member else "visitor", event["version"]))
        await table_state(socket, event)

    monkeypatch.setattr(TableConsumer, "table_state", counted)
    a = await connect(fast_table, alice)
    b = await connect(fast_table, bob)
    crowd = [await connect(fast_table) for _ in range(4)]
    for ply, (mover, other) in enumerate(((a, b), (b, a))):
        colour = legal_colour(await sync_to_async(position_of)(fast_table))
        await mover.send({"type": "move", "color": colour, "ply": ply})
        for socket in (mover, other, *crowd):
            moved = await socket.state_where(lambda s, ply=ply: s["game"]["ply"] == ply + 1)
        by = sorted(name for name, version in handled if version == moved["version"])
        assert by == ["alice", "bob", "visitor"]
        await crowd.pop(0).close()  # the relay goes; the next one takes over


async def test_visitors_coming_and_going_leave_a_finished_match_alone(
    settings, client, under_way, alice, bob
):
    await sync_to_async(services.match_resign)(match_id=under_way.pk, user=bob, now=T0)
    version = await sync_to_async(lambda: fresh(under_way).version)()
    for address in ("198.51.100.1", "198.51.100.2", "198.51.100.3"):
        communicator, first = await opened(under_way, address=address)
        assert first["version"] == version
        await communicator.disconnect()
        await sync_to_async(services.presence_refresh)(match_id=under_way.pk, now=T0)
    assert await sync_to_async(lambda: fresh(under_way).version)() == version
    steps = await sync_to_async(client.get)(f"/match/{under_way.pk}/steps/")
    assert steps.json()["version"] == version
    # What changes the match still does: a new rating shown is a new version.
    refreshed = await sync_to_async(services.table_refresh)(match_id=under_way.pk, now=T0)
    assert refreshed.version == version + 1
    steps = await sync_to_async(client.get)(f"/match/{under_way.pk}/steps/")
    assert steps.json()["version"] == version + 1
