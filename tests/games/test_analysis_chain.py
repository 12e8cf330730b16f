"""A stored analysis agrees with itself (SPEC §13, issue 43.1): the analysis of a whole
match, worked out by the service and read from the API, values each position once, so
for every move ``after`` (the mover's chances after it) is 100 − the next move's
``before`` (the next mover's chances), the last move of a game that was played to its
end has the mover's result as its ``after``, and every judgement and accuracy follows
from ``before`` and ``after`` by the spec's thresholds and formula."""

import random
from itertools import pairwise

import pytest

from games import services, timing
from games.engine.analysis import accuracy, judgement
from games.engine.match import MatchState
from games.models import Match
from tests.games.conftest import T0
from tests.moves import play_out

pytestmark = pytest.mark.django_db


def analysed(match, member, client) -> tuple[dict, MatchState]:
    services.analysis_request(match_id=match.pk, member=member, now=T0)
    services.analysis_run(match_id=match.pk, now=timing.now)
    record = client.get(f"/api/matches/{match.pk}/").json()
    assert record["analysis"]["status"] == "done"
    return record, MatchState.from_dict(Match.objects.get(pk=match.pk).state)


def assert_chained(analysis: dict) -> None:
    for entries in analysis["games"]:
        assert all(e.get("reviewed", True) for e in entries)  # a Fast match: all of it
        for entry, following in pairwise(entries):
            assert entry["seat"] != following["seat"]  # two seats take turns
            assert entry["after"] == round(100 - following["before"], 1), entry["ply"]
        for entry in entries:
            drop = round(entry["before"] - entry["after"], 1)
            assert 0 <= drop <= 100
            assert entry["judgement"] == judgement(drop), entry["ply"]
            # Nothing kept more than the colour played exactly when it was the best.
            assert (entry["best"] == entry["played"]) == (drop == 0)
    every = [entry for entries in analysis["games"] for entry in entries]
    for seat in analysis["seats"]:
        mine = [e for e in every if e["seat"] == seat["seat"]]
        expected = sum(accuracy(e["before"] - e["after"]) for e in mine) / len(mine)
        assert seat["accuracy"] == pytest.approx(expected, abs=0.051)


def test_every_moves_after_is_the_next_moves_before_in_a_whole_match(finished, alice, client):
    record, state = analysed(finished, alice, client)
    analysis = record["analysis"]
    assert [len(entries) for entries in analysis["games"]] == [g.ply for g in state.games]
    assert_chained(analysis)
    for game, entries in zip(state.games, analysis["games"], strict=True):
        # Both games were played to their end: the last mover's after is their result.
        assert game.position.is_over
        last = entries[-1]
        mover = "AB".index(last["seat"])
        won, drawn = game.position.winners == (mover,), len(game.position.winners) > 1
        assert last["after"] == (100.0 if won else 50.0 if drawn else 0.0)
        assert last["exact"]


def test_a_match_resigned_in_game_1_chains_to_its_last_move(new_table, alice, bob, client):
    match = new_table("fast", [alice, bob])
    play_out(match, [alice, bob], rng=random.Random(8), resign_at=11, now=T0)
    record, state = analysed(match, alice, client)
    position = state.games[0].start
    for move in state.games[0].moves:
        position = position.play(move)
    assert not position.is_over  # resigned after move 11: the game could have gone on
    assert sum(len(entries) for entries in record["analysis"]["games"]) == 11
    assert_chained(record["analysis"])
