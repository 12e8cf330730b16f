"""Moves played through the services while browsers watch: greedy players, whole games,
and what the engine says a page should show."""

from __future__ import annotations

import re

from games import services, timing
from games.board_svg import render_board
from games.engine import Position
from games.engine.match import MatchState
from games.models import Match
from tests.e2e.conftest import off_the_loop


def new_match(variant: str, members, **options) -> Match:
    """A match of these members starting now (``services.match_create``'s options)."""
    return off_the_loop(
        services.match_create, variant=variant, members=members, now=timing.now(), **options
    )


def current_state(match: Match) -> MatchState:
    match.refresh_from_db()
    return MatchState.from_dict(match.state)


def greedy(position: Position) -> int:
    legal = [c for c, reason in position.legal_colors().items() if reason is None]
    return max(legal, key=lambda c: (len(position.preview(c)), -c))


def play_greedy(match: Match, members, moves: int | None = None) -> MatchState:
    """Play greedy moves for whoever is to move: ``moves`` of them, or until the game ends."""
    played = 0
    state = current_state(match)
    while state.status == "playing" and (moves is None or played < moves):
        position = state.current.position
        off_the_loop(
            services.move_play,
            match_id=match.pk,
            user=members[position.to_move],
            ply=state.current.ply,
            color=greedy(position),
            received_at=timing.now(),
        )
        played += 1
        state = current_state(match)
    return state


def play_match(match: Match, members) -> MatchState:
    """Both games greedy, every player ready in between."""
    state = play_greedy(match, members)
    if state.status == "between_games":
        for member in members:
            off_the_loop(services.match_ready, match_id=match.pk, user=member, now=timing.now())
        state = play_greedy(match, members)
    return state


def after_moves(state: MatchState, game: int, plies: int) -> Position:
    """The engine's position after the first ``plies`` moves of a game, played again."""
    record = state.games[game - 1]
    position = record.start
    for colour in record.moves[:plies]:
        position = position.play(colour)
    return position


def cell_classes(page) -> list[str]:
    """The board's cells as the page draws them, without the marks of previews and replays."""
    classes = page.eval_on_selector_all(
        ".board .cells polygon", "cells => cells.map(c => c.getAttribute('class'))"
    )
    return [re.sub(r" (hl|gain|hint|best)\b", "", c) for c in classes]


def drawn(position: Position) -> list[str]:
    """The cells' classes of a position as the server draws it."""
    return re.findall(r'<polygon class="([^"]*)"', render_board(position))


def caught_up(page, match: Match | None = None) -> None:
    """Wait until the page has drawn, and the browser laid out, the match as the database
    has it now or later (``main[data-drawn-version]``); without a match, the version
    the page itself last received."""
    if match is not None:
        match.refresh_from_db()
        version = match.version
    else:
        version = int(page.locator("#table").get_attribute("data-version"))
    page.wait_for_function(
        "v => +(document.querySelector('main').dataset.drawnVersion || -1) >= v", arg=version
    )
