"""Moves for tests that need a match under way: a resignation before every seat has moved
in game 1 aborts the match (SPEC §3), so a test of a resignation plays the opening first."""

from datetime import datetime

from games import services
from games.engine.match import MatchState
from games.models import Match


def _state(match) -> MatchState:
    return MatchState.from_dict(Match.objects.get(pk=match.pk).state)


def play_one(match, members, *, now: datetime | None = None) -> None:
    """The seat to move plays its first legal colour."""
    from tests import timeshift

    state = _state(match)
    position = state.current.position
    colour = next(c for c, reason in position.legal_colors().items() if reason is None)
    services.move_play(
        match_id=match.pk,
        user=members[position.to_move],
        ply=state.current.ply,
        color=colour,
        received_at=now or timeshift.now(),
    )


def play_opening(match, members, *, now: datetime | None = None) -> None:
    """Every seat makes its first move of game 1: from here on a resignation is one."""
    while _state(match).can_abort:
        play_one(match, members, now=now)
