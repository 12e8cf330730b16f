import json

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games import services
from games.engine import Position
from tests.timeshift import T0  # the time every test starts at


@pytest.fixture
def alice(make_member):
    return make_member("alice")


@pytest.fixture
def bob(make_member):
    return make_member("bob")


@pytest.fixture
def carol(make_member):
    return make_member("carol")


@pytest.fixture
def new_table(db):
    def create(variant, members, **options):
        options.setdefault("seed", 7)
        return services.match_create(variant=variant, members=members, now=T0, **options)

    return create


@pytest.fixture
def fast_table(new_table, alice, bob):
    return new_table("fast", [alice, bob])


@pytest.fixture
def finished(new_table, alice, bob):
    """An unrated Fast match between alice and bob, played to its end."""
    import random

    from tests.moves import play_out

    match = new_table("fast", [alice, bob])
    play_out(match, [alice, bob], rng=random.Random(1), now=T0)
    return match


@pytest.fixture
def under_way(fast_table, alice, bob):
    """The fast table after a move each: a resignation there is one, not an abort (SPEC §3)."""
    from tests.moves import play_opening

    play_opening(fast_table, [alice, bob], now=T0)
    return fast_table


def position_of(match) -> Position:
    from games.engine.match import MatchState

    match.refresh_from_db()
    return MatchState.from_dict(match.state).current.position


def legal_colour(position: Position) -> int:
    return next(c for c, reason in position.legal_colors().items() if reason is None)


def forbidden_colour(position: Position, reason: str) -> int:
    return next(c for c, why in position.legal_colors().items() if why == reason)


class Socket:
    """A test websocket at a table, speaking JSON."""

    def __init__(self, communicator: WebsocketCommunicator):
        self.communicator = communicator
        self.state: dict | None = None

    async def send(self, message) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        await self.communicator.send_to(text_data=text)

    async def receive(self, timeout: float = 5) -> dict:
        message = json.loads(await self.communicator.receive_from(timeout=timeout))
        if message["type"] == "state":
            self.state = message
        return message

    async def receive_type(self, kind: str, timeout: float = 5) -> dict:
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message

    async def state_where(self, predicate, timeout: float = 5) -> dict:
        while True:
            message = await self.receive_type("state", timeout)
            if predicate(message):
                return message

    async def nothing(self) -> bool:
        return await self.communicator.receive_nothing(timeout=0.3)

    async def close(self) -> None:
        await self.communicator.disconnect()


@pytest_asyncio.fixture
async def connect():
    from config.asgi import application

    sockets = []

    async def open_socket(match, user=None, *, origin=b"http://testserver", lang="") -> Socket:
        headers = [(b"host", b"testserver"), *([(b"origin", origin)] if origin else [])]
        if user is not None:
            client = Client()
            await sync_to_async(client.force_login)(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
        path = f"/ws/table/{match.pk}/" + (f"?lang={lang}" if lang else "")
        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await communicator.connect()
        assert connected
        socket = Socket(communicator)
        sockets.append(socket)
        await socket.receive_type("state")
        return socket

    yield open_socket
    for socket in sockets:
        await socket.close()


@pytest.fixture
def dave(make_member):
    return make_member("dave")
