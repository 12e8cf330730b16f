"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os
from pathlib import Path

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


def settle() -> None:
    """Load now what a process's first requests would load lazily (every view through the
    URL patterns, every template, every language's translations), then take all of it out
    of the garbage collector's sight (``gc.freeze``). A full collection then walks only
    what the process made since: walking the loaded site took 50-150 ms on these 2-core
    machines, a pause paid by whichever move met it (docs/performance.md, "Floods").
    ``GC_FREEZE=0`` leaves the collector as Python has it."""
    from django.conf import settings
    from django.template import engines
    from django.urls import get_resolver
    from django.utils import translation

    len(get_resolver().url_patterns)  # imports every view
    engine = engines["django"]
    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in Path(folder).rglob("*.html"):
            engine.get_template(str(path.relative_to(folder)))
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Lobby")
    gc.collect()
    gc.freeze()


if os.environ.get("GC_FREEZE", "1") != "0":
    settle()
