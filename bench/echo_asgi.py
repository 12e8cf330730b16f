"""The site's ASGI application plus a bare echo consumer, for bench/ws_load.py only.

The echo is the ceiling the tables are compared with: the same Daphne, origin check,
session middleware and channel layer, and a message the size of a Fast state delivered to
both sockets of its room through ``group_send``, as a move's state is, with no database
and no game.
"""

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import SessionMiddlewareStack
from django.urls import path

from config.asgi import application as site  # sets up Django first
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
        await self.channel_layer.group_send(self.room, {"type": "echo.message"})

    async def echo_message(self, event) -> None:
        await self.send(text_data=STATE_SIZED)


application = ProtocolTypeRouter(
    {
        "http": site.application_mapping["http"],
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(
                URLRouter(
                    [*websocket_urlpatterns, path("ws/echo/<int:room>/", EchoConsumer.as_asgi())]
                )
            )
        ),
    }
)
