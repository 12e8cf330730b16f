"""The client's address and scheme are believed from trusted proxies only
(``TRUSTED_PROXIES``, docs/deploy.md)."""

import pytest
from asgiref.sync import async_to_sync

from config.edge import TrustedProxies, client_of

pytestmark = pytest.mark.django_db


def scope(peer: str, forwarded: str | None = None, proto: str | None = None) -> dict:
    headers = [(b"host", b"filler.example")]
    if forwarded is not None:
        headers.append((b"x-forwarded-for", forwarded.encode()))
    if proto is not None:
        headers.append((b"x-forwarded-proto", proto.encode()))
    return {"type": "http", "scheme": "http", "client": (peer, 50000), "headers": headers}


def test_the_client_is_told_by_trusted_proxies_only(settings):
    settings.TRUSTED_PROXIES = []
    # Nobody is trusted: a forged header changes nothing, whoever connects.
    assert client_of(scope("203.0.113.9", "6.6.6.6", "https")) == ("203.0.113.9", None)
    assert client_of(scope("10.0.0.5", "6.6.6.6", "https")) == ("10.0.0.5", None)

    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    # The rightmost address not itself a trusted proxy: what our proxy appended, not what
    # the client wrote before it.
    assert client_of(scope("10.0.0.5", "6.6.6.6, 203.0.113.9")) == ("203.0.113.9", None)
    assert client_of(scope("10.0.0.5", "203.0.113.9, 10.0.0.7")) == ("203.0.113.9", None)
    assert client_of(scope("10.0.0.5", "203.0.113.9", "https")) == ("203.0.113.9", "https")
    assert client_of(scope("10.0.0.5")) == ("10.0.0.5", None)
    # A peer outside the trusted networks is the client, and its scheme is not believed.
    assert client_of(scope("203.0.113.50", "6.6.6.6", "https")) == ("203.0.113.50", None)

    # The middleware hands Django what client_of found: REMOTE_ADDR and the scheme.
    seen = []

    async def app(scope, receive, send):
        seen.append(scope)

    proxied = scope("10.0.0.5", "6.6.6.6, 203.0.113.9", "https")
    async_to_sync(TrustedProxies(app))(proxied, None, None)
    assert seen[0]["client"] == ("203.0.113.9", 50000) and seen[0]["scheme"] == "https"


def test_a_proxy_on_the_unix_socket_is_trusted_only_when_named(settings):
    """nginx reaches Daphne over a unix socket (docs/deploy.md): no peer address."""
    over_unix = scope("10.0.0.5", "203.0.113.9", "https") | {"client": None}
    settings.TRUSTED_PROXIES = []
    assert client_of(over_unix) == (None, None)
    settings.TRUSTED_PROXIES = ["unix"]
    assert client_of(over_unix) == ("203.0.113.9", "https")
    # What is not an address is not taken for the client (it would reach inet columns).
    garbled = scope("10.0.0.5", "203.0.113.9, unknown") | {"client": None}
    assert client_of(garbled) == (None, None)
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_of(scope("10.0.0.5", "203.0.113.9, unknown")) == ("10.0.0.5", None)
