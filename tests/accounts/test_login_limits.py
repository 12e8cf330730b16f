"""Failed logins are limited by allauth's own rate limit (``ACCOUNT_RATE_LIMITS``,
``accounts.limits.LOGIN_FAILED_RATE``): per address, and per name from any address with
a higher ceiling, so a stranger trying a member's name cannot lock that member out."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.limits import LOGIN_FAILED_RATE

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _login_limits(settings):
    """The site's login limits, as config/settings.py is to name them (issue 41: the
    settings' owner moves ``ACCOUNT_RATE_LIMITS["login_failed"]`` to this value)."""
    settings.ACCOUNT_RATE_LIMITS = {
        **settings.ACCOUNT_RATE_LIMITS,
        "login_failed": LOGIN_FAILED_RATE,
    }


def log_in(address: str, login: str, password: str) -> tuple[Client, object]:
    client = Client(REMOTE_ADDR=address)
    return client, client.post(reverse("account_login"), {"login": login, "password": password})


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_failures_from_one_address_do_not_lock_the_member_out_elsewhere(make_member, password):
    make_member("alice")
    for _ in range(5):  # the address's 5 failures in 5 minutes
        client, _response = log_in("198.51.100.1", "alice", "wrong")
        assert not logged_in(client)
    client, response = log_in("198.51.100.1", "alice", password)
    assert not logged_in(client)
    assert "Too many failed login attempts" in response.content.decode()
    # The member, from another address, with the right password.
    client, response = log_in("203.0.113.9", "alice", password)
    assert response.status_code == 302
    assert logged_in(client)


def test_failures_for_one_name_from_many_addresses_meet_a_higher_ceiling(make_member, password):
    make_member("alice")
    make_member("bob")
    for host in range(10):  # 5 each: no single address reaches a limit of its own
        for _ in range(5):
            log_in(f"198.51.100.{host + 1}", "ALICE", "wrong")  # the name in any case
    client, response = log_in("203.0.113.9", "alice", password)
    assert not logged_in(client)
    assert "Too many failed login attempts" in response.content.decode()
    client, _response = log_in("203.0.113.9", "bob", password)  # other names are not
    assert logged_in(client)
