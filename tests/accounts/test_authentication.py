import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def _link(message) -> str:
    return re.search(r"https?://testserver(/\S+)", message.body).group(1)


def test_signup_verify_email_then_log_in(client, password):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "zoe",
            "email": "zoe@example.com",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="zoe")
    assert not EmailAddress.objects.get(user=user).verified
    # Mandatory verification: not logged in yet.
    assert client.get(reverse("account_preferences")).status_code == 302

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["zoe@example.com"]
    confirm_url = _link(mail.outbox[0])
    assert client.get(confirm_url).status_code == 200
    client.post(confirm_url)
    assert EmailAddress.objects.get(user=user).verified

    client.logout()
    response = client.post(reverse("account_login"), {"login": "zoe", "password": password})
    assert response.status_code == 302
    assert client.get(reverse("account_preferences")).status_code == 200


def test_unverified_member_cannot_log_in(client, password):
    User.objects.create_user(username="yan", email="yan@example.com", password=password)
    EmailAddress.objects.create(user=User.objects.get(username="yan"), email="yan@example.com")
    client.post(reverse("account_login"), {"login": "yan", "password": password})
    assert client.get(reverse("account_preferences")).status_code == 302


def test_log_in_by_email(client, make_member, password):
    make_member("alice")
    response = client.post(
        reverse("account_login"), {"login": "alice@example.com", "password": password}
    )
    assert response.status_code == 302
    assert client.get(reverse("account_preferences")).status_code == 200


def test_wrong_password_is_refused(client, make_member):
    make_member("alice")
    response = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_password_reset(client, make_member):
    make_member("alice")
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert len(mail.outbox) == 1
    reset_url = _link(mail.outbox[0])
    response = client.get(reset_url, follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else reset_url
    new = "another-horse-77"
    response = client.post(form_url, {"password1": new, "password2": new})
    assert response.status_code == 302
    client.logout()
    client.post(reverse("account_login"), {"login": "alice", "password": new})
    assert client.get(reverse("account_preferences")).status_code == 200


def test_signup_with_nonsense_shows_errors_and_creates_nobody(client):
    response = client.post(
        reverse("account_signup"),
        {"username": "x", "email": "not-an-email", "password1": "a", "password2": "b"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not User.objects.filter(username="x").exists()
