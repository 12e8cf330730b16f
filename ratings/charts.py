"""The rating-history graph: server-rendered SVG, no script, text in the active language.

The x axis counts rated matches (so a busy evening and a quiet month take the same room);
its labels are the dates of the first and last match, formatted by Django's l10n.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.selectors import HistoryPoint

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 12, 30
#: Longer histories are thinned to this many points (the first and last always kept).
MAX_POINTS = 400
#: Dots with a tooltip on each match while the history is short enough to point at.
MAX_DOTS = 60
LINE = "#0b6bcb"
GRID = "#d9dce1"
INK = "#5b6470"


def _thinned(points: Sequence[HistoryPoint]) -> list[HistoryPoint]:
    if len(points) <= MAX_POINTS:
        return list(points)
    step = (len(points) - 1) / (MAX_POINTS - 1)
    return [points[round(i * step)] for i in range(MAX_POINTS)]


def _grid_step(span: float) -> int:
    for step in (25, 50, 100, 200, 250, 500):
        if span / step <= 5:
            return step
    return 1000


def _date(point: HistoryPoint) -> str:
    return formats.date_format(timezone.localtime(point.at), "SHORT_DATE_FORMAT")


def history_svg(points: Sequence[HistoryPoint], *, title: str, chart_id: str) -> SafeString:
    """An accessible SVG line chart of ``points`` (rating over matches); empty for none.

    ``title`` names the chart (e.g. the scale); ``chart_id`` keeps the ids of several
    charts on one page apart.
    """
    if not points:
        return mark_safe("")
    shown = _thinned(points)
    ratings = [point.rating for point in shown]
    step = _grid_step(max(ratings) - min(ratings))
    low = math.floor(min(ratings) / step) * step
    high = math.ceil(max(ratings) / step) * step
    if high == low:
        low, high = low - step, high + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last_index = max(len(shown) - 1, 1)

    def x(i: int) -> str:
        return f"{LEFT + plot_w * i / last_index:.1f}"

    def y(rating: float) -> str:
        return f"{TOP + plot_h * (high - rating) / (high - low):.1f}"

    grid = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{}" stroke-width="1"/>'
        '<text x="{}" y="{}" text-anchor="end" dominant-baseline="middle" fill="{}" '
        'font-size="12">{}</text>',
        (
            (LEFT, WIDTH - RIGHT, y(v), y(v), GRID, LEFT - 6, y(v), INK, formats.number_format(v))
            for v in range(int(low), int(high) + 1, step)
        ),
    )
    line = " ".join(f"{x(i)},{y(p.rating)}" for i, p in enumerate(shown))
    dots = mark_safe("")
    if len(shown) <= MAX_DOTS:
        dots = format_html_join(
            "",
            '<circle cx="{}" cy="{}" r="3" fill="{}"><title>{}</title></circle>',
            (
                (
                    x(i),
                    y(p.rating),
                    LINE,
                    _("%(date)s: %(rating)s")
                    % {"date": _date(p), "rating": formats.number_format(round(p.rating))},
                )
                for i, p in enumerate(shown)
            ),
        )
    first, last = points[0], points[-1]
    matches = sum(1 for p in points if p.match_id is not None)
    description = ngettext(
        "From %(start)s to %(end)s over %(count)d rated match, %(first)s to %(last)s.",
        "From %(start)s to %(end)s over %(count)d rated matches, %(first)s to %(last)s.",
        matches,
    ) % {
        "start": round(first.rating),
        "end": round(last.rating),
        "count": matches,
        "first": _date(first),
        "last": _date(last),
    }
    dates = format_html(
        '<text x="{}" y="{}" fill="{}" font-size="12">{}</text>'
        '<text x="{}" y="{}" text-anchor="end" fill="{}" font-size="12">{}</text>',
        LEFT,
        HEIGHT - 8,
        INK,
        _date(first),
        WIDTH - RIGHT,
        HEIGHT - 8,
        INK,
        _date(last),
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {} {}" width="100%" role="img" '
        'aria-labelledby="{}-title {}-desc" xmlns="http://www.w3.org/2000/svg">'
        '<title id="{}-title">{}</title><desc id="{}-desc">{}</desc>{}'
        '<polyline points="{}" fill="none" stroke="{}" stroke-width="2" '
        'stroke-linejoin="round"/>{}{}</svg>',
        WIDTH,
        HEIGHT,
        chart_id,
        chart_id,
        chart_id,
        title,
        chart_id,
        description,
        grid,
        line,
        LINE,
        dots,
        dates,
    )
