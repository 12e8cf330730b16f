"""Arena pages (SPEC §12): the list with countdowns and podiums, an arena's page with its
standings (a constant number of queries however many entrants), entering and
withdrawing with clear refusals, the lobby's and a member's lists, and the arena's socket
that says when the page should look again."""

import json
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services, timing
from lobby import services as lobby
from lobby.models import Arena, ArenaEntry
from tests import timeshift
from tests.lobby.test_arena_play import enter, latest
from tests.moves import play_least

pytestmark = pytest.mark.django_db


def make_arena(**settings) -> Arena:
    now = timing.now()
    values = {
        "name": "Evening arena",
        "variant": "fast",
        "clock": "1+1",
        "starts_at": now - timedelta(minutes=1),
        "minutes": 30,
        **settings,
    }
    arena = lobby.arena_create(**values)
    lobby.arenas_advance(now=now)
    arena.refresh_from_db()
    return arena


def test_join_and_withdraw_through_the_page(client, make_member):
    alice = make_member("alice")
    arena = make_arena()
    page = reverse("arena", args=[arena.pk])
    client.force_login(alice)
    assert b"Join" in client.get(page).content
    response = client.post(reverse("arena_join", args=[arena.pk]))
    assert response.status_code == 302 and response["Location"] == page
    assert ArenaEntry.objects.get(member=alice).active
    assert b"Withdraw" in client.get(page).content
    client.post(reverse("arena_withdraw", args=[arena.pk]))
    assert not ArenaEntry.objects.get(member=alice).active
    assert b"Join again" in client.get(page).content


