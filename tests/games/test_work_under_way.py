"""Work that must not run twice at once is held as a database row
(``games.services.underway``): taken by one, refused to a second, given back, and taken
over once its holder is gone past its expiry."""

import threading
from datetime import timedelta

import pytest
from django.db import connection

from games.models import WorkUnderWay
from games.services.underway import work_begin, work_end, work_hand_over, work_held
from tests.conftest import needs_services
from tests.games.conftest import T0


@pytest.mark.django_db
def test_one_holder_at_a_time_until_given_back():
    assert work_begin("hint:1", now=T0, seconds=30, value=7)
    assert not work_begin("hint:1", now=T0 + timedelta(seconds=29), seconds=30, value=8)
    assert work_held("hint:1", now=T0) == "7"
    assert work_begin("hint:2", now=T0, seconds=30)  # another table's is its own
    work_end("hint:1")
    assert work_held("hint:1", now=T0) is None
    assert work_begin("hint:1", now=T0, seconds=30, value=8)


@pytest.mark.django_db
def test_a_holder_gone_past_its_expiry_is_taken_over():
    assert work_begin("bot-move:1", now=T0, seconds=10, value=3)
    assert work_held("bot-move:1", now=T0 + timedelta(seconds=10)) is None
    assert work_begin("bot-move:1", now=T0 + timedelta(seconds=10), seconds=10, value=4)
    assert work_held("bot-move:1", now=T0 + timedelta(seconds=10)) == "4"
    assert WorkUnderWay.objects.count() == 1


@pytest.mark.django_db
def test_giving_back_and_handing_over_only_what_is_held_for_that_work():
    assert work_begin("analysis-try:1", now=T0, seconds=10, value="a")
    work_end("analysis-try:1", value="b")  # a worker of an earlier try: not its hold
    assert work_held("analysis-try:1", now=T0) == "a"
    assert not work_hand_over("analysis-try:1", held="b", value="c", now=T0, seconds=10)
    assert work_hand_over("analysis-try:1", held="a", value="c", now=T0, seconds=10)
    assert work_held("analysis-try:1", now=T0) == "c"


@needs_services
@pytest.mark.django_db(transaction=True)
def test_two_takers_at_once_one_wins():
    """Threads with their own connections, as two workers: the primary key decides."""
    start, taken = threading.Barrier(6), []

    def taker(value):
        start.wait()
        try:
            taken.append(work_begin("bot-move:9", now=T0, seconds=60, value=value))
        finally:
            connection.close()

    threads = [threading.Thread(target=taker, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(taken) == [False] * 5 + [True]
    assert WorkUnderWay.objects.count() == 1
