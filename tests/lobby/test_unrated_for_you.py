"""A rated table in the lobby that would start unrated for the member looking (SPEC §4,
§10: a pair plays at most ``RATED_MATCHES_PER_PAIR`` rated matches a day) says "Unrated
for you" before they join, on the lobby page and in the lists its live updates fetch;
the same function decides as when the match starts."""

import re

import pytest

from games import services
from lobby import services as lobby
from tests.moves import play_opening
from tests.timeshift import T0

pytestmark = pytest.mark.django_db

UNRATED_FOR_YOU = "Unrated for you"


@pytest.fixture
def people(make_member, settings):
    """alice and bob have played their rated matches of the day together."""
    settings.RATED_MATCHES_PER_PAIR = 2
    alice, bob, carol = (make_member(n) for n in ("alice", "bob", "carol"))
    for _ in range(2):
        match = services.match_create(
            variant="fast", members=[alice, bob], now=T0, clock="3+2", rated=True
        )
        play_opening(match, [alice, bob], now=T0)
        services.match_resign(match_id=match.pk, user=bob, now=T0)
    return alice, bob, carol


def rated_table(host, variant="fast"):
    settings = {"variant": variant, "clock": "3+2", "single_game": False, "rated": True}
    return lobby.table_open(host=host, private=False, now=T0, **settings)


def row(page: str, table) -> str:
    found = re.search(rf'<tr data-table="{table.pk}">.*?</tr>', page, re.S)
    assert found, f"table {table.pk} is not listed"
    return found.group(0)


@pytest.mark.parametrize("path", ["/", "/lobby/lists/"])
def test_a_rated_table_that_would_start_unrated_says_so_to_that_member(
    client, people, make_member, path
):
    alice, bob, carol = people
    bobs, carols = rated_table(bob), rated_table(carol)
    client.force_login(alice)
    page = client.get(path).content.decode()
    assert "Rated" in row(page, bobs) and UNRATED_FOR_YOU in row(page, bobs)
    assert UNRATED_FOR_YOU not in row(page, carols)
    # For anyone else, and for a visitor, bob's table is rated as it says.
    client.force_login(make_member("dave"))
    assert UNRATED_FOR_YOU not in client.get(path).content.decode()
    client.logout()
    assert UNRATED_FOR_YOU not in client.get(path).content.decode()


def test_the_lobby_says_what_the_start_does(client, people):
    alice, bob, carol = people
    bobs, carols = rated_table(bob), rated_table(carol)
    client.force_login(alice)
    page = client.get("/lobby/lists/").content.decode()
    assert UNRATED_FOR_YOU in row(page, bobs) and UNRATED_FOR_YOU not in row(page, carols)
    started = lobby.table_join(member=alice, match_id=bobs.pk, now=T0)
    assert started.status == "playing" and not started.rated
    started = lobby.table_join(member=bob, match_id=carols.pk, now=T0)
    assert started.status == "playing" and started.rated


def challenge_line(page: str, challenger: str) -> str:
    pattern = rf'<li class="challenge received"[^>]*>\s*{challenger} challenges you.*?</li>'
    found = re.search(pattern, page, re.S)
    assert found, f"no challenge of {challenger}'s is listed"
    return found.group(0)


def test_a_rated_challenge_that_would_start_unrated_says_so(client, people):
    alice, bob, carol = people
    for challenger in (bob, carol):
        lobby.challenge_send(
            challenger=challenger,
            challenged=alice,
            variant="fast",
            clock="3+2",
            single_game=False,
            rated=True,
            now=T0,
        )
    client.force_login(alice)
    page = client.get("/lobby/lists/").content.decode()
    assert UNRATED_FOR_YOU in challenge_line(page, "bob")
    assert UNRATED_FOR_YOU not in challenge_line(page, "carol")
