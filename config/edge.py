"""What every request and socket passes first, at the edge of the site.

``TrustedProxies``: the client's address. Daphne runs without ``--proxy-headers`` (which
takes the leftmost ``X-Forwarded-For``, an address the client itself may write); when the
connection comes from a proxy listed in ``TRUSTED_PROXIES``, the client is the rightmost
address of ``X-Forwarded-For`` that is not itself a trusted proxy, and the scheme is the
proxy's ``X-Forwarded-Proto``. ``unix`` in ``TRUSTED_PROXIES`` trusts connections over
Daphne's unix socket (no peer address: only a process of this machine can open it), as
docs/deploy.md's nginx connects. Limits per address (logins, visitors' sockets) count
the client found here.

``SameOrigin``: a websocket opens only from a page of this site: its ``Origin`` must be
this site's scheme, host and port (or one of ``CSRF_TRUSTED_ORIGINS``), and the host one
of ``ALLOWED_HOSTS``.
"""

from __future__ import annotations

import ipaddress
from functools import cache
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

UNIX = "unix"  # TRUSTED_PROXIES's name for a peer over a unix socket


@cache
def _networks(proxies: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies if proxy != UNIX)


def _trusted(address: str | None) -> bool:
    if address is None:
        return UNIX in settings.TRUSTED_PROXIES
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def _address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def client_of(scope: dict) -> tuple[str | None, str | None]:
    """The client's address and the scheme the client used, as a trusted proxy says."""
    peer = (scope.get("client") or (None, None))[0]
    if not _trusted(peer):
        return peer, None
    forwarded = [part.strip() for part in (_header(scope, b"x-forwarded-for") or "").split(",")]
    client = peer
    for address in reversed([part for part in forwarded if part]):
        if not _address(address):
            break  # not an address: the last one believed stands
        client = address
        if not _trusted(address):
            break
    proto = (_header(scope, b"x-forwarded-proto") or "").strip().lower() or None
    return client, proto if proto in ("http", "https") else None


class TrustedProxies:
    """ASGI middleware: ``scope["client"]`` (and the scheme) as ``client_of`` finds them."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            client, proto = client_of(scope)
            port = (scope.get("client") or (None, 0))[1] or 0
            scope = {**scope, "client": (client, port) if client else scope.get("client")}
            if proto is not None:
                secure = proto == "https"
                if scope["type"] == "websocket":
                    scope["scheme"] = "wss" if secure else "ws"
                else:
                    scope["scheme"] = proto
        return await self.app(scope, receive, send)


class SameOrigin:
    """ASGI middleware for websockets: refuse any ``Origin`` but this site's own."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not self.allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)

    @staticmethod
    def allowed(scope: dict) -> bool:
        origin, host = _header(scope, b"origin"), _header(scope, b"host")
        if not origin or not host:
            return False
        domain, _port = split_domain_port(host)
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            return False
        scheme = "https" if scope.get("scheme") == "wss" else "http"
        return origin.lower() in {f"{scheme}://{host}".lower()} | {
            trusted.lower() for trusted in settings.CSRF_TRUSTED_ORIGINS
        }
