"""Asking for the computer's review and trying colours (SPEC §13), through the pages' URLs:
who may ask, asking again, the hourly limit and the backlog, finished two-seat matches
only, and a tried colour refused with the engine's reason, answered from what is kept,
one in flight per member; an analysis a stopped worker or a restarted broker lost fails or
is sent again. Refusals are in the member's language and change nothing."""

import random
from datetime import timedelta

import pytest
from django.core.cache import cache

from games import timing
from games.models import Analysis
from games.services.analysis import (
    ANALYSIS_QUEUED_RESEND_SECONDS,
    ANALYSIS_RUNNING_LOST_SECONDS,
    analyses_resume,
    analysis_try_work,
    try_work_name,
)
from games.services.underway import work_begin, work_held
from tests.conftest import needs_services
from tests.games.conftest import T0
from tests.moves import play_opening, play_out

pytestmark = pytest.mark.django_db


def ask(client, member, match, path="analysis/", prefix="", **data):
    client.force_login(member)
    return client.post(f"{prefix}/match/{match.pk}/{path}", data)


def analyses() -> int:
    return Analysis.objects.count()


def test_a_player_asks_and_asking_again_is_harmless(
    client, finished, alice, bob, django_capture_on_commit_callbacks
):
    assert client.get(f"/match/{finished.pk}/analysis/").json() == {"analysis": None}
    with django_capture_on_commit_callbacks() as sent:
        first = ask(client, alice, finished)
    assert first.status_code == 200
    total = sum(len(g.moves.all()) for g in finished.games.all())
    assert first.json()["analysis"] == {"status": "queued", "done": 0, "total": total}
    assert len(sent) == 1  # the task for the analysis queue
    with django_capture_on_commit_callbacks() as again:
        assert ask(client, bob, finished).json() == first.json()
    assert again == [] and analyses() == 1
    api = client.get(f"/api/matches/{finished.pk}/").json()
    assert api["analysis"] == {"status": "queued", "done": 0, "total": total}


def test_a_stranger_may_ask_for_a_rated_match_only(client, finished, new_table, alice, bob, carol):
    refused = ask(client, carol, finished, prefix="/nl")  # the Dutch page's URL
    assert refused.status_code == 403
    assert refused.json()["message"] == (
        "Alleen de spelers kunnen een analyse van een match zonder rating aanvragen."
    )
    assert analyses() == 0
    rated = new_table("fast", [alice, bob], clock="3+2", rated=True)
    play_out(rated, [alice, bob], rng=random.Random(2), now=T0)
    assert Analysis.objects.filter(match=rated).exists()  # queued by itself when it ended
    assert ask(client, carol, rated).status_code == 200


def test_a_visitor_and_an_unfinished_or_four_seat_match_are_refused(
    client, new_table, alice, bob, carol, dave
):
    playing = new_table("fast", [alice, bob])
    play_opening(playing, [alice, bob], now=T0)
    assert client.post(f"/match/{playing.pk}/analysis/").status_code == 403
    refused = ask(client, alice, playing)
    assert refused.status_code == 400 and refused.json()["error"] == "invalid"
    pairs = new_table("pairs", [alice, bob, carol, dave])
    play_out(pairs, [alice, bob, carol, dave], rng=random.Random(3), now=T0)
    assert ask(client, alice, pairs).json()["error"] == "invalid"
    assert analyses() == 0


def test_the_hourly_limit_and_the_backlog(client, settings, new_table, alice, bob):
    settings.ANALYSIS_PER_HOUR = 2
    matches = []
    for seed in range(4):
        match = new_table("fast", [alice, bob], seed=seed + 10)
        play_out(match, [alice, bob], rng=random.Random(seed), now=T0)
        matches.append(match)
    cache.clear()
    assert [ask(client, alice, m).status_code for m in matches[:3]] == [200, 200, 429]
    assert ask(client, alice, matches[2]).json()["error"] == "rate_limited"
    assert analyses() == 2
    settings.ANALYSIS_PER_HOUR = 10
    settings.ANALYSIS_BACKLOG = 2  # the two queued fill it
    busy = ask(client, bob, matches[3])
    assert busy.status_code == 429 and busy.json()["error"] == "busy"
    assert analyses() == 2


def test_a_failed_analysis_is_queued_again(client, finished, alice):
    Analysis.objects.create(match=finished, status=Analysis.Status.FAILED, requested_at=T0)
    assert ask(client, alice, finished).json()["analysis"]["status"] == "queued"


