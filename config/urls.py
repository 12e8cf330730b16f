from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from accounts.views import admin_login

admin.site.site_header = "VOG Filler"
admin.site.site_title = "VOG Filler"
admin.site.index_title = "Moderation"
# The admin has no login of its own: the site's (allauth's, rate-limited) serves it.
admin.site.login = admin_login

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("accounts.i18n_urls")),
]

urlpatterns += i18n_patterns(
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
    path("", include("ratings.urls")),
    prefix_default_language=False,
)
