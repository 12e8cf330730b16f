from django import template
from django.utils.html import format_html

from accounts.templatetags.members import named_link

register = template.Library()


@register.filter
def seated_by(table, user) -> bool:
    """Whether ``user`` sits at this waiting table (lobby.selectors.WaitingTable)."""
    return table.seated(user)


@register.filter
def has_player(match, user) -> bool:
    """Whether ``user`` plays at ``match`` (its seats prefetched)."""
    return any(seat.member_id == user.pk for seat in match.seats.all())


@register.simple_tag
def seat_link(seat, seats=()):
    """A seat's player as the site names them (SPEC §10): the member's link, or "Computer
    (level N)" with the seat's letter when several computers share the table."""
    if not seat.bot_level:
        if not seat.member_id:
            return named_link(None)
        return named_link(seat.member.username, bot=seat.member.is_bot)
    name = seat.display_name
    if sum(1 for other in seats if other.bot_level) > 1:
        name = f"{name} ({seat.letter})"
    return format_html('<span class="member bot">{}</span>', name)


@register.filter
def arena_results(line) -> list[tuple]:
    """A table line's results as (scored, match id, outcome in words), in order; a match
    whose ratings were annulled says so instead of its outcome."""
    from lobby.models import ArenaResult

    annulled = ArenaResult._meta.get_field("annulled").verbose_name
    return [
        (
            scored,
            match_id,
            annulled
            if scored.played.annulled
            else ArenaResult.Outcome(scored.played.outcome).label,
        )
        for scored, match_id in zip(line.standing.results, line.matches, strict=True)
    ]
