"""Celery tasks with a real worker on the real broker (Redis in CI)."""

import time

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from games import services, tasks
from games.models import Game, Match
from tests import timeshift
from tests.conftest import needs_services
from tests.games.conftest import T0
from tests.moves import play_opening

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


@pytest.fixture
def worker():
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["default", "clocks"]):
        yield


def wait_for(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)  # polls for the worker's result; no time is meant to pass
    return False


def test_worker_starts_the_next_game_once_the_break_is_over(worker, fast_table, alice, bob):
    play_opening(fast_table, [alice, bob])
    services.game_resign(match_id=fast_table.pk, user=alice, now=T0)
    tasks.match_tick.delay(fast_table.pk)  # too early: nothing happens
    timeshift.advance(61)
    tasks.match_tick.delay(fast_table.pk)
    assert wait_for(lambda: Match.objects.get(pk=fast_table.pk).status == Match.Status.PLAYING)
    assert Game.objects.filter(match=fast_table).count() == 2
