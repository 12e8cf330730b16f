"""Websocket routes of the games app."""

from django.urls import path

from games.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<int:match_id>/", TableConsumer.as_asgi()),
    path("ws/t/<str:token>/", TableConsumer.as_asgi()),
]
