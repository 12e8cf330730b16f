"""Websocket URL patterns of every app."""

from games.routing import websocket_urlpatterns as games_patterns

websocket_urlpatterns = [*games_patterns]
