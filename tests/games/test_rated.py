"""A rated match hands its result to ratings (SPEC §4) as plain data when it finishes,
and its table shows the new ratings once the worker updated them; unrated and aborted
matches hand nothing."""

import time

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from games import selectors, services
from ratings import tasks as rating_tasks
from ratings.models import Pairing, RatedMatch, RatingChange
from tests.conftest import needs_services
from tests.games.conftest import T0
from tests.moves import play_opening


def finish_by_resignation(match, loser):
    play_opening(match, [seat.member for seat in match.seats.order_by("seat")], now=T0)
    services.match_resign(match_id=match.pk, user=loser, now=T0)


@pytest.mark.django_db
def test_a_finished_rated_match_is_recorded_and_rated(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2", rated=True)
    finish_by_resignation(match, bob)
    record = RatedMatch.objects.get(pk=match.pk)
    assert record.scale == "fast"
    pairs = list(
        Pairing.objects.values_list(
            "player__member__username", "opponent__member__username", "score"
        )
    )
    assert pairs == [("alice", "bob", 1.0)]
    rating_tasks.rating_update(match.pk)
    services.table_refresh(match_id=match.pk, now=T0)
    changes = selectors.table_state(match.pk)["match"]["rating_changes"]
    by_seat = {c["seat"]: c for c in changes}
    assert by_seat["A"]["change"] > 0 > by_seat["B"]["change"]
    assert by_seat["A"]["before"] == by_seat["B"]["before"] == 1500


@pytest.mark.django_db
def test_unrated_and_aborted_matches_hand_nothing(new_table, alice, bob, carol):
    unrated = new_table("fast", [alice, bob], clock="3+2")
    finish_by_resignation(unrated, bob)
    aborted = new_table("fast", [alice, carol], clock="3+2", rated=True)
    services.match_tick(match_id=aborted.pk, now=T0.replace(minute=5))
    aborted.refresh_from_db()
    assert aborted.status == "aborted"
    assert not RatedMatch.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("variant", "pairs"), [("four", 6), ("pairs", 4)])
def test_four_players_and_pairs_are_recorded_pairwise(new_table, make_member, variant, pairs):
    members = [make_member(name) for name in ("p1", "p2", "p3", "p4")]
    match = new_table(variant, members, clock="5+3", rated=True)
    play_opening(match, members, now=T0)
    services.match_resign(match_id=match.pk, user=members[0], now=T0)
    if variant == "four":  # the others play on; two more leave and the last one wins
        services.match_resign(match_id=match.pk, user=members[1], now=T0)
        services.match_resign(match_id=match.pk, user=members[2], now=T0)
    assert Pairing.objects.filter(rated_match_id=match.pk).count() == pairs


@needs_services
@pytest.mark.django_db(transaction=True)
def test_the_worker_rates_the_match_and_the_table_shows_it(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2", rated=True)
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["default"]):
        finish_by_resignation(match, bob)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            state = selectors.table_state(match.pk)
            if state["match"]["rating_changes"]:
                break
            time.sleep(0.05)  # polls for the worker's result
    assert state["match"]["rating_changes"]
    assert RatingChange.objects.filter(rated_match_id=match.pk).count() == 2
