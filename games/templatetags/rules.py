"""Template tags of the rules pages: links to topics, live diagrams, variant facts."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.board_svg import render_board
from games.colors import COLOR_NAMES
from games.diagrams import diagram as find_diagram
from games.engine import PALETTE, VARIANTS
from games.engine.clock import PRESETS
from games.topics import TOPICS

register = template.Library()
LETTERS = "ABCD"


@register.simple_tag
def topic_url(key: str) -> str:
    return reverse("rules_topic", args=[key])


@register.simple_tag
def topic_link(key: str, text: str = "") -> SafeString:
    """A link to a topic, named as the topic is in this language unless ``text`` is given."""
    return format_html('<a href="{}">{}</a>', topic_url(key), text or TOPICS[key].name)


def _colour(colour: int) -> str:
    return str(COLOR_NAMES[PALETTE[colour].key])


def _size(variant) -> str:
    if variant.shape == "hexagon":
        return _("a hexagon of side %(side)s") % {"side": variant.width}
    return f"{variant.width}×{variant.height}"


@register.simple_tag
def diagram(kind: str, variant_key: str, caption: str = "") -> SafeString:
    """A live diagram: the position(s) the engine finds for ``kind``, with text
    alternatives in the page's language."""
    found = find_diagram(kind, variant_key)
    before = found.before
    variant = VARIANTS[variant_key]
    boards = []
    if found.colour is None:
        facts = {
            "name": TOPICS[variant_key].name,
            "size": _size(variant),
            "colors": before.colors,
            "seats": before.seats,
        }
        title = _("A fresh board of %(name)s: %(size)s, %(colors)s colours, %(seats)s starts.")
        if found.gain:
            title = _(
                "A board of %(name)s: %(size)s, %(colors)s colours; its special cells are "
                "highlighted."
            )
        boards.append(render_board(before, highlight=found.gain, title=title % facts))
    else:
        seat = LETTERS[before.to_move]
        count = len(found.gain)
        title = ngettext(
            "Before the move: %(seat)s chooses %(colour)s and gains the highlighted cell.",
            "Before the move: %(seat)s chooses %(colour)s "
            "and gains the %(count)s highlighted cells.",
            count,
        ) % {"seat": seat, "colour": _colour(found.colour), "count": count}
        boards.append(render_board(before, highlight=found.gain, title=title))
        after = found.after
        winners = "+".join(LETTERS[s] for s in after.winners)
        if kind == "decided" and after.winners and after.needed_to_win:
            title = _(
                "After the move the game is over: %(winners)s won with %(score)s; "
                "%(needed)s were needed to win."
            ) % {"winners": winners, "score": max(after.side_scores), "needed": after.needed_to_win}
        elif kind == "decided" and after.winners:
            title = _("After the move the game is over: %(winners)s won with %(score)s.") % {
                "winners": winners,
                "score": max(after.side_scores),
            }
        else:
            title = _("After the move: %(seat)s has a score of %(score)s.") % {
                "seat": seat,
                "score": after.scores[before.to_move],
            }
        boards.append(render_board(after, title=title))
    inner = format_html_join(
        mark_safe('<span class="diagram-arrow" aria-hidden="true">→</span>'),
        '<div class="diagram-board">{}</div>',
        ((board,) for board in boards),
    )
    return format_html(
        '<figure class="diagram diagram-{} diagram-{}">'
        '<div class="diagram-boards">{}</div>{}</figure>',
        kind,
        variant.shape,
        inner,
        format_html("<figcaption>{}</figcaption>", caption) if caption else "",
    )


@register.inclusion_tag("rules/_facts.html")
def variant_facts(key: str) -> dict:
    variant = VARIANTS[key]
    return {
        "variant": variant,
        "topic": TOPICS[key],
        "size": _size(variant),
        "presets": ", ".join(PRESETS),
        "values": dict(variant.values),
        "boards": [TOPICS[board] for board in variant.boards],
    }


@register.simple_tag
def thumbnail(variant_key: str) -> SafeString:
    """A small picture of a fresh board of the variant (decorative: the name is next to it)."""
    return render_board(
        find_diagram("fresh", variant_key).before, css_class="thumbnail", marks=False
    )


@register.simple_tag
def topic_name(key: str) -> str:
    """A variant's name in the page's language."""
    return str(TOPICS[key].name)
