from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import User

pytestmark = pytest.mark.django_db


def test_banned_member_is_refused_with_the_reason(client, make_member, password, moderator):
    alice = make_member("alice")
    services.member_ban(member=alice, by=moderator, reason="Abusive chat on table 12")
    response = client.post(reverse("account_login"), {"login": "alice", "password": password})
    assert response.status_code == 403
    assert "Abusive chat on table 12" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_banned_member_already_logged_in_is_logged_out(client, make_member, moderator):
    alice = make_member("alice")
    client.force_login(alice)
    services.member_ban(member=alice, by=moderator, reason="Cheating")
    response = client.get(reverse("home"))
    assert response.status_code == 403
    assert "Cheating" in response.content.decode()
    assert client.get(reverse("account_preferences")).status_code == 302


def test_ban_with_an_end_date_ends(make_member, moderator):
    alice = make_member("alice")
    until = timezone.now() + timedelta(days=3)
    services.member_ban(member=alice, by=moderator, reason="Cool down", until=until)
    assert alice.is_banned()
    assert not alice.is_banned(now=until + timedelta(seconds=1))


def test_ban_needs_a_reason_and_a_future_end(make_member, moderator):
    alice = make_member("alice")
    with pytest.raises(ValueError):
        services.member_ban(member=alice, by=moderator, reason="  ")
    with pytest.raises(ValueError):
        services.member_ban(
            member=alice, by=moderator, reason="x", until=timezone.now() - timedelta(days=1)
        )
    alice.refresh_from_db()
    assert not alice.is_banned()


def test_unban_lets_the_member_in_again(client, make_member, password, moderator):
    alice = make_member("alice")
    services.member_ban(member=alice, by=moderator, reason="Cheating")
    services.member_unban(member=alice)
    client.post(reverse("account_login"), {"login": "alice", "password": password})
    assert client.get(reverse("account_preferences")).status_code == 200


def test_moderator_bans_through_admin_action(client, make_member, moderator):
    alice = make_member("alice")
    client.force_login(moderator)
    url = reverse("admin:accounts_user_changelist")
    # First step shows the form, second applies it.
    response = client.post(url, {"action": "ban_members", "_selected_action": [alice.pk]})
    assert response.status_code == 200
    assert b"reason" in response.content
    response = client.post(
        url,
        {
            "action": "ban_members",
            "_selected_action": [alice.pk],
            "apply": "1",
            "reason": "Spam in chat",
            "until": "",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.is_banned() and alice.ban_reason == "Spam in chat"
    assert alice.banned_by == moderator


def test_admin_ban_form_with_nonsense_changes_nothing(client, make_member, moderator):
    alice = make_member("alice")
    client.force_login(moderator)
    response = client.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "ban_members",
            "_selected_action": [alice.pk],
            "apply": "1",
            "reason": "",
            "until": "next tuesday-ish",
        },
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert not alice.is_banned()


def test_moderator_mutes_chat_with_a_reason(client, make_member, moderator):
    alice = make_member("alice")
    client.force_login(moderator)
    mute = {"action": "mute_members", "_selected_action": [alice.pk], "apply": "1", "until": ""}
    client.post(reverse("admin:accounts_user_changelist"), mute)
    alice.refresh_from_db()
    assert not alice.is_chat_muted()  # every sanction says why (the audit log keeps it)
    client.post(reverse("admin:accounts_user_changelist"), {**mute, "reason": "Insults"})
    alice.refresh_from_db()
    assert alice.is_chat_muted()


class TestAdminVisibility:
    def test_anonymous_is_sent_to_the_admin_login(self, client):
        response = client.get("/admin/")
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")
        assert client.get("/admin/accounts/user/").status_code == 302

    def test_member_is_not_let_in(self, client, make_member):
        client.force_login(make_member("alice"))
        response = client.get("/admin/")
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")

    def test_moderator_sees_members_and_sanctions_only(self, client, make_member, moderator):
        alice = make_member("alice")
        client.force_login(moderator)
        index = client.get("/admin/").content.decode()
        assert "/admin/accounts/user/" in index
        assert "/admin/auth/group/" not in index
        changelist = client.get("/admin/accounts/user/")
        assert changelist.status_code == 200
        actions = dict(changelist.context["action_form"].fields["action"].choices)
        assert {"ban_members", "unban_members", "mute_members", "unmute_members"} <= set(actions)
        assert "delete_selected" not in actions
        assert client.get("/admin/auth/group/").status_code == 403
        # View-only: the change form is shown but saving is refused.
        assert client.get(f"/admin/accounts/user/{alice.pk}/change/").status_code == 200
        response = client.post(f"/admin/accounts/user/{alice.pk}/change/", {"username": "hacked"})
        assert response.status_code == 403
        alice.refresh_from_db()
        assert alice.username == "alice"
        assert client.get(f"/admin/accounts/user/{alice.pk}/delete/").status_code == 403
        assert client.get("/admin/accounts/user/add/").status_code == 403

    def test_superuser_sees_everything(self, client, make_member):
        root = make_member("root", is_staff=True, is_superuser=True)
        client.force_login(root)
        index = client.get("/admin/").content.decode()
        assert "/admin/accounts/user/" in index
        assert "/admin/auth/group/" in index
        assert client.get("/admin/auth/group/").status_code == 200
        assert client.get("/admin/accounts/user/add/").status_code == 200


def test_moderators_group_has_exactly_the_moderation_permissions():
    from django.contrib.auth.models import Group

    codenames = set(
        Group.objects.get(name="Moderators").permissions.values_list("codename", flat=True)
    )
    assert {"view_user", "ban_member", "mute_member"} <= codenames
    assert not codenames & {"change_user", "delete_user", "add_user", "change_group"}


def test_superusers_cannot_be_banned_from_admin(client, make_member, moderator):
    root = make_member("root", is_staff=True, is_superuser=True)
    client.force_login(moderator)
    client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "ban_members", "_selected_action": [root.pk], "apply": "1", "reason": "x"},
    )
    assert not User.objects.get(pk=root.pk).is_banned()


def test_the_admin_speaks_the_moderators_language(client, make_member, moderator):
    """A moderator who chose Bulgarian works the report queue in Bulgarian: /admin/ is
    English, /bg/admin/ Bulgarian, and the preference sends them there (before, the admin
    stood outside the language prefixes and was English whatever they chose)."""
    from games import services as table_services
    from lobby.services import member_report
    from tests.moves import play_opening
    from tests.timeshift import T0

    ann, ben = make_member("ann"), make_member("ben")
    match = table_services.match_create(variant="fast", members=[ann, ben], now=T0, seed=7)
    play_opening(match, [ann, ben], now=T0)
    table_services.match_resign(match_id=match.pk, user=ann, now=T0)
    report = member_report(reporter=ann, username="ben", reason="cheating", now=T0)

    client.force_login(moderator)
    english = client.get("/admin/").content.decode()
    assert "Moderation" in english and "Модерация" not in english
    page = client.get(f"/bg/admin/accounts/report/{report.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'lang="bg"' in html and "Затваряне на този сигнал" in html  # "Close this report"
    moderator.language = "bg"
    moderator.save(update_fields=["language"])
    response = client.get(f"/admin/accounts/report/{report.pk}/change/")
    assert response.status_code == 302
    assert response["Location"] == f"/bg/admin/accounts/report/{report.pk}/change/"
