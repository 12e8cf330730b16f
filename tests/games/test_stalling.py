"""Stalling (SPEC §3): two accounts alternating moves that capture nothing can no longer
keep a game going for ever (a 1,366-move game once held the analysis worker for five
minutes). Twenty plies in a row without a capture end the game; the higher score wins.
The reason reaches the record, the table's state and the API."""

import json

import pytest

from games import events, selectors, services, state
from games.engine import Position
from games.engine.match import MatchState
from games.models import Game, Match
from tests.games.conftest import T0

pytestmark = pytest.mark.django_db

# Both territories border the free cells in colours 5 and 6 only: 1-4 capture nothing.
BOARD = "square 9x1 6 AA556666B 3,4 A"


def stalling_table(new_table, members):
    match = new_table("fast", members, single_game=True)
    match.state = MatchState.new(Position.from_text(BOARD), games=1).to_dict()
    match.save(update_fields=["state"])
    Game.objects.filter(match=match).update(start=BOARD)
    return match


def nothing_colour(match) -> int:
    position = Match.objects.get(pk=match.pk).engine_state().current.position
    return next(c for c in (1, 2, 3, 4) if position.legal_colors()[c] is None)


def test_twenty_moves_without_a_capture_end_the_game_for_the_higher_score(
    new_table, alice, bob, client
):
    match = stalling_table(new_table, [alice, bob])
    for ply in range(20):
        assert Match.objects.get(pk=match.pk).status == "playing"
        mover = (alice, bob)[ply % 2]
        with events.capture():
            services.move_play(
                match_id=match.pk, user=mover, ply=ply, color=nothing_colour(match), received_at=T0
            )
    match.refresh_from_db()
    assert (match.status, match.result_reason) == ("finished", "stalled")
    assert Game.objects.get(match=match, number=1).reason == "stalled"
    sent = json.loads(state.personal(selectors.table_event(match.pk), None))
    assert sent["match"]["result"] == {"winners": ["A"], "reason": "stalled"}
    assert sent["game"]["over"] and sent["game"]["winners"] == ["A"]
    record = client.get(f"/api/matches/{match.pk}/").json()
    assert record["games"][0]["reason"] == "stalled" and len(record["games"][0]["moves"]) == 20
    assert record["result"]["reason"] == "stalled"


def test_a_capture_starts_the_count_again(new_table, alice, bob):
    match = stalling_table(new_table, [alice, bob])
    for ply in range(19):
        with events.capture():
            services.move_play(
                match_id=match.pk,
                user=(alice, bob)[ply % 2],
                ply=ply,
                color=5 if ply == 18 else nothing_colour(match),  # A takes the fives
                received_at=T0,
            )
    for ply in range(19, 38):
        with events.capture():
            services.move_play(
                match_id=match.pk,
                user=(alice, bob)[ply % 2],
                ply=ply,
                color=nothing_colour(match),
                received_at=T0,
            )
    assert Match.objects.get(pk=match.pk).status == "playing"  # 19 since the capture
