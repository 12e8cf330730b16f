"""The lobby page and members' pages: what they show, in a fixed number of queries
whatever the number of tables and matches; the JSON list of waiting tables."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import services
from games.models import Match
from lobby import services as lobby_services
from tests.moves import play_opening, played
from tests.timeshift import T0

pytestmark = pytest.mark.django_db


def fill(make_member, tables: int, matches: int, prefix: str):
    """``tables`` waiting tables and ``matches`` finished matches of one member."""
    hero = make_member(f"{prefix}hero")
    for index in range(tables):
        host = make_member(f"{prefix}host{index}")
        lobby_services.table_open(
            host=host,
            variant="fast",
            clock="3+2",
            single_game=False,
            rated=index % 2 == 0,
            private=False,
            now=T0,
        )
    for index in range(matches):
        rival = make_member(f"{prefix}rival{index}")
        match = services.match_create(variant="fast", members=[hero, rival], now=T0, seed=index)
        play_opening(match, [hero, rival], now=T0)
        services.match_resign(match_id=match.pk, user=rival, now=T0)
    return hero


def queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return len(captured)


def test_the_lobby_runs_the_same_queries_for_5_and_100_tables(client, make_member):
    viewer = make_member("viewer")
    client.force_login(viewer)
    fill(make_member, 5, 0, "a")
    few = queries(client, "/")
    fill(make_member, 95, 0, "b")
    assert Match.objects.filter(status="waiting").count() == 100
    many = queries(client, "/")
    assert few == many
    assert queries(client, "/lobby/lists/") <= few


def test_a_members_page_runs_the_same_queries_for_5_and_100_matches(client, make_member):
    client.force_login(make_member("viewer"))
    few_hero = fill(make_member, 0, 5, "a")
    many_hero = fill(make_member, 0, 100, "b")
    assert queries(client, f"/@/{few_hero.username}/") == queries(
        client, f"/@/{many_hero.username}/"
    )


def test_a_members_page_shows_results_from_their_side(client, make_member):
    hero = fill(make_member, 0, 3, "x")
    client.force_login(make_member("viewer"))
    page = client.get(f"/@/{hero.username}/").content.decode()
    assert page.count('class="outcome won"') == 3
    assert 'href="/@/xrival0/"' in page
    assert "ago" in page  # last seen, for members
    assert 'action="/@/xhero/challenge/"' in page
    anonymous = client.__class__().get(f"/@/{hero.username}/").content.decode()
    assert "Last seen" not in anonymous


def test_a_members_page_names_the_computer_without_a_link(client, make_member):
    """A practice match's opponent is the computer, not a member: named, not linked (its
    name linked to a member's page that does not exist)."""
    hero = fill(make_member, 0, 1, "c")
    services.practice_start(
        member=hero, board="fast", level=2, member_starts=True, clock="", now=T0
    )
    client.force_login(hero)
    with translation.override("es"):
        page = client.get(f"/es/@/{hero.username}/").content.decode()
    assert '<span class="member bot">Ordenador (nivel 2)</span>' in page
    assert 'href="/es/@/Ordenador' not in page and 'href="/es/@/crival0/"' in page


def test_members_pages_are_paginated(client, make_member):
    hero = fill(make_member, 0, 25, "p")
    first = client.get(f"/@/{hero.username}/").content.decode()
    second = client.get(f"/@/{hero.username}/?page=2").content.decode()
    assert first.count("data-match=") == 20 and second.count("data-match=") == 5


def test_the_api_lists_waiting_public_tables(client, make_member):
    fill(make_member, 2, 0, "z")
    host = make_member("secret")
    lobby_services.table_open(
        host=host, variant="fast", clock="", single_game=False, rated=False, private=True, now=T0
    )
    response = client.get("/api/tables/")
    assert response["Access-Control-Allow-Origin"] == "*"
    tables = response.json()["tables"]
    assert [t["host"] for t in tables] == ["zhost0", "zhost1"]
    first = tables[0]
    assert first["variant"] == "fast" and first["clock"] == "3+2" and first["format"] == "match"
    assert first["rated"] is True and first["free_seats"] == 1
    assert first["seats"] == [
        {"seat": "A", "username": "zhost0", "title": None, "bot": None, "rating": None}
    ]
    assert first["created"].startswith("20") and "T" in first["created"]


