"""A muted member's open tables hear it at once (``chat_standing``), and unmuting too."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from accounts import services as members
from games import timing

pytestmark = pytest.mark.django_db(transaction=True)


async def test_muting_and_unmuting_reach_the_members_table_at_once(connect, fast_table, bob):
    socket = await connect(fast_table, bob)
    until = timing.now() + timedelta(hours=2)
    await sync_to_async(members.member_mute)(member=bob, until=until)
    notice = await socket.receive_type("notify")
    assert notice == {
        "type": "notify",
        "kind": "chat_standing",
        "muted": True,
        "until": until.isoformat(),
    }
    await socket.send({"type": "chat", "text": "hello"})
    error = await socket.receive_type("error")
    assert error["code"] == "not_allowed"
    await sync_to_async(members.member_unmute)(member=bob)
    notice = await socket.receive_type("notify")
    assert notice["muted"] is False and notice["until"] is None