def test_refusals_are_clear_and_change_nothing(client, make_member):
    alice = make_member("alice")
    over = make_arena(starts_at=timing.now() - timedelta(minutes=40))
    lobby.arenas_advance(now=timing.now())
    client.force_login(alice)
    response = client.post(reverse("arena_join", args=[over.pk]), follow=True)
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "This arena is over: it takes no more players."
    ]
    response = client.post(reverse("arena_withdraw", args=[over.pk]), follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "You are not taking part in this arena."
    ]
    assert ArenaEntry.objects.count() == 0
    assert client.post(reverse("arena_join", args=[99999])).status_code in (302, 404)
    assert client.get(reverse("arena", args=[99999])).status_code == 404
    assert client.get(reverse("arena_join", args=[over.pk])).status_code == 405
    assert ArenaEntry.objects.count() == 0

    # A banned member meets the banned page, and nothing changes.
    alice.banned_at = timing.now()
    alice.save()
    running = make_arena()
    assert client.post(reverse("arena_join", args=[running.pk])).status_code == 403
    assert ArenaEntry.objects.count() == 0
    client.logout()
    response = client.post(reverse("arena_join", args=[running.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_join_needs_the_csrf_token(make_member):
    from django.test import Client

    careful = Client(enforce_csrf_checks=True)
    careful.force_login(make_member("alice"))
    arena = make_arena()
    assert careful.post(reverse("arena_join", args=[arena.pk])).status_code == 403
    assert ArenaEntry.objects.count() == 0


def test_the_standings_cost_the_same_queries_for_3_and_15_entrants(client, make_member):
    arena = make_arena()
    url = reverse("arena_standings", args=[arena.pk])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    enter(arena, *(make_member(f"a{i}") for i in range(3)), present=False)
    few = queries()
    enter(arena, *(make_member(f"b{i}") for i in range(12)), present=False)
    assert queries() == few


def test_pages_share_one_reading_of_the_table_and_a_change_is_read_afresh(client, make_member):
    """The pages that fetch the standings on one message share one reading of the table
    (``arena_table_shown``); a change (a new version) is shown at once."""
    arena = make_arena()
    url = reverse("arena_standings", args=[arena.pk])
    enter(arena, *(make_member(f"a{i}") for i in range(3)), present=False)

    def page() -> tuple[str, list[str]]:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200
        return response.content.decode(), [q["sql"] for q in captured]

    first, read = page()
    again, reread = page()
    assert again == first
    results = [sql for sql in read if "lobby_arenaresult" in sql]
    assert len(results) == 1  # the table's stored results, read once ...
    assert not [sql for sql in reread if "lobby_arenaresult" in sql]  # ... and shared
    assert "late" not in first
    enter(arena, make_member("late"), present=False)  # a new version
    after, read_after = page()
    assert "late" in after
    assert [sql for sql in read_after if "lobby_arenaresult" in sql]


def win_for(arena, winner, loser):
    """A pairing of the two in ``arena`` that ``winner`` wins: every seat makes two moves
    of game 1 (the match counts), then ``loser`` resigns the match."""
    lobby.arenas_pair(now=timing.now())
    match = latest(arena)
    seated = [s.member for s in match.seats.select_related("member").order_by("seat")]
    for _ in range(4):
        play_least(match, seated)
    services.match_resign(match_id=match.pk, user=loser, now=timing.now())
    timeshift.advance(settings.ARENA_PAIRING_SECONDS)
    return match


def standings_row(html: str, username: str) -> str:
    """The table row of ``username`` in the standings."""
    row = re.search(rf'<tr class="[^"]*" data-member="{username}">.*?</tr>', html, re.S)
    assert row is not None, username
    return row.group(0)


def test_the_page_shows_results_fire_and_the_members_own_line(client, make_member):
    alice, bob = make_member("alice"), make_member("bob")
    arena = make_arena()
    enter(arena, alice, bob)
    first, second = win_for(arena, alice, bob), win_for(arena, alice, bob)
    client.force_login(alice)
    html = client.get(reverse("arena", args=[arena.pk])).content.decode()
    assert "arena-standings" in html
    mine, theirs = standings_row(html, "alice"), standings_row(html, "bob")
    # Two wins in a row: alice is on fire; bob is not.
    assert 'class="fire"' in mine and 'class="fire"' not in theirs
    # The member's own line is marked as theirs, the other's not.
    assert mine.startswith('<tr class="mine"') and theirs.startswith('<tr class=""')
    # Each line links both scored matches, 2 points a win and 0 a loss.
    for match in (first, second):
        assert f'href="/match/{match.pk}/"' in mine and f'href="/match/{match.pk}/"' in theirs
    assert re.findall(r'class="arena-result win"[^>]*>(\d+)<', mine) == ["2", "2"]
    assert re.findall(r'class="arena-result loss"[^>]*>(\d+)<', theirs) == ["0", "0"]


def test_the_list_the_lobby_and_the_members_page(client, make_member):
    alice, bob = make_member("alice"), make_member("bob")
    running = make_arena(name="Running one")
    upcoming = lobby.arena_create(
        name="Later one",
        variant="classic",
        clock="3+2",
        starts_at=timing.now() + timedelta(hours=2),
        minutes=60,
    )
    enter(running, alice, bob)
    win_for(running, alice, bob)
    lobby.arenas_advance(now=timing.now() + timedelta(minutes=31))
    running.refresh_from_db()
    assert running.status == Arena.Status.FINISHED
    assert [p["username"] for p in running.podium] == ["alice", "bob"]

    listing = client.get(reverse("arenas")).content.decode()
    assert "Running one" in listing and "Later one" in listing
    assert running.podium[0]["username"] in listing
    home = client.get(reverse("home")).content.decode()
    assert "Later one" in home and "Running one" not in home  # finished: off the lobby
    arenas = home[home.index('class="lobby-arenas"') :]
    arenas = arenas[: arenas.index("</section>")]
    assert "None." not in arenas  # no "None." above the one coming up: nothing runs
    assert arenas.count("<table") == 1
    profile = client.get(reverse("profile", args=["alice"])).content.decode()
    assert ArenaEntry.objects.get(arena=running, member=alice).rank == 1
    assert "place 1" in profile
    upcoming.refresh_from_db()
    assert upcoming.status == Arena.Status.UPCOMING  # still to come two hours on


def test_an_arena_nobody_entered_says_so_in_the_tense_of_its_status(client):
    arena = make_arena(name="Quiet one")
    page = reverse("arena", args=[arena.pk])
    assert "Nobody has joined yet." in client.get(page).content.decode()
    lobby.arenas_advance(now=timing.now() + timedelta(minutes=31))
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    finished = client.get(page).content.decode()
    assert "Nobody took part." in finished and "Nobody has joined yet." not in finished
    spanish = client.get("/es" + page).content.decode()
    assert "Nadie participó." in spanish


@pytest.mark.django_db(transaction=True)
async def test_the_arenas_socket_says_when_to_look_again(make_member):
    from config.asgi import application

    alice = await sync_to_async(make_member)("alice")
    arena = await sync_to_async(make_arena)()
    socket = WebsocketCommunicator(
        application,
        f"/ws/arena/{arena.pk}/",
        headers=[(b"host", b"testserver"), (b"origin", b"http://testserver")],
    )
    connected, _ = await socket.connect()
    assert connected
    # First the version as the socket opened: the page compares it with its own.
    first = json.loads(await socket.receive_from(timeout=5))
    assert first == {"type": "arena", "version": arena.version}
    await socket.send_to(text_data=json.dumps({"type": "ping"}))
    assert json.loads(await socket.receive_from(timeout=5)) == {"type": "pong"}
    await sync_to_async(lobby.arena_join)(arena_id=arena.pk, member=alice, now=timing.now())
    message = json.loads(await socket.receive_from(timeout=5))
    assert message == {"type": "arena", "version": arena.version + 1}
    await socket.disconnect()


def test_an_arena_without_a_name_is_called_by_its_settings_in_the_readers_language(client):
    """An arena created without a name (the schedules' and the demo's) reads in each
    language; a moderator's name stays as written, and the API gives the English name, as
    it gives the variants' names."""
    plain = make_arena(name="")
    hexes = make_arena(name="  ", variant="hex", clock="3+2")
    named = make_arena(name="Friday night")
    assert plain.name == hexes.name == ""
    expected = {
        "en": ("Fast 1+1 arena", "Hexagons 3+2 arena"),
        "bg": ("Бърза арена 1+1", "Арена с шестоъгълници 3+2"),
        "el": ("Γρήγορη αρένα 1+1", "Αρένα εξαγώνων 3+2"),
        "pt": ("Arena Rápida 1+1", "Arena de hexágonos 3+2"),
        "nl": ("Snelle arena 1+1", "Zeshoekenarena 3+2"),
        "es": ("Arena Rápida 1+1", "Arena de hexágonos 3+2"),
    }
    for language, (fast, hexagons) in expected.items():
        prefix = "" if language == "en" else f"/{language}"
        page = client.get(f"{prefix}/arenas/{plain.pk}/").content.decode()
        assert f"<h1>{fast}</h1>" in page, language
        listing = client.get(f"{prefix}/arenas/").content.decode()
        assert f">{fast}</a>" in listing and f">{hexagons}</a>" in listing, language
        assert ">Friday night</a>" in listing, language
    api = client.get(f"/api/arenas/{plain.pk}/").json()
    assert api["name"] == "Fast 1+1 arena"
    bulgarian = client.get(f"/api/arenas/{plain.pk}/", HTTP_ACCEPT_LANGUAGE="bg").json()
    assert bulgarian["name"] == "Fast 1+1 arena"  # the API's data is in English
    assert client.get(f"/api/arenas/{named.pk}/").json()["name"] == "Friday night"


def test_every_arena_variant_has_a_title():
    from lobby.models import ARENA_TITLES, ARENA_VARIANTS

    assert set(ARENA_TITLES) == set(ARENA_VARIANTS)


@pytest.mark.django_db(transaction=True)
def test_arenas_named_by_their_settings_in_english_lose_the_name_and_get_it_back():
    """Migration lobby 0007: the English names arenas had by their settings ("Fast 8×7
    1+1 arena", the demo's "Fast 1+1 arena") become empty, so the arena is called by its
    settings in the reader's language; a moderator's own name stays; back, the empty names
    are English again."""
    from django.core.management import call_command

    old = [
        make_arena(name="Fast 8×7 1+1 arena"),
        make_arena(name="Classic 3+2 arena", variant="classic", clock="3+2"),
        make_arena(name="Fast 3+2 arena"),  # not its clock: a name of its own
    ]
    try:
        call_command("migrate", "lobby", "0006", verbosity=0)
        call_command("migrate", "lobby", "0007", verbosity=0)
        assert [Arena.objects.get(pk=a.pk).name for a in old] == ["", "", "Fast 3+2 arena"]
        call_command("migrate", "lobby", "0006", verbosity=0)
        assert [Arena.objects.get(pk=a.pk).name for a in old] == [
            "Fast 1+1 arena",
            "Classic 3+2 arena",
            "Fast 3+2 arena",
        ]
    finally:
        call_command("migrate", "lobby", verbosity=0)
