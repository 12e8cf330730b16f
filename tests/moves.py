"""Moves for tests that need a match under way: a resignation before every seat has moved
in game 1 aborts the match (SPEC §3), so a test of a resignation plays the opening first."""

import random
from datetime import datetime

from games import services
from games.engine.match import MatchState
from games.models import Match
from tests.timeshift import T0


def _state(match) -> MatchState:
    return MatchState.from_dict(Match.objects.get(pk=match.pk).state)


def play_chosen(match, members, choose, *, now: datetime | None = None) -> None:
    """The seat to move plays ``choose(position, legal colours)``."""
    from tests import timeshift

    state = _state(match)
    position = state.current.position
    legal = [c for c, reason in position.legal_colors().items() if reason is None]
    services.move_play(
        match_id=match.pk,
        user=members[position.to_move],
        ply=state.current.ply,
        color=choose(position, legal),
        received_at=now or timeshift.now(),
    )


def play_one(match, members, *, now: datetime | None = None) -> None:
    """The seat to move plays its first legal colour."""
    play_chosen(match, members, lambda _position, legal: legal[0], now=now)


def least_gain(position, legal):
    return min(legal, key=lambda c: (len(position.preview(c)), c))


def greatest_gain(position, legal):
    return max(legal, key=lambda c: (len(position.preview(c)), -c))


def play_least(match, members, *, now: datetime | None = None) -> None:
    """The seat to move plays the legal colour that gains it the fewest cells. A few such
    moves never end a game, whatever the board; the first legal colour may enclose a
    region and decide a small board in four moves."""
    play_chosen(match, members, least_gain, now=now)


def play_opening(match, members, *, now: datetime | None = None) -> None:
    """Every seat makes its first move of game 1: from here on a resignation is one."""
    while _state(match).can_abort:
        play_one(match, members, now=now)


def play_out(
    match, members, *, rng: random.Random, resign_at: int | None = None, now: datetime | None = None
):
    """Play a whole match through the services: mostly greedy moves, some random ones,
    and a match resignation after ``resign_at`` moves if asked."""
    played = 0
    while True:
        state = MatchState.from_dict(Match.objects.get(pk=match.pk).state)
        if state.status == "finished":
            return state
        if state.status == "between_games":
            for seat, member in enumerate(members):
                if seat not in state.out and seat not in state.ready:
                    services.match_ready(match_id=match.pk, user=member, now=now or T0)
            continue
        position = state.current.position
        if resign_at is not None and played == resign_at:
            services.match_resign(match_id=match.pk, user=members[position.to_move], now=now or T0)
            resign_at = None
            continue
        legal = [c for c, why in position.legal_colors().items() if why is None]
        if position.can_swap and rng.random() < 0.5:
            colour = "swap"
        elif rng.random() < 0.2:
            colour = rng.choice(legal)
        else:
            colour = max(legal, key=lambda c: (len(position.preview(c)), -c))
        services.move_play(
            match_id=match.pk,
            user=members[position.to_move],
            ply=state.current.ply,
            color=colour,
            received_at=now or T0,
        )
        played += 1


def played(members, loser, *, private: bool = False) -> Match:
    """A finished Fast match of ``members``: ``loser`` resigns it after the opening."""
    match = services.match_create(variant="fast", members=members, now=T0, private=private)
    play_opening(match, members, now=T0)
    services.match_resign(match_id=match.pk, user=loser, now=T0)
    return match
