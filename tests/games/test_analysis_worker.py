"""The computer's review on its own worker (SPEC §13): a rated match is queued when it ends,
the ``analysis`` worker reviews every move of both games, the table hears the progress,
and the API carries the result, whose judgements and accuracies follow from the stored
win chances. A flag is not delayed by an analysis running meanwhile."""

import random

import pytest

from games import services
from games.engine.analysis import accuracy, judgement
from games.events import table_group
from games.models import Analysis, Match
from tests import timeshift
from tests.conftest import Listener, needs_services, wait_for
from tests.games.test_clocks import play
from tests.moves import play_out

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def analysis_of(match) -> Analysis | None:
    return Analysis.objects.filter(match_id=match.pk).first()


def test_a_finished_rated_fast_match_is_analysed_move_by_move(
    analysis_worker, new_table, alice, bob, client
):
    match = new_table("fast", [alice, bob], clock="3+2", rated=True)
    listener = Listener(table_group(match.pk))
    state = play_out(match, [alice, bob], rng=random.Random(4), now=timeshift.now())
    plies = [game.ply for game in state.games]
    assert analysis_of(match).total == sum(plies)  # queued by itself when it ended

    assert wait_for(lambda: analysis_of(match).status == Analysis.Status.DONE, timeout=120)
    heard = []
    while not heard or heard[-1]["status"] != "done":
        heard.append(listener.next(lambda message: message["type"] == "table.analysis"))
    assert [m["done"] for m in heard[:-1]] == list(range(1, sum(plies) + 1))
    assert {m["total"] for m in heard} == {sum(plies)}

    record = client.get(f"/api/matches/{match.pk}/").json()
    analysis = record["analysis"]
    assert analysis["status"] == "done"
    assert [len(game) for game in analysis["games"]] == plies
    for number, entries in enumerate(analysis["games"]):
        moves = record["games"][number]["moves"]
        assert [e["ply"] for e in entries] == list(range(1, len(moves) + 1))
        assert [e["played"] for e in entries] == moves
    every = [entry for game in analysis["games"] for entry in game]
    for entry in every:
        assert 0 <= entry["after"] <= entry["before"] <= 100
        assert entry["judgement"] == judgement(round(entry["before"] - entry["after"], 1))
        if entry["judgement"] and entry["best"] != "swap":
            assert entry["best_cells"]  # the best colour's cells, for the board's outline
    for seat in analysis["seats"]:
        mine = [e for e in every if e["seat"] == seat["seat"]]
        expected = sum(accuracy(e["before"] - e["after"]) for e in mine) / len(mine)
        assert seat["accuracy"] == pytest.approx(expected, abs=0.051)
        for name, key in (
            ("inaccuracy", "inaccuracies"),
            ("mistake", "mistakes"),
            ("blunder", "blunders"),
        ):
            assert seat[key] == sum(e["judgement"] == name for e in mine)
        assert len(seat["games"]) == len(plies)


def test_a_flag_falls_on_time_while_an_analysis_runs(
    settings, worker, analysis_worker, new_table, alice, bob, carol, dave
):
    long = new_table("classic", [alice, bob], clock="10+5", rated=True)
    play_out(long, [alice, bob], rng=random.Random(2), now=timeshift.now())
    assert wait_for(lambda: analysis_of(long).status == Analysis.Status.RUNNING, timeout=60)

    settings.GAME_CLOCK_SCALE = 0.002  # 1+1 → 120 ms and 2 ms
    match = new_table("fast", [carol, dave], clock="1+1", rated=True)
    play(match, [carol, dave], timeshift.now())
    play(match, [carol, dave], timeshift.now())  # both moved: C's clock runs, nobody moves
    assert wait_for(
        lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, timeout=10
    )
    assert Match.objects.get(pk=match.pk).result_reason == "flagged"
    review = analysis_of(long)
    # The flag did not wait for the review: it is still under way.
    assert review.status == Analysis.Status.RUNNING and review.done < review.total


def test_a_tried_colour_is_answered_by_the_try_worker(analysis_worker, new_table, alice, bob):
    match = new_table("fast", [alice, bob])
    play_out(match, [alice, bob], rng=random.Random(6), now=timeshift.now())
    colour = _legal_after(match, ply=2)

    def ask():  # the same request again, as the page polls
        return services.analysis_try(
            match_id=match.pk, member=alice, game=1, ply=2, colour=str(colour), now=timeshift.now()
        )

    assert ask() is None  # sent to the analysis_try queue
    assert wait_for(lambda: ask() is not None, timeout=30)
    answer = ask()
    assert answer["colour"] == colour and 0 <= answer["chances"] <= 100
    assert answer["answer"] is not None


def _legal_after(match, *, ply: int) -> int:
    from games.engine.match import MatchState
    from games.engine.replay import steps

    timeline = steps(MatchState.from_dict(Match.objects.get(pk=match.pk).state))[0]
    position = next(s.position for s in timeline if s.ply == ply and s.move is not None)
    return next(move for move in position.legal_moves() if move != "swap")
