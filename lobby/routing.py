"""Websocket routes of the lobby."""

from django.urls import path

import config.converters  # noqa: F401 (the "id" converter)
from lobby.consumers import ArenaConsumer, SiteConsumer

websocket_urlpatterns = [
    path("ws/site/", SiteConsumer.as_asgi()),
    path("ws/arena/<id:arena_id>/", ArenaConsumer.as_asgi()),
]