def test_seed_demo_fills_the_lobby(settings):
    from django.core.management import call_command

    settings.DEBUG = True
    call_command("seed_demo")
    call_command("seed_demo")  # idempotent
    assert Match.objects.filter(status="waiting").count() == 3
    assert Match.objects.filter(status="playing").count() == 1


def test_seed_demo_again_after_its_arenas_ended_opens_new_ones(settings):
    # make run, stopped for a day, run again: the arenas of the first run still say
    # "running" and "upcoming" in the database, though both have ended; a new running one
    # and a new upcoming one are opened, not none.
    from django.core.management import call_command

    from lobby.models import Arena
    from tests import timeshift

    settings.DEBUG = True
    timeshift.set_now(T0)
    call_command("seed_demo")
    first = set(Arena.objects.values_list("pk", flat=True))
    assert len(first) == 2
    timeshift.set_now(T0 + timedelta(days=1))
    call_command("seed_demo")
    assert set(Arena.objects.filter(pk__in=first).values_list("status", flat=True)) == {"finished"}
    fresh = Arena.objects.exclude(pk__in=first)
    assert sorted(fresh.values_list("status", flat=True)) == ["running", "upcoming"]


def test_a_members_page_gives_the_viewers_record_against_them(client, make_member):
    """ann, on ben's page, reads how their finished matches went for her (a private one
    too, which both played) and follows the link to just those matches on her own page; a
    match of either with someone else, and one still under way, are not in it."""
    ann, ben, cat = make_member("ann"), make_member("ben"), make_member("cat")
    played([ann, ben], ben)
    played([ben, ann], ann)
    played([ann, ben], ben, private=True)
    played([ann, cat], ann)
    played([ben, cat], cat)
    services.match_create(variant="fast", members=[ann, ben], now=T0)  # under way
    client.force_login(ann)
    page = client.get("/@/ben/").content.decode()
    assert "You and ben: 3 finished matches" in page
    assert "you won 2, drew 0, lost 1" in page
    assert 'href="/@/ann/?vs=ben#matches"' in page
    own = client.get("/@/ann/?vs=ben").content.decode()
    assert "Matches against ben" in own
    assert own.count("data-match=") == 4  # the three, and the one under way
    assert own.count('class="outcome won"') == 2 and own.count('class="outcome lost"') == 1
    assert client.get("/@/ann/").content.decode().count("data-match=") == 5

    client.force_login(cat)
    assert "You and ben: 1 finished match" in client.get("/@/ben/").content.decode()
    # Anyone may filter a page; the private match shows only to its own players.
    assert client.__class__().get("/@/ben/?vs=ann").content.decode().count("data-match=") == 3
    assert client.get("/@/ben/?vs=nobody").status_code == 404
    assert client.get("/@/ben/?vs=ben").status_code == 404


def test_no_record_shows_between_members_who_never_finished_a_match(client, make_member):
    ann, _ben = make_member("ann"), make_member("ben")
    client.force_login(ann)
    assert 'id="head-to-head"' not in client.get("/@/ben/").content.decode()
    assert "No matches against ann." in client.get("/@/ben/?vs=ann").content.decode()


def test_a_table_of_two_members_shows_their_score_against_each_other(client, make_member):
    """Under the match score, everyone reads the two players' score in the public matches
    they finished against each other (a private one stays theirs), linking to those
    matches; a first meeting and a table with the computer show none."""
    ann, ben = make_member("ann"), make_member("ben")
    first = services.match_create(variant="fast", members=[ann, ben], now=T0)
    assert 'id="head-to-head"' not in client.get(f"/match/{first.pk}/").content.decode()
    play_opening(first, [ann, ben], now=T0)
    services.match_resign(match_id=first.pk, user=ben, now=T0)
    played([ben, ann], ann)
    played([ben, ann], ann, private=True)
    now = services.match_create(variant="fast", members=[ben, ann], now=T0)
    page = client.get(f"/match/{now.pk}/").content.decode()
    assert 'href="/@/ben/?vs=ann#matches"' in page
    assert "ben 1 – 1 ann" in page
    with translation.override("es"):
        assert "Cara a cara" in client.get(f"/es/match/{first.pk}/").content.decode()
    practice = services.practice_start(
        member=ann, board="fast", level=1, member_starts=True, clock="", now=T0
    )
    assert 'id="head-to-head"' not in client.get(f"/match/{practice.pk}/").content.decode()
