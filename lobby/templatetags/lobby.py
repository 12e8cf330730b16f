from django import template

register = template.Library()


@register.filter
def seated_by(table, user) -> bool:
    """Whether ``user`` sits at this waiting table (lobby.selectors.WaitingTable)."""
    return table.seated(user)


@register.filter
def has_player(match, user) -> bool:
    """Whether ``user`` plays at ``match`` (its seats prefetched)."""
    return any(seat.member_id == user.pk for seat in match.seats.all())
