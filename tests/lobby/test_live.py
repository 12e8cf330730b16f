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


async def test_a_table_started_while_no_page_listened_is_shown_by_the_next_page(
    daphnes, make_member
):
    """The challenged member accepts before the challenger's page has its socket (a bot
    does it at once): the next socket of the challenger's sends them to the table, until a
    page of that table was shown to them; a match started another way does not."""
    import urllib.request

    from django.utils import timezone

    from games import services
    from lobby import services as lobby

    alice = await sync_to_async(make_member)("alice")
    bob = await sync_to_async(make_member)("bob")
    now = timezone.now()
    challenge = await sync_to_async(lobby.challenge_send)(
        challenger=alice,
        challenged=bob,
        variant="fast",
        clock="3+2",
        single_game=False,
        rated=False,
        now=now,
    )
    match = await sync_to_async(lobby.challenge_accept)(
        challenge_id=challenge.pk, member=bob, now=now
    )
    cookie = await sync_to_async(session_cookie)(alice)
    alices = await LiveSocket.open(daphnes[0], "/ws/site/", cookie)
    notices = [m for m in alices.received if m["type"] == "notify"]
    assert notices == [{"type": "notify", "kind": "started", "url": f"/match/{match.pk}/"}]
    await alices.close()

    # Bob accepted on a page of his (its answer took him there): only the challenger is
    # sent. Once alice has loaded the table, her pages no longer send her.
    bobs = await LiveSocket.open(daphnes[1], "/ws/site/", await sync_to_async(session_cookie)(bob))
    assert [m["type"] for m in bobs.received] == ["pong"]
    await bobs.close()
    request = urllib.request.Request(
        daphnes[1].url + f"/match/{match.pk}/", headers={"Cookie": cookie}
    )
    assert (await sync_to_async(urllib.request.urlopen)(request)).status == 200
    again = await LiveSocket.open(daphnes[1], "/ws/site/", cookie)
    assert [m["type"] for m in again.received] == ["pong"]
    await again.close()

    # A match made for carol and dan (an arena's pairing, say), never shown: no sending.
    carol = await sync_to_async(make_member)("carol")
    dan = await sync_to_async(make_member)("dan")
    await sync_to_async(services.match_create)(variant="fast", members=[carol, dan], now=now)
    carols = await LiveSocket.open(
        daphnes[0], "/ws/site/", await sync_to_async(session_cookie)(carol)
    )
    assert [m["type"] for m in carols.received] == ["pong"]
    await carols.close()