def analysis_queue_purged() -> int:
    """Empty the ``analysis`` queue on the broker; how many tasks it held."""
    from config.celery import app

    with app.connection_for_write() as connection:
        connection.default_channel.queue_declare(queue="analysis", durable=True)
        return connection.default_channel.queue_purge("analysis")


@needs_services
def test_an_analysis_a_stopped_worker_or_broker_lost_fails_or_is_sent_again(
    client, finished, alice, bob
):
    assert ask(client, alice, finished).json()["analysis"]["status"] == "queued"
    analysis_queue_purged()  # its task lost: a broker that restarted
    asked = Analysis.objects.get(match=finished).requested_at
    queued_lost = asked + timedelta(seconds=ANALYSIS_QUEUED_RESEND_SECONDS)
    assert analyses_resume(now=queued_lost - timedelta(seconds=1)) == 0
    assert analysis_queue_purged() == 0
    assert analyses_resume(now=queued_lost) == 1
    assert analysis_queue_purged() == 1  # sent to the worker again

    # Running when its worker stopped: it fails, the page says so, and asking again queues it.
    Analysis.objects.filter(match=finished).update(status="running", started_at=asked)
    running_lost = asked + timedelta(seconds=ANALYSIS_RUNNING_LOST_SECONDS)
    assert analyses_resume(now=running_lost - timedelta(seconds=1)) == 0
    assert analyses_resume(now=running_lost) == 1
    assert client.get(f"/match/{finished.pk}/analysis/").json()["analysis"]["status"] == "failed"
    assert ask(client, bob, finished).json()["analysis"]["status"] == "queued"


def replayed_position(match, ply):
    from games.engine.match import MatchState
    from games.engine.replay import steps
    from games.models import Match

    timeline = steps(MatchState.from_dict(Match.objects.get(pk=match.pk).state))[0]
    return next(s.position for s in timeline if s.ply == ply and (s.move or ply == 0))


def test_a_tried_colour_is_refused_with_the_engines_reason(client, finished, alice, carol):
    position = replayed_position(finished, 3)
    own = position.seat_colors[position.to_move]
    refused = ask(client, carol, finished, "analysis/try/", game=1, ply=3, colour=own)
    assert refused.status_code == 400
    assert refused.json() == {
        "error": "illegal_color",
        "message": "That is your own colour: choose another.",
    }
    for nonsense in ({"game": 3, "ply": 1}, {"game": 1, "ply": 999}, {"game": "x", "ply": 1}):
        answer = ask(client, carol, finished, "analysis/try/", colour=1, **nonsense)
        assert answer.status_code == 400 and answer.json()["error"] == "invalid"
    client.logout()
    assert (
        client.post(f"/match/{finished.pk}/analysis/try/", {"game": 1, "ply": 3}).status_code == 403
    )


def test_a_try_is_answered_from_what_is_kept_and_one_is_in_flight_per_member(
    client, finished, alice, django_capture_on_commit_callbacks
):
    position = replayed_position(finished, 2)
    first, second = [m for m in position.legal_moves() if m != "swap"][:2]
    cache.clear()
    with django_capture_on_commit_callbacks(execute=False) as sent:
        pending = ask(client, alice, finished, "analysis/try/", game=1, ply=2, colour=first)
    assert pending.json() == {"pending": True} and len(sent) == 1
    busy = ask(client, alice, finished, "analysis/try/", game=1, ply=2, colour=second)
    assert busy.status_code == 429 and busy.json()["error"] == "busy"
    # The worker of the analysis_try queue answers (here in this process); the test looks
    # at the moment between the answer kept and the member's try freed.
    in_flight = try_work_name(alice.pk)
    held = work_held(in_flight, now=timing.now())
    answer = analysis_try_work(
        member_id=alice.pk, variant="fast", fpn=position.to_text(), move=first
    )
    assert work_begin(in_flight, now=timing.now(), seconds=10, value=held)
    kept = ask(client, alice, finished, "analysis/try/", game=1, ply=2, colour=first)
    assert kept.json() == answer and answer["colour"] == first
    assert position.play(first).play(answer["answer"])  # a legal answer
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert ask(
            client, alice, finished, "analysis/try/", game=1, ply=2, colour=second
        ).json() == {"pending": True}
    assert len(sent) == 1  # the member's earlier try is answered: the next may go


def test_nobody_tries_colours_in_a_match_still_played(client, new_table, alice, bob):
    match = new_table("fast", [alice, bob])
    play_opening(match, [alice, bob], now=T0)
    refused = ask(client, bob, match, "analysis/try/", game=1, ply=2, colour=1)
    assert refused.status_code == 400 and refused.json()["error"] == "invalid"
