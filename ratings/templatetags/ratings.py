"""Template tags for ratings: a rating as shown ("1623?" while provisional) and the graph."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from ratings.charts import history_svg
from ratings.selectors import ScaleRecord

register = template.Library()


@register.simple_tag
def rating_text(rating: float, rd: float | None = None, provisional: bool = False) -> SafeString:
    """A rounded rating, marked "?" with an explanation while it is provisional."""
    if not provisional:
        return format_html("{}", round(rating))
    return format_html(
        '<span class="provisional" title="{}">{}?</span>',
        _("Provisional: too few rated matches to be sure"),
        round(rating),
    )


@register.simple_tag
def rating_history_chart(record: ScaleRecord) -> SafeString:
    """The SVG history graph of one scale of a member."""
    return history_svg(
        record.history,
        title=_("Rating history: %(scale)s") % {"scale": record.label},
        chart_id=f"rating-history-{record.scale}",
    )
