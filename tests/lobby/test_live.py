"""The lobby is live on every web process: a table opened through one Daphne process
appears in a lobby socket held on another; a challenge reaches the challenged member's
socket at once."""

import pytest
from asgiref.sync import sync_to_async

from tests.conftest import needs_services
from tests.servers import LiveSocket, post_form, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


async def test_a_table_opened_on_one_process_appears_live_on_the_other(daphnes, make_member):
    alice = await sync_to_async(make_member)("alice")
    bob = await sync_to_async(make_member)("bob")
    watcher = await LiveSocket.open(daphnes[1], "/ws/site/?lobby=1")  # a visitor on the lobby
    bobs = await LiveSocket.open(daphnes[1], "/ws/site/", await sync_to_async(session_cookie)(bob))
    cookie = await sync_to_async(session_cookie)(alice)
    status = await sync_to_async(post_form)(
        daphnes[0], cookie, "/tables/", {"variant": "fast", "clock": "3+2", "format": "match"}
    )
    assert status == 200
    assert (await watcher.receive_type("lobby"))["type"] == "lobby"
    # A challenge through one process reaches the challenged member's page on the other.
    await sync_to_async(post_form)(
        daphnes[0], cookie, "/@/bob/challenge/", {"variant": "fast", "clock": "", "format": "match"}
    )
    notice = await bobs.receive_type("notify")
    assert notice["kind"] == "challenge" and notice["from"] == "alice"
    for socket in (watcher, bobs):
        await socket.close()
