"""Ratings that cannot be farmed (SPEC §3, §4): a resignation before every seat moved
aborts unrated, and a pair plays at most ``RATED_MATCHES_PER_PAIR`` rated matches a day."""

from datetime import timedelta

import pytest

from games import services
from ratings.models import RatedMatch
from tests.games.conftest import T0
from tests.games.table_sockets import fresh
from tests.moves import play_one, play_opening

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_resignation_before_every_seat_moved_aborts_unrated(new_table, alice, bob):
    match = new_table("fast", [alice, bob], clock="3+2", rated=True)
    play_one(match, [alice, bob], now=T0)  # alice moved, bob has not
    services.match_resign(match_id=match.pk, user=bob, now=T0)
    ended = fresh(match)
    assert ended.status == "aborted" and ended.result_reason == "aborted"
    assert not RatedMatch.objects.exists()


def test_ten_rated_matches_a_pair_a_day(settings, client, new_table, alice, bob, carol):
    settings.RATED_MATCHES_PER_PAIR = 2
    for _ in range(2):
        match = services.match_create(
            variant="fast", members=[alice, bob], now=T0, clock="3+2", rated=True
        )
        play_opening(match, [alice, bob], now=T0)
        services.match_resign(match_id=match.pk, user=bob, now=T0)
    assert RatedMatch.objects.count() == 2
    third = services.match_create(
        variant="fast", members=[alice, bob], now=T0, clock="3+2", rated=True
    )
    assert not third.rated  # the pair's day is full
    with_carol = services.match_create(
        variant="fast", members=[alice, carol], now=T0, clock="3+2", rated=True
    )
    assert with_carol.rated
    later = services.match_create(
        variant="fast", members=[alice, bob], now=T0 + timedelta(hours=25), clock="3+2", rated=True
    )
    assert later.rated
    # Told before it starts: the other member's page says so.
    client.force_login(alice)
    page = client.get("/@/bob/").content.decode()
    assert 'id="unrated-pair"' in page
    assert 'id="unrated-pair"' not in client.get("/@/carol/").content.decode()
