"""The account mails and the confirmation link (issue 32.9): mails speak of the site by its
name and link to the host the member used; confirming the address in the browser that
signed up logs the member in, and only there."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

HOST = "filler.example.org"


@pytest.fixture
def host(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]
    return HOST


def sign_up(client, password, language: str = "", **extra):
    form = {"username": "zoe", "email": "zoe@example.com"}
    form.update(password1=password, password2=password)
    return client.post(f"{language}{reverse('account_signup')}", form, **extra)


def link_in(message) -> str:
    return re.search(r"(https?://\S+/accounts/confirm-email/\S+)", message.body).group(1)


def path_of(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


# --- 4. The site's name, the member's host ------------------------------------------------


def test_the_confirmation_mail_speaks_of_the_sites_name(client, password, host):
    sign_up(client, password, HTTP_HOST=host)
    (message,) = mail.outbox
    assert message.subject == "[VOG Filler] Please Confirm Your Email Address"
    first, *_rest = message.body.splitlines()
    assert first == "Hello from VOG Filler!"
    assert "Thank you for using VOG Filler!" in message.body
    assert link_in(message).startswith(f"http://{host}/accounts/confirm-email/")
    # The host is where the links lead, never the site's name.
    assert f"from {host}" not in message.body and f"using {host}" not in message.body


def test_the_name_is_a_setting(client, settings, password, host):
    settings.SITE_NAME = "Filler Club"
    sign_up(client, password, HTTP_HOST=host)
    assert mail.outbox[0].body.startswith("Hello from Filler Club!")


def test_a_greek_confirmation_mail_speaks_of_the_sites_name(client, password, host):
    sign_up(client, password, language="/el", HTTP_HOST=host)
    (message,) = mail.outbox
    first = message.body.splitlines()[0]
    assert "VOG Filler" in first and "Hello" not in first and host not in first
    assert "VOG Filler" in message.subject and host not in message.subject
    assert link_in(message).startswith(f"http://{host}/el/accounts/confirm-email/")


def test_the_password_reset_mail_speaks_of_the_sites_name(client, make_member, host):
    make_member("alice")
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"}, HTTP_HOST=host)
    (message,) = mail.outbox
    assert message.subject.startswith("[VOG Filler] ")
    assert message.body.startswith("Hello from VOG Filler!")
    assert f"http://{host}/accounts/password/reset/key/" in message.body


# --- 5. Confirming in the browser that signed up logs in ----------------------------------


def test_confirming_in_the_browser_that_signed_up_logs_in_and_goes_to_the_lobby(client, password):
    sign_up(client, password)
    assert "_auth_user_id" not in client.session
    confirm = path_of(link_in(mail.outbox[0]))
    assert client.get(confirm).status_code == 200
    response = client.post(confirm)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert client.session["_auth_user_id"] == str(User.objects.get(username="zoe").pk)
    assert EmailAddress.objects.get(email="zoe@example.com").verified
    assert client.get(reverse("account_preferences")).status_code == 200


def test_confirming_in_greek_goes_to_the_greek_lobby(client, password):
    sign_up(client, password, language="/el")
    confirm = path_of(link_in(mail.outbox[0]))
    assert confirm.startswith("/el/")
    response = client.post(confirm)
    assert response["Location"] == "/el/"
    assert "_auth_user_id" in client.session


def test_the_link_alone_logs_nobody_in(client, password):
    """Opened in another browser, the link confirms the address and asks to log in: the
    pending log-in lives in the session of the browser that signed up."""
    from django.test import Client

    sign_up(client, password)
    elsewhere = Client()
    response = elsewhere.post(path_of(link_in(mail.outbox[0])))
    assert EmailAddress.objects.get(email="zoe@example.com").verified
    assert "_auth_user_id" not in elsewhere.session
    assert response["Location"] == reverse("account_login")
