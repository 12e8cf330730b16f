"""A blocker's table hides the blocked member's chat, in the history and live, from the
moment of the block (SPEC §14); everyone else sees it."""

import pytest
from asgiref.sync import sync_to_async

from accounts import services as people
from games import services, timing

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_blocked_members_chat_is_hidden_from_the_blocker_only(
    connect, fast_table, alice, bob, carol
):
    post = sync_to_async(services.chat_post)
    await post(match_id=fast_table.pk, user=alice, text="before", now=timing.now())
    await sync_to_async(people.block)(member=bob, username="alice")
    blocker = await connect(fast_table, bob)
    watcher = await connect(fast_table, carol)
    assert (await watcher.receive_type("chat"))["text"] == "before"
    await post(match_id=fast_table.pk, user=alice, text="hidden", now=timing.now())
    await post(match_id=fast_table.pk, user=carol, text="seen", now=timing.now())
    assert (await watcher.receive_type("chat"))["text"] == "hidden"
    assert (await blocker.receive_type("chat"))["text"] == "seen"  # no "before", no "hidden"
    await sync_to_async(people.unblock)(member=bob, username="alice")
    await post(match_id=fast_table.pk, user=alice, text="again", now=timing.now())
    assert (await blocker.receive_type("chat"))["text"] == "again"


async def test_a_block_at_the_table_hides_from_then_on(connect, fast_table, alice, bob):
    blocker = await connect(fast_table, bob)
    await sync_to_async(people.block)(member=bob, username="alice")
    # The page hides the lines of alice it already shows.
    assert (await blocker.receive_type("chat_hide"))["usernames"] == ["alice"]
    post = sync_to_async(services.chat_post)
    await post(match_id=fast_table.pk, user=alice, text="hidden", now=timing.now())
    await post(match_id=fast_table.pk, user=bob, text="mine", now=timing.now())
    assert (await blocker.receive_type("chat"))["text"] == "mine"
