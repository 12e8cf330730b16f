"""Bot accounts (SPEC §15): the upgrade over the API, for members who never played; the
BOT mark in the API and on the pages; what a bot may not do (tables, Play now, practice,
arenas, moves from its table's page) and its presence through its streams only."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from games import selectors, services, timing
from games.errors import TableError
from games.models import Match, Presence, Seat
from lobby import services as lobby
from tests.games.table_sockets import cookie_of, opened
from tests.timeshift import T0

pytestmark = pytest.mark.django_db(transaction=True)


def token_of(member, scopes=("bot:play",)) -> str:
    return accounts.token_create(
        member=member, description="bot", scopes=list(scopes), now=timezone.now()
    )[1]


def open_table(host, now):
    """A waiting Fast table of the host's, unrated."""
    return lobby.table_open(
        host=host,
        variant="fast",
        clock="3+2",
        single_game=False,
        rated=False,
        private=False,
        now=now,
    )


def upgrade(client, raw: str):
    return client.post("/api/bot/account/upgrade", HTTP_AUTHORIZATION=f"Bearer {raw}")


@pytest.fixture
def bot(make_member, client):
    member = make_member("robo")
    assert upgrade(client, token_of(member)).status_code == 200
    member.refresh_from_db()
    return member


def test_the_upgrade_needs_a_token_with_bot_play(client, make_member):
    alice = make_member("alice")
    assert client.post("/api/bot/account/upgrade").status_code == 401
    wrong = upgrade(client, token_of(alice, ["challenge:write"]))
    assert wrong.status_code == 403 and wrong.json()["error"] == "missing_scope"
    assert upgrade(client, "vog_nothing").status_code == 401
    get = client.get("/api/bot/account/upgrade", HTTP_AUTHORIZATION=f"Bearer {token_of(alice)}")
    assert get.status_code == 405
    alice.refresh_from_db()
    assert not alice.is_bot


def test_a_member_who_never_played_becomes_a_bot_for_good(client, make_member):
    alice = make_member("alice")
    raw = token_of(alice)
    answer = upgrade(client, raw)
    assert (answer.status_code, answer.json()) == (200, {"ok": True})
    alice.refresh_from_db()
    assert alice.is_bot
    assert upgrade(client, raw).status_code == 200  # asking again answers the same


def test_a_member_who_played_or_waits_or_is_in_an_arena_stays_a_member(client, make_member):
    alice, bob, carol, dan = (make_member(n) for n in ("alice", "bob", "carol", "dan"))
    services.match_create(variant="fast", members=[alice, bob], now=T0)  # in play
    open_table(carol, T0)
    arena = lobby.arena_create(
        name="Hourly", variant="fast", clock="1+1", minutes=30, starts_at=T0 + timedelta(hours=1)
    )
    lobby.arena_join(arena_id=arena.pk, member=dan, now=T0)
    for member in (alice, carol, dan):
        answer = upgrade(client, token_of(member))
        assert answer.status_code == 403, member
        assert answer.json()["error"] == "not_allowed" and answer.json()["message"]
        member.refresh_from_db()
        assert not member.is_bot
    # An aborted match never counted as played.
    match = Match.objects.get(seats__member=alice)
    services.match_abort_unplayed(match_id=match.pk, user=alice, now=T0)
    assert upgrade(client, token_of(alice)).status_code == 200


def test_a_bot_sits_only_through_challenges(bot, make_member):
    alice = make_member("alice")
    table = open_table(alice, T0)
    refusals = [
        lambda: open_table(bot, T0),
        lambda: lobby.table_join(match_id=table.pk, member=bot, now=T0),
        lambda: lobby.play_now(member=bot, variant="fast", clock="3+2", now=T0),
        lambda: services.practice_start(
            member=bot, board="fast", level=1, member_starts=True, clock="", now=T0
        ),
    ]
    arena = lobby.arena_create(
        name="Hourly", variant="fast", clock="1+1", minutes=30, starts_at=T0 + timedelta(hours=1)
    )
    refusals.append(lambda: lobby.arena_join(arena_id=arena.pk, member=bot, now=T0))
    for refused in refusals:
        with pytest.raises(TableError) as error:
            refused()
        assert error.value.code == "not_allowed"
    assert not Seat.objects.filter(member=bot).exists()
    # Challenged, and challenging, it plays.
    challenge = lobby.challenge_send(
        challenger=alice,
        challenged=bot,
        variant="fast",
        clock="3+2",
        single_game=False,
        rated=True,
        now=T0,
    )
    match = lobby.challenge_accept(challenge_id=challenge.pk, member=bot, now=T0)
    assert match.rated and match.status == Match.Status.PLAYING


