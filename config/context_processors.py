from django.conf import settings
from django.http import HttpRequest
from django.urls import translate_url
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe
from django.utils.translation import get_language_info

from accounts.models import Theme
from accounts.selectors import preferred_theme
from accounts.services import member_warnings_shown
from games import timing
from games.board_svg import palette_css
from games.engine import VARIANTS

VARIANT_KEYS = [key for key in VARIANTS if key != "practice"]


def site(request: HttpRequest) -> dict:
    """What every page's layout needs: the language switcher's links (this very page in
    every language), the board colours and the theme (``<html data-theme>``, drawn by the
    server so a page never flashes in the other one)."""
    path = request.get_full_path()
    return {
        "board_palette_css": mark_safe(palette_css()),
        "theme": preferred_theme(request),
        "theme_choices": Theme.choices,
        "ping_ms": int(settings.PRESENCE_PING_SECONDS * 1000),
        "variant_keys": VARIANT_KEYS,
        "local_mailbox": settings.LOCAL_MAILBOX,
        # Worked out only when a template shows them (a page's layout; not the fragments
        # that lists and standings fetch again and again: six URL translations each).
        "language_links": SimpleLazyObject(
            lambda: [
                {
                    "code": code,
                    "name": get_language_info(code)["name_local"],
                    "url": translate_url(path, code),
                }
                for code, _name in settings.LANGUAGES
            ]
        ),
    }


def member_warnings(request: HttpRequest) -> dict:
    """The moderators' warnings a member has not read yet, for the messages at the top of
    the page (SPEC §14). Read, and marked read, only when a page of the site's layout shows
    them: a fragment or a JSON answer leaves them for the next page."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "member_warnings": SimpleLazyObject(
            lambda: member_warnings_shown(member=user, now=timing.now())
        )
    }
