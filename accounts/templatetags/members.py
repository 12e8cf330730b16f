"""``{% member_link name %}``: every username on the site links to the member's page."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag
def member_link(username: str | None, css_class: str = "member"):
    if not username:
        return format_html('<span class="{}">{}</span>', css_class, _("deleted member"))
    return format_html(
        '<a class="{}" href="{}">{}</a>', css_class, reverse("profile", args=[username]), username
    )