def test_a_bots_pages_offer_none_of_what_it_may_not_do(client, bot, make_member):
    """A bot account that logs in to the site (to make its tokens, say) is told how it
    plays, and shown no Play now, table, practice, Join or arena Join button, each of which
    would only refuse it."""
    alice = make_member("alice")
    now = timing.now()
    table = open_table(alice, now)
    arena = lobby.arena_create(
        name="Hourly", variant="fast", clock="1+1", minutes=30, starts_at=now + timedelta(hours=1)
    )
    client.force_login(bot)
    home = client.get("/").content.decode()
    assert 'id="bot-plays-by-api"' in home and "through the API" in home
    for button in ("/play/fast/", 'action="/practice/"', 'action="/tables/"'):
        assert button not in home, button
    lists = client.get("/lobby/lists/").content.decode()
    assert "alice" in lists  # the table is listed
    assert f'action="/tables/{table.pk}/join/"' not in lists
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert 'id="bot-plays-by-api"' in page and f'action="/arenas/{arena.pk}/join/"' not in page
    # A member sees each of them.
    member = make_member("bea")
    client.force_login(member)
    home = client.get("/").content.decode()
    assert 'id="bot-plays-by-api"' not in home and "/play/fast/" in home
    assert f'action="/tables/{table.pk}/join/"' in client.get("/lobby/lists/").content.decode()
    assert (
        f'action="/arenas/{arena.pk}/join/"' in client.get(f"/arenas/{arena.pk}/").content.decode()
    )


def test_the_bot_is_titled_in_every_api_seat_and_its_page(client, bot, make_member):
    alice = make_member("alice")
    match = services.match_create(variant="fast", members=[alice, bot], now=T0)
    record = client.get(f"/api/matches/{match.pk}/").json()
    assert [(s["username"], s["title"]) for s in record["seats"]] == [
        ("alice", None),
        ("robo", "BOT"),
    ]
    assert client.get("/api/users/robo/").json()["title"] == "BOT"
    assert client.get("/api/users/alice/").json()["title"] is None
    public = selectors.table_state(match.pk)
    assert [s["title"] for s in public["match"]["seats"]] == [None, "BOT"]
    page = client.get("/@/robo/").content.decode()
    assert '<span class="bot-mark"' in page and "robo</h1>" in page
    lobby_page = client.get("/").content.decode()
    assert 'class="bot-mark"' in lobby_page  # the match being played names it


def test_the_bots_page_lists_bots_online_first_in_fixed_queries(
    client, make_member, django_capture_on_commit_callbacks
):
    names = ["zed", "amy", "kit"]
    for name in names:
        member = make_member(name)
        with django_capture_on_commit_callbacks(execute=True):  # the names marked BOT
            upgrade(client, token_of(member))
    make_member("human")
    Presence.objects.create(
        channel_name="stream-kit",
        member=User.objects.get(username="kit"),
        opened_at=timing.now(),
        last_seen=timing.now(),
        api=True,
    )
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/bots/")
    assert page.status_code == 200
    listed = [line.member.username for line in page.context["lines"]]
    assert listed == ["kit", "amy", "zed"]
    assert len(queries) <= 6
    text = page.content.decode()
    assert "human" not in text and text.count('class="bot-mark"') == 3


@pytest.mark.django_db(transaction=True)
async def test_a_bots_table_page_is_a_spectators(make_member):
    from asgiref.sync import sync_to_async

    alice = await sync_to_async(make_member)("alice")
    bot = await sync_to_async(make_member)("robo")
    await sync_to_async(accounts.member_bot_mark)(member=bot)
    match = await sync_to_async(services.match_create)(
        variant="fast", members=[bot, alice], now=timing.now()
    )
    communicator, first = await opened(match, cookie=await cookie_of(bot))
    assert first["type"] == "state" and first["you"]["seat"] is None
    await communicator.send_to(text_data=json.dumps({"type": "move", "color": 1, "ply": 0}))
    answer = json.loads(await communicator.receive_from(timeout=5))
    assert (answer["type"], answer["code"]) == ("error", "not_allowed")
    await communicator.send_to(text_data=json.dumps({"type": "resign", "scope": "match"}))
    assert json.loads(await communicator.receive_from(timeout=5))["code"] == "not_allowed"
    fresh = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert fresh.status == Match.Status.PLAYING and fresh.engine_state().current.ply == 0
    # Its page does not make its seat present: only its program's streams do.
    await sync_to_async(services.presence_refresh)(match_id=match.pk, now=timing.now())
    seat = await sync_to_async(Seat.objects.get)(match=match, member=bot)
    assert not seat.connected
    await communicator.disconnect()
