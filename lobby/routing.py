"""Websocket routes of the lobby."""

from django.urls import path

from lobby.consumers import SiteConsumer

websocket_urlpatterns = [path("ws/site/", SiteConsumer.as_asgi())]
