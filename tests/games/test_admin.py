import pytest

from games import services
from games.models import ChatMessage
from tests.games.conftest import T0

pytestmark = pytest.mark.django_db


def test_moderator_deletes_a_chat_message(client, moderator, fast_table, alice):
    message = services.chat_post(match_id=fast_table.pk, user=alice, text="rude words", now=T0)
    client.force_login(moderator)
    listing = client.get("/admin/games/chatmessage/?q=rude")
    assert listing.status_code == 200
    assert "rude words" in listing.content.decode()
    response = client.post(f"/admin/games/chatmessage/{message.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not ChatMessage.objects.filter(pk=message.pk).exists()


def test_moderator_reads_matches_but_cannot_change_them(client, moderator, fast_table):
    client.force_login(moderator)
    assert client.get("/admin/games/match/").status_code == 200
    assert client.get(f"/admin/games/match/{fast_table.pk}/change/").status_code == 200
    assert (
        client.post(f"/admin/games/match/{fast_table.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert client.get("/admin/games/move/").status_code in (403, 404)


def test_member_cannot_reach_chat_admin(client, alice):
    client.force_login(alice)
    response = client.get("/admin/games/chatmessage/")
    assert response.status_code == 302


def test_match_list_query_count_does_not_grow_with_matches(
    client, moderator, new_table, make_member, django_assert_max_num_queries
):
    members = [make_member(f"m{i}") for i in range(6)]
    for i in range(0, 6, 2):
        new_table("fast", members[i : i + 2])
    client.force_login(moderator)
    with django_assert_max_num_queries(12):
        assert client.get("/admin/games/match/").status_code == 200


def test_a_moderator_aborts_a_stuck_match_with_a_reason(client, moderator, fast_table):
    from django.contrib.admin.models import LogEntry
    from django.contrib.auth.models import Permission

    moderator.user_permissions.add(Permission.objects.get(codename="abort_match"))
    client.force_login(moderator)
    data = {"action": "abort_matches", "_selected_action": [fast_table.pk]}
    form = client.post("/admin/games/match/", data)
    assert "Reason" in form.content.decode()
    client.post("/admin/games/match/", {**data, "apply": "1", "reason": ""})
    fast_table.refresh_from_db()
    assert fast_table.status == "playing"  # no reason, nothing happens
    client.post("/admin/games/match/", {**data, "apply": "1", "reason": "both players left"})
    fast_table.refresh_from_db()
    assert fast_table.status == "aborted" and fast_table.result_reason == "aborted"
    entry = LogEntry.objects.get(object_id=str(fast_table.pk))
    assert "both players left" in entry.get_change_message()


def test_the_moderators_group_may_abort():
    from django.contrib.auth.models import Group

    from accounts.moderation import MODERATORS_GROUP

    group = Group.objects.get(name=MODERATORS_GROUP)  # made by the migrations
    assert group.permissions.filter(codename="abort_match").exists()
