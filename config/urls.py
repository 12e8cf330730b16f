from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from accounts.views import admin_login

admin.site.site_header = "VOG Filler"
admin.site.site_title = "VOG Filler"
admin.site.index_title = _("Moderation")
# The admin has no login of its own: the site's (allauth's, rate-limited) serves it.
admin.site.login = admin_login


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says: the site's icon."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    path("i18n/", include("accounts.i18n_urls")),
]

urlpatterns += i18n_patterns(
    # In the moderator's language too (/bg/admin/…): an unprefixed path is English.
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
    path("", include("ratings.urls")),
    prefix_default_language=False,
)

# The error pages, in the person's language (config/errors.py).
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
