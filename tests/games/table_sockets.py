"""Table sockets for the tests: one opened from an address (a visitor's, or a member's
session by its cookie), one turned away as too many, a member's session cookie, and a
match read afresh."""

import json

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from accounts import events as member_events
from games.models import Match


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


async def opened(match, *, address="203.0.113.7", cookie=None, first=True):
    """A socket at ``match`` from ``address`` (a visitor, or the session of ``cookie``);
    returns the communicator and what it got first (a state, or an error and the close;
    None with ``first=False``: a waiting table's socket is sent nothing at first)."""
    from config.asgi import application

    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    if cookie:
        headers.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    communicator = WebsocketCommunicator(application, f"/ws/table/{match.pk}/", headers=headers)
    communicator.scope["client"] = (address, 50000)  # read when the application first runs
    connected, _ = await communicator.connect()
    assert connected
    if not first:
        return communicator, None
    return communicator, json.loads(await communicator.receive_from(timeout=5))


async def refused(match, **where) -> bool:
    """The socket is turned away as too many: an error, then the close 4429."""
    communicator, first = await opened(match, **where)
    if first["type"] != "error":
        await communicator.disconnect()
        return False
    assert first["code"] == "too_many_sockets"
    assert (await communicator.receive_output(timeout=5))["code"] == (
        member_events.CLOSE_TOO_MANY_SOCKETS
    )
    return True


async def cookie_of(user) -> str:
    client = Client()
    await sync_to_async(client.force_login)(user)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value
