import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_member_deletes_own_account(client, make_member, password):
    alice = make_member("alice")
    make_member("bob")
    client.force_login(alice)
    response = client.post(reverse("account_delete"), {"password": password, "confirm": "on"})
    assert response.status_code == 302
    assert not User.objects.filter(username="alice").exists()
    assert not EmailAddress.objects.filter(email="alice@example.com").exists()
    assert User.objects.filter(username="bob").exists()
    assert "_auth_user_id" not in client.session


def test_account_deletion_needs_the_password(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    response = client.post(reverse("account_delete"), {"password": "wrong", "confirm": "on"})
    assert response.status_code == 200
    assert "password" in response.context["form"].errors
    assert User.objects.filter(username="alice").exists()


def test_profile_page(client, make_member):
    make_member("alice")
    response = client.get("/@/alice/")
    assert response.status_code == 200
    assert b"alice" in response.content
    assert client.get("/@/nobody-here/").status_code == 404


def test_preferences_are_saved(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    response = client.post(
        reverse("account_preferences"),
        {"language": "", "theme": "device", "color_symbols": "on", "sound": "on"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.color_symbols and alice.sound


def test_preferences_reject_unknown_language(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    response = client.post(reverse("account_preferences"), {"language": "xx"})
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.language == ""


def test_a_page_setting_saves_one_preference(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    response = client.post(reverse("preference_set"), {"name": "color_symbols", "value": "on"})
    assert response.status_code == 204
    alice.refresh_from_db()
    assert alice.color_symbols and not alice.sound


@pytest.mark.parametrize(
    "data", [{"name": "is_superuser", "value": "on"}, {"name": "sound", "value": "maybe"}, {}]
)
def test_a_page_setting_refuses_nonsense(client, make_member, data):
    alice = make_member("alice")
    client.force_login(alice)
    assert client.post(reverse("preference_set"), data).status_code == 400
    alice.refresh_from_db()
    assert not alice.is_superuser and not alice.sound
