"""Websocket URL patterns of every app."""

from games.routing import websocket_urlpatterns as games_patterns
from lobby.routing import websocket_urlpatterns as lobby_patterns

websocket_urlpatterns = [*games_patterns, *lobby_patterns]
