"""A socket that sends nothing for ``PRESENCE_EXPIRY_SECONDS`` is closed by its process
(4408), within ``SILENCE_CHECK_SECONDS`` of that; caps count every open socket. An attack
review held 90 silent visitors' sockets under a cap of 30: caps counted only sockets that
had spoken lately, and nothing closed the others."""

import asyncio

import pytest

from tests.conftest import needs_services
from tests.servers import LiveSocket

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]

EXPIRY = 3  # seconds of silence, on a process of the test's own


async def refused(server) -> tuple[str, int]:
    """Open a visitor's site socket that the server refuses: its error code and close code."""
    import json

    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    connection = await connect(
        server.ws_url("/ws/site/?lobby=1"), additional_headers={"Origin": server.url}
    )
    error = json.loads(await asyncio.wait_for(connection.recv(), 10))
    try:
        await asyncio.wait_for(connection.recv(), 10)
    except ConnectionClosed as closed:
        return error["code"], closed.rcvd.code
    raise AssertionError("the socket stayed open")


async def test_a_silent_socket_is_closed_and_one_that_pings_stays(own_daphne):
    server = own_daphne(PRESENCE_EXPIRY_SECONDS=EXPIRY)
    silent = await LiveSocket.open(server, "/ws/site/?lobby=1")
    talking = await LiveSocket.open(server, "/ws/site/?lobby=1")

    async def ping() -> None:
        while True:  # as a page does, more often than the expiry
            await talking.send({"type": "ping"})
            await asyncio.sleep(EXPIRY / 3)

    pinging = asyncio.ensure_future(ping())
    try:
        assert await silent.closed_with(timeout=EXPIRY + 8) == 4408
    finally:
        pinging.cancel()
    await talking.send({"type": "ping"})
    assert (await talking.receive_type("pong"))["type"] == "pong"
    await talking.close()


async def test_caps_count_silent_sockets_until_they_are_closed(own_daphne):
    server = own_daphne(PRESENCE_EXPIRY_SECONDS=EXPIRY, VISITOR_SOCKETS=3)
    held = [await LiveSocket.open(server, "/ws/site/?lobby=1") for _ in range(3)]
    over = await refused(server)
    assert over == ("too_many_sockets", 4429)
    # Silent past the expiry, the three are closed: they no longer hold their places.
    for socket in held:
        assert await socket.closed_with(timeout=EXPIRY + 8) == 4408
    again = await LiveSocket.open(server, "/ws/site/?lobby=1")
    await again.send({"type": "ping"})
    assert (await again.receive_type("pong"))["type"] == "pong"
    await again.close()
