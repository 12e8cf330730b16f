"""The Celery side: updates after commit, and the per-scale lock (real PostgreSQL)."""

import threading

import pytest
from django.db import DatabaseError, connection, transaction

from config.celery import app
from ratings import services
from ratings.models import RatedMatch, RatingChange, ScaleLock
from ratings.selectors import current_ratings
from tests.conftest import needs_services
from tests.ratings.conftest import T0, random_history

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def eager():
    """Queued tasks run at once, in this thread (the update's own logic is what is tested)."""
    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was


def test_the_update_runs_once_the_finishing_transaction_commits(members, eager):
    alice, bob = members[:2]
    with transaction.atomic():
        services.match_result_record(
            scale="fast", match_id=7, finished_at=T0, pairings=[(alice.pk, bob.pk, 1.0)]
        )
        assert not RatingChange.objects.exists()
    assert RatingChange.objects.count() == 2
    assert current_ratings([alice.pk], "fast")[alice.pk].rating > 1500


def test_a_rolled_back_finish_records_and_rates_nothing(members, eager):
    alice, bob = members[:2]
    with pytest.raises(RuntimeError), transaction.atomic():
        services.match_result_record(
            scale="fast", match_id=7, finished_at=T0, pairings=[(alice.pk, bob.pk, 1.0)]
        )
        raise RuntimeError("the match could not be finished")
    assert not RatedMatch.objects.exists() and not RatingChange.objects.exists()


def test_annulling_queues_the_recalculation_after_commit(members, eager):
    ids = random_history("hex", members, 6)
    for match_id in ids:
        services.match_rating_update(match_id=match_id)
    services.match_annul(match_id=ids[2], by=members[5], reason="Result entered twice")
    assert not RatingChange.objects.filter(rated_match_id=ids[2]).exists()
    assert RatingChange.objects.filter(scale="hex").count() == 2 * 5
    assert not RatedMatch.objects.get(pk=ids[2]).applied


def _lockable(scale: str) -> bool:
    """From another connection: can the scale's lock be taken right now?"""
    result = []

    def attempt():
        try:
            if connection.vendor == "sqlite":  # its one writer: refused after 0.2 s, not 20
                with connection.cursor() as cursor:
                    cursor.execute("PRAGMA busy_timeout = 200")
            with transaction.atomic():
                list(ScaleLock.objects.select_for_update(nowait=True).filter(scale=scale))
            result.append(True)
        except DatabaseError:
            result.append(False)
        finally:
            connection.close()

    thread = threading.Thread(target=attempt)
    thread.start()
    thread.join()
    return result[0]


@needs_services
@pytest.mark.postgres  # row locks: SQLite's one writer locks every scale at once
def test_a_recalculation_holds_its_scales_lock_and_only_that_one(members):
    random_history("fast", members, 3)
    for scale in ("fast", "classic"):
        services.scale_recalculate(scale=scale)  # the lock rows exist from now on
    seen = []

    def probe(done, total):
        seen.append((_lockable("fast"), _lockable("classic")))

    services.scale_recalculate(scale="fast", progress=probe)
    assert seen == [(False, True)]
    assert _lockable("fast")


@needs_services
def test_an_update_holds_the_lock_of_its_scale(members, monkeypatch):
    from ratings import updates

    alice, bob = members[:2]
    services.scale_recalculate(scale="classic")
    services.match_result_record(
        scale="classic", match_id=3, finished_at=T0, pairings=[(alice.pk, bob.pk, 0.5)]
    )
    seen = []
    real_replay = updates._replay

    def replay(*args):
        seen.append(_lockable("classic"))
        return real_replay(*args)

    monkeypatch.setattr(updates, "_replay", replay)
    assert services.match_rating_update(match_id=3) == 1
    assert seen == [False]
