"""The analysis cannot be flooded (SPEC §13 as amended): a review has a budget of plies a
game and CPU a match, what lies beyond it is marked not reviewed and the stored result
stays small; matches queued by themselves count towards the backlog, which refuses them
with a visible status; tried colours have one global bound in flight; asking and trying
are under a request limit. An attack review once held the one analysis worker for five
minutes with a 1,366-move game, and seven accounts' tries slowed another member's 6×."""

import json
import random

import pytest

from games import services, timing
from games.models import Analysis
from games.services import analysis as analysis_services
from tests.games.conftest import T0
from tests.moves import play_out

pytestmark = pytest.mark.django_db


def test_a_review_stops_at_its_budget_and_marks_the_rest_not_reviewed(finished, alice, monkeypatch):
    monkeypatch.setattr(analysis_services, "REVIEW_PLIES", 3)
    services.analysis_request(match_id=finished.pk, member=alice, now=T0)
    done = services.analysis_run(match_id=finished.pk, now=timing.now)
    assert done.status == Analysis.Status.DONE and done.result["complete"] is False
    for game in done.result["games"]:
        assert [e["ply"] for e in game] == list(range(1, len(game) + 1))
        assert all("before" in e for e in game[:3])
        assert all(e["reviewed"] is False and "before" not in e for e in game[3:])
        assert all(e["seat"] in ("A", "B") and e["played"] for e in game[3:])
    assert len(json.dumps(done.result)) < analysis_services.RESULT_BYTES


def test_a_match_of_ordinary_length_is_reviewed_whole(finished, alice):
    services.analysis_request(match_id=finished.pk, member=alice, now=T0)
    done = services.analysis_run(match_id=finished.pk, now=timing.now)
    assert done.result["complete"] is True
    assert all("reviewed" not in e for game in done.result["games"] for e in game)


def test_rated_matches_queued_by_themselves_count_towards_the_backlog(
    new_table, alice, bob, settings, client
):
    settings.ANALYSIS_BACKLOG = 1
    first, second = (new_table("fast", [alice, bob], clock="3+2", rated=True) for _ in range(2))
    play_out(first, [alice, bob], rng=random.Random(2), now=T0)
    play_out(second, [alice, bob], rng=random.Random(3), now=T0)
    assert Analysis.objects.get(match=first).status == Analysis.Status.QUEUED
    assert Analysis.objects.get(match=second).status == Analysis.Status.BUSY  # visible
    api = client.get(f"/api/matches/{second.pk}/").json()
    assert api["analysis"]["status"] == "busy"
    # Once the backlog has room, a player may ask again.
    Analysis.objects.filter(match=first).update(status=Analysis.Status.DONE)
    again = services.analysis_request(match_id=second.pk, member=alice, now=T0)
    assert again.status == Analysis.Status.QUEUED


def test_tried_colours_in_flight_are_bounded_for_everyone(finished, make_member, settings):
    from games.errors import TableError

    settings.ANALYSIS_POSTS_PER_MINUTE = 100
    members = [make_member(f"try{i}") for i in range(analysis_services.TRIES_IN_FLIGHT + 1)]
    from games.engine import Position
    from games.selectors import match_steps

    finished.refresh_from_db()  # as play_out left it
    steps = [s for s in match_steps(finished)["games"][0] if s["event"] is None]
    outcomes = []
    for member, step in zip(members, steps, strict=False):  # a position each: none kept
        position = Position.from_text(step["position"])
        colour = next(c for c, why in position.legal_colors().items() if why is None)
        try:
            services.analysis_try(
                match_id=finished.pk,
                member=member,
                game=1,
                ply=step["ply"],
                colour=str(colour),
                now=T0,
            )
            outcomes.append("pending")
        except TableError as refused:
            outcomes.append(refused.code)
    assert outcomes == ["pending"] * analysis_services.TRIES_IN_FLIGHT + ["busy"]


def test_a_try_right_after_an_answer_is_taken_even_as_the_worker_lets_go(
    finished, alice, settings, monkeypatch
):
    from games.engine import Position
    from games.selectors import match_steps
    from games.services import underway

    settings.ANALYSIS_POSTS_PER_MINUTE = 100
    finished.refresh_from_db()  # as play_out left it
    tries = []
    for step in [s for s in match_steps(finished)["games"][0] if s["event"] is None][:2]:
        position = Position.from_text(step["position"])
        colour = next(c for c, why in position.legal_colors().items() if why is None)
        tries.append((step, colour))
    ask = dict(match_id=finished.pk, member=alice, game=1, now=T0)
    (first, colour), (second, other) = tries
    assert services.analysis_try(**ask, ply=first["ply"], colour=str(colour)) is None
    # The worker keeps its answer, and lets go of her try only just as she tries the
    # next colour: between the service's look at the hold and its hand-over.
    letting_go = []
    monkeypatch.setattr(
        analysis_services, "work_end", lambda name, value=None: letting_go.append((name, value))
    )
    analysis_services.analysis_try_work(
        member_id=alice.pk, variant=finished.variant, fpn=first["position"], move=colour
    )
    monkeypatch.setattr(analysis_services, "work_end", underway.work_end)

    def racing(name, **kwargs):
        for held, value in letting_go:
            underway.work_end(held, value=value)
        return underway.work_hand_over(name, **kwargs)

    monkeypatch.setattr(analysis_services, "work_hand_over", racing)
    assert services.analysis_try(**ask, ply=second["ply"], colour=str(other)) is None
    assert letting_go  # the race did happen


def test_asking_and_trying_are_under_a_request_limit(client, finished, alice, settings):
    settings.ANALYSIS_POSTS_PER_MINUTE = 3
    client.force_login(alice)
    answers = [
        client.post(f"/match/{finished.pk}/analysis/try/", {"game": 1, "ply": 0, "colour": "x"})
        for _ in range(4)
    ]
    assert [a.status_code for a in answers] == [400, 400, 400, 429]
    assert answers[-1].json()["error"] == "rate_limited"
    assert client.post(f"/match/{finished.pk}/analysis/").status_code == 429
    assert not Analysis.objects.filter(match=finished).exists()
