from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.urls import translate_url
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from accounts.models import User
from accounts.names import looks, mixed_scripts
from accounts.views import banned_response

# allauth labels its e-mail fields "Email" (sign-up, password reset, e-mail change). Django
# reads contrib.auth's catalogue before allauth's (INSTALLED_APPS order), and auth's Greek
# leaves "Email" in English; the site's catalogue comes before both (LOCALE_PATHS), so the
# label is marked here for the site's translators.
ALLAUTH_TEXTS = (gettext_noop("Email"),)


@dataclass(frozen=True)
class MailSite:
    """What allauth's mails call ``current_site``: the site's name and the host."""

    name: str
    domain: str


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """A name is refused when it is written in compatibility forms (full width, say),
        mixes scripts, or looks like a reserved name or a member's (``accounts.names``)."""
        username = super().clean_username(username, shallow=shallow)
        if unicodedata.normalize("NFKC", username) != username:
            raise ValidationError(_("Write the name with ordinary letters and digits."))
        if mixed_scripts(username):
            raise ValidationError(
                _("A name may not mix alphabets (Latin and Cyrillic letters, say).")
            )
        folds = looks(username)
        if folds & {fold for name in settings.ACCOUNT_USERNAME_BLACKLIST for fold in looks(name)}:
            raise ValidationError(_("This name is reserved. Please choose another."))
        if (
            not shallow
            and User.objects.filter(Q(name_skeleton__in=folds) | Q(name_look__in=folds)).exists()
        ):
            raise ValidationError(
                _("This name looks too much like a member's name. Please choose another.")
            )
        return username

    def pre_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse | None:
        """A banned member is turned away with the reason. What allauth noted of the
        attempt goes with the session (``flush``: nobody is logged in on it)."""
        if getattr(user, "is_banned", None) and user.is_banned():
            request.session.flush()
            return banned_response(request, user)
        return super().pre_login(request, user, **kwargs)

    def render_mail(
        self,
        template_prefix: str,
        email: str | list[str],
        context: dict[str, Any],
        headers: dict[str, str] | None = None,
    ) -> EmailMessage:
        """Mails name the site by ``SITE_NAME``, not by the host the request came to (without
        django.contrib.sites, allauth greets "Hello from 127.0.0.1:8123!"). The host stays
        the request's, as in the links allauth builds from the request."""
        host = getattr(context.get("current_site"), "domain", "")
        context = {**context, "current_site": MailSite(name=settings.SITE_NAME, domain=host)}
        return super().render_mail(template_prefix, email, context, headers=headers)

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        url = super().get_login_redirect_url(request)
        language = getattr(request.user, "language", "")
        return translate_url(url, language) if language else url
