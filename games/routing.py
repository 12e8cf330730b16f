"""Websocket routes of the games app."""

from django.urls import path

import config.converters  # noqa: F401 (the "id" converter)
from games.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<id:match_id>/", TableConsumer.as_asgi()),
    path("ws/t/<str:token>/", TableConsumer.as_asgi()),
]
