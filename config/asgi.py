"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.edge import SameOrigin, TrustedProxies  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": TrustedProxies(django_asgi_app),
        # The client as a trusted proxy says; this site's pages only; the session and its
        # member (scope["user"]), as Channels ships them.
        "websocket": TrustedProxies(
            SameOrigin(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)
