"""The site's few icons as inline SVG, drawn here, so they show on any system (an emoji
needs a font that has it): fire (an arena streak), berserk, a medal (the podium) and a
crown. ``{% icon_sprite %}`` writes every shape once into the page (base.html);
``{% icon "fire" %}`` draws one from it, at the size of the text around it.

An icon that says something on its own gets a label, read by screen readers in the
page's language: ``{% icon "fire" _("on fire") %}``; without one it is decoration
(``aria-hidden``), for an icon beside words that say the same. Scripts clone an icon
from a ``<template>`` the page renders with this tag (``static/js/dom.js``: ``icon``),
never from a string of HTML.

>>> print(icon("fire"))  # doctest: +NORMALIZE_WHITESPACE
<svg class="icon icon-fire" width="1em" height="1em" fill="currentColor" aria-hidden="true"
 focusable="false"><use href="#icon-fire"></use></svg>
>>> 'role="img" aria-label="on fire"' in icon("fire", "on fire")
True
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Each shape on a 24×24 grid: ``currentColor`` is the icon's colour (site.css), the other
# fills are the same in every theme. Simple paths, drawn for this site.
ICONS = {
    "fire": (
        '<path d="M12 1.5C12.8 5 15.5 7 17 9.5c1.4 2.3 2.2 4.1 2 6.1a7 7 0 0 1-14 0'
        "c0-3 1.3-5.4 3.3-7.1.1 1.9.7 3.3 2.1 4.1-.1-4.4.4-8 1.6-11.1z"
        '"/>'
        '<path fill="#ffd43b" d="M12.4 11.2c.4 1.8 1.7 2.8 2.3 4.2.7 1.6.3 3.4-.9 4.3'
        "-1.3 1-3.4.9-4.5-.4-.9-1.1-.8-2.7-.1-3.8.2 1 .8 1.6 1.6 1.8.2-2.1.5-4.3 1.6-6.1z"
        '"/>'
    ),
    "berserk": '<path d="M13.5 1.5 4.5 13.5h6L9 22.5 19 10h-6.2z"/>',
    "medal": (
        '<path fill="#2f6fd6" d="M5.5 1.5h5l3 8h-5z"/>'
        '<path fill="#d64545" d="M18.5 1.5h-5l-3 8h5z"/>'
        '<circle cx="12" cy="15.5" r="6.5" stroke="#000" stroke-opacity=".35"/>'
        '<circle cx="12" cy="15.5" r="4.2" fill="none" stroke="#000" stroke-opacity=".25"'
        ' stroke-width="1.2"/>'
    ),
    "crown": (
        '<path d="M2.5 7.5 7 12l5-7.5 5 7.5 4.5-4.5-2 11.5h-15z"/>'  # the crown
        '<path d="M4.5 20.5h15V22h-15z"/>'  # its band
    ),
}


@register.simple_tag
def icon_sprite() -> SafeString:
    """Every icon's shape, once, for ``<use>`` to draw (base.html puts it in each page)."""
    symbols = format_html_join(
        "",
        '<symbol id="icon-{}" viewBox="0 0 24 24">{}</symbol>',
        ((name, mark_safe(shape)) for name, shape in ICONS.items()),  # our own paths
    )
    return format_html(
        '<svg class="icon-sprite" xmlns="http://www.w3.org/2000/svg" aria-hidden="true"'
        ' focusable="false">{}</svg>',
        symbols,
    )


@register.simple_tag
def icon(name: str, label: str = "") -> SafeString:
    """One icon: named for screen readers when ``label`` is given, else decoration."""
    if name not in ICONS:
        raise ValueError(f"no icon {name!r}; there are {', '.join(ICONS)}")
    said = (
        format_html('role="img" aria-label="{}"', label)
        if label
        else mark_safe('aria-hidden="true"')
    )
    return format_html(
        '<svg class="icon icon-{}" width="1em" height="1em" fill="currentColor" {}'
        ' focusable="false"><use href="#icon-{}"></use></svg>',
        name,
        said,
        name,
    )
