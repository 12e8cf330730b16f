"""Site-wide response headers and what error pages may show."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.views.debug import SafeExceptionReporterFilter

# No inline script anywhere: every script is a file under /static/. Inline styles stay
# allowed (the board's palette and the table's swatches are written into the page).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "media-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
        "interest-cohort",
    )
)


class SecurityHeadersMiddleware:
    """Content-Security-Policy and Permissions-Policy on every response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class SecretsHidingFilter(SafeExceptionReporterFilter):
    """Django's filter, also hiding what is built from ``DATABASE_URL`` and ``REDIS_URL``
    (the channel layer's hosts, the cache's location, the broker URL)."""

    hidden_settings = re.compile(
        "API|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|URL|LOCATION|HOSTS|BROKER|DATABASES",
        flags=re.IGNORECASE,
    )
