"""What a newcomer finds in the lobby: the table the computer hosts in the demo (always one
waiting, never withdrawn, a match against the computer once a member joins it), the
member's own games in progress, and members found by the start of their name."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction

from accounts.selectors import members_named
from games import services
from games.models import Match, Seat
from lobby import services as lobby_services
from lobby.selectors import games_in_progress
from tests.timeshift import T0

pytestmark = pytest.mark.django_db


def house_table() -> Match:
    return lobby_services.house_table_keep(now=T0)


# --- the demo's table that the computer hosts -------------------------------------------


def test_the_computer_keeps_one_table_waiting():
    table = house_table()
    assert table.status == Match.Status.WAITING and table.house == Match.House.TABLE
    assert table.created_by is None and not table.rated and not table.private
    seats = list(Seat.objects.filter(match=table))
    assert [(seat.seat, seat.member_id, seat.bot_level) for seat in seats] == [(0, None, 2)]
    assert house_table().pk == table.pk  # asked again: the same table
    with pytest.raises(IntegrityError), transaction.atomic():  # and never a second one
        Match.objects.create(
            variant="fast", format="match", seed=1, board=table.board, house=Match.House.TABLE
        )


def test_a_member_who_joins_plays_the_computer_and_another_table_opens(make_member):
    alice = make_member("alice")
    table = house_table()
    match = lobby_services.table_join(member=alice, match_id=table.pk, now=T0)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and not match.rated
    seats = {seat.seat: seat for seat in Seat.objects.filter(match=match)}
    assert seats[0].bot_level == 2 and seats[0].member_id is None
    assert seats[1].member_id == alice.pk
    assert house_table().pk != table.pk  # beat opens the next one


def test_the_computers_table_is_never_withdrawn_for_a_host_gone(make_member):
    table = house_table()
    later = T0 + timedelta(hours=1)
    assert lobby_services.hosts_gone_withdraw(now=later) == 0
    assert Match.objects.filter(pk=table.pk, status=Match.Status.WAITING).exists()


def test_the_lobby_shows_the_computer_as_host_and_no_cancel_to_a_visitor(client):
    table = house_table()
    page = client.get("/").content.decode()
    assert f'data-table="{table.pk}"' in page
    assert "Computer (level 2)" in page
    assert f"/tables/{table.pk}/cancel/" not in page
    assert "Log in to join" in page
    waiting = client.get(f"/match/{table.pk}/").content.decode()
    assert "Computer (level 2)" in waiting
    api = client.get("/api/tables/").json()["tables"]
    assert api[0]["host"] is None
    assert api[0]["seats"] == [
        {"seat": "A", "username": None, "title": None, "bot": 2, "rating": None}
    ]


def test_the_beat_task_keeps_it_only_where_the_demo_asks(settings):
    from lobby.tasks import house_table_keep

    settings.HOUSE_TABLE = False
    assert house_table_keep() is None
    assert not Match.objects.exists()
    settings.HOUSE_TABLE = True
    kept = house_table_keep()
    assert Match.objects.get(status=Match.Status.WAITING).pk == kept


def test_seed_demo_opens_what_make_run_keeps(settings):
    from django.core.management import call_command

    settings.DEBUG = True
    settings.HOUSE_TABLE = True
    settings.TV_HOUSE_MATCH = True
    call_command("seed_demo")
    call_command("seed_demo")  # idempotent
    assert Match.objects.filter(house=Match.House.TABLE, status="waiting").count() == 1
    assert Match.objects.filter(house=Match.House.TV, status="playing").count() == 1


# --- the member's games in progress -----------------------------------------------------


def test_the_lobby_lists_the_members_own_games_in_progress(
    make_member, client, django_assert_num_queries
):
    alice, bob, carol = (make_member(n) for n in ("alice", "bob", "carol"))
    public = services.match_create(variant="fast", members=[alice, bob], now=T0)
    private = services.match_create(variant="fast", members=[carol, alice], now=T0, private=True)
    practice = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=T0
    )
    services.match_create(variant="fast", members=[bob, carol], now=T0)  # not hers
    over = services.match_create(variant="fast", members=[alice, carol], now=T0)
    services.match_abort(match_id=over.pk, now=T0)
    lobby_services.table_open(
        host=alice, variant="fast", clock="", single_game=False, rated=False, private=False, now=T0
    )  # waiting: not in progress
    with django_assert_num_queries(2):
        rows = games_in_progress(alice)
    assert {row.match.pk for row in rows} == {public.pk, private.pk, practice.pk}
    opponents = {row.match.pk: [seat.display_name for seat in row.opponents] for row in rows}
    assert opponents[public.pk] == ["bob"] and opponents[private.pk] == ["carol"]
    assert opponents[practice.pk] == ["Computer (level 1)"]

    client.force_login(alice)
    page = client.get("/lobby/lists/").content.decode()
    assert 'id="my-games"' in page
    assert f'href="/t/{private.token}/"' in page and f'href="/match/{public.pk}/"' in page
    client.force_login(make_member("zoe"))
    assert 'id="my-games"' not in client.get("/").content.decode()
    assert games_in_progress(AnonymousUser()) == []


# --- members found by their name ----------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    ["al", "AL", "al1", "ALI", "Alice", "  alic ", "аli", "ＡＬＩ", "Alİ"],
)
def test_members_are_found_by_the_start_of_their_name_as_it_looks(make_member, typed):
    make_member("Alice")
    make_member("malik")  # "ali" inside, not at the start
    make_member("bob")
    assert members_named(typed) == ["Alice"]


def test_members_found_in_name_order_without_those_gone(make_member):
    for name in ("alfred", "Alice", "alba"):
        make_member(name)
    make_member("alan", is_active=False)
    assert members_named("al") == ["alba", "alfred", "Alice"]
    assert members_named("") == [] and members_named("   ") == []
    assert members_named("%") == [] and members_named("_") == []
    assert members_named("a", limit=2) == ["alba", "alfred"]


def test_members_page_open_to_visitors(client, make_member, django_assert_max_num_queries):
    make_member("Alice")
    page = client.get("/members/", {"q": "al1"})
    assert page.status_code == 200
    assert 'href="/@/Alice/"' in page.content.decode()
    assert 'id="member-results-empty"' in client.get("/members/?q=zzz").content.decode()
    assert client.get("/members/").status_code == 200
    assert client.get("/members/", {"q": "x" * 5000}).status_code == 200
    with django_assert_max_num_queries(3):
        client.get("/members/", {"q": "al"})
