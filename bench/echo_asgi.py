"""The site's ASGI application plus two bare echo consumers, for bench/ws_load.py only.

The echo is the ceiling the tables are compared with: the same Daphne, origin check,
session and auth middleware and channel layer, and a text the size of a Fast state sent
through ``group_send`` and on to both sockets of its room, as a move's state is, with no
database and no game. ``EchoConsumer`` is Channels' consumer as it comes, as the site's
sockets are: its dispatch hops to a thread for every message (to close stale database
connections). ``LeanEchoConsumer`` skips that hop: a reference for what the hop costs,
not a stack the site runs.
"""

from channels.auth import AuthMiddlewareStack
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

from config.asgi import application as site  # sets up Django first
from config.edge import SameOrigin, TrustedProxies
from config.routing import websocket_urlpatterns

STATE_SIZED = '{"type":"echo","pad":"' + "x" * 2000 + '"}'


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.room = f"echo-{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.room, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.room, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        # The state-sized text travels through the channel layer, as a move's state does.
        await self.channel_layer.group_send(
            self.room, {"type": "echo.message", "text": STATE_SIZED}
        )

    async def echo_message(self, event) -> None:
        await self.send(text_data=event["text"])


class LeanEchoConsumer(EchoConsumer):
    async def dispatch(self, message) -> None:
        await getattr(self, message["type"].replace(".", "_"))(message)


application = ProtocolTypeRouter(
    {
        "http": site.application_mapping["http"],
        "websocket": TrustedProxies(
            SameOrigin(
                AuthMiddlewareStack(
                    URLRouter(
                        [
                            *websocket_urlpatterns,
                            path("ws/echo/<int:room>/", EchoConsumer.as_asgi()),
                            path("ws/echo-lean/<int:room>/", LeanEchoConsumer.as_asgi()),
                        ]
                    )
                )
            )
        ),
    }
)
