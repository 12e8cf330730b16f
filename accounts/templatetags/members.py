"""``{% member_link name %}``: every username on the site links to the member's page, a bot
account's with the BOT mark before it (SPEC §15).
``{% seen_ago when now %}``: how long ago a member was last on the site."""

from datetime import datetime

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext_lazy

from accounts.selectors import bot_names

register = template.Library()

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR
# Whole sentences, largest unit first: a language words "N units ago" its own way (Django's
# ``timesince`` gives the units alone, and not in every language).
AGO = [
    (365 * DAY, ngettext_lazy("%(count)d year ago", "%(count)d years ago", "count")),
    (30 * DAY, ngettext_lazy("%(count)d month ago", "%(count)d months ago", "count")),
    (DAY, ngettext_lazy("%(count)d day ago", "%(count)d days ago", "count")),
    (HOUR, ngettext_lazy("%(count)d hour ago", "%(count)d hours ago", "count")),
    (MINUTE, ngettext_lazy("%(count)d minute ago", "%(count)d minutes ago", "count")),
]


@register.simple_tag(takes_context=True)
def member_link(context, username: str | None, css_class: str = "member"):
    return named_link(username, css_class, bot=bool(username) and username in _bots(context))


def named_link(username: str | None, css_class: str = "member", *, bot: bool = False):
    """A member's name linking to their page (``bot``: with the BOT mark before it)."""
    if not username:
        return format_html('<span class="{}">{}</span>', css_class, _("deleted member"))
    link = format_html(
        '<a class="{}" href="{}">{}</a>', css_class, reverse("profile", args=[username]), username
    )
    return format_html("{}{}", bot_mark(), link) if bot else link


@register.simple_tag
def bot_mark():
    """The BOT mark before a bot account's name (a title, the same in every language)."""
    return format_html(
        '<span class="bot-mark" title="{}">BOT</span>', _("A program that plays through the API")
    )


def _bots(context) -> frozenset[str]:
    """The bot accounts' names, read once per page (``accounts.selectors.bot_names``)."""
    store = context.render_context
    if "bot_names" not in store:
        store["bot_names"] = bot_names()
    return store["bot_names"]


@register.simple_tag
def seen_ago(when: datetime, now: datetime) -> str:
    """``when`` in the largest unit that fits, never "0 minutes": under two minutes is
    "1 minute ago" (a member seen just now is "online now", lobby.selectors.member_online)."""
    seconds = max((now - when).total_seconds(), 0)
    size, text = next(((size, text) for size, text in AGO if seconds >= size), AGO[-1])
    return text % {"count": max(int(seconds // size), 1)}
