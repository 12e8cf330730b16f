"""Hardening II at the table (SPEC §3, §7, §9): visitors' sockets capped by address and
table, a socket that outlives its member's password or active flag, practice tables and
the computer's queue, resignations that cannot farm ratings, a finished match that
visitors cannot churn, a seat read afresh, deep frames and invisible chat."""

import asyncio
import json
import logging
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from accounts import events as member_events
from games import services
from games.engine.clock import Clock
from games.engine.match import MatchState
from games.models import ChatMessage, Match, Presence, Seat
from ratings.models import RatedMatch
from tests.games.conftest import T0, legal_colour, position_of
from tests.moves import play_one, play_opening

pytestmark = pytest.mark.django_db(transaction=True)


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


async def opened(match, *, address="203.0.113.7", cookie=None, first=True):
    """A socket at ``match`` from ``address`` (a visitor, or the session of ``cookie``);
    returns the communicator and what it got first (a state, or an error and the close;
    None with ``first=False``: a waiting table's socket is sent nothing at first)."""
    from config.asgi import application

    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    if cookie:
        headers.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    communicator = WebsocketCommunicator(application, f"/ws/table/{match.pk}/", headers=headers)
    communicator.scope["client"] = (address, 50000)  # read when the application first runs
    connected, _ = await communicator.connect()
    assert connected
    if not first:
        return communicator, None
    return communicator, json.loads(await communicator.receive_from(timeout=5))


async def refused(match, **where) -> bool:
    """The socket is turned away as too many: an error, then the close 4429."""
    communicator, first = await opened(match, **where)
    if first["type"] != "error":
        await communicator.disconnect()
        return False
    assert first["code"] == "too_many_sockets"
    assert (await communicator.receive_output(timeout=5))["code"] == (
        member_events.CLOSE_TOO_MANY_SOCKETS
    )
    return True


async def cookie_of(user) -> str:
    client = Client()
    await sync_to_async(client.force_login)(user)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


# --- 1. visitors' sockets -----------------------------------------------------------


async def test_visitors_sockets_are_capped_by_address_and_by_table(
    settings, new_table, alice, bob, carol
):
    settings.VISITOR_SOCKETS_PER_TABLE = 2
    settings.VISITOR_SOCKETS = 3
    settings.VISITORS_PER_TABLE = 4
    table = await sync_to_async(new_table)("fast", [alice, bob])
    other = await sync_to_async(new_table)("fast", [bob, carol])
    kept = []
    for _ in range(2):  # two from one address at one table
        communicator, first = await opened(table, address="203.0.113.7")
        assert first["type"] == "state"
        kept.append(communicator)
    assert await refused(table, address="203.0.113.7")  # a third there is one too many
    communicator, first = await opened(other, address="203.0.113.7")  # elsewhere: three
    assert first["type"] == "state"
    kept.append(communicator)
    assert await refused(other, address="203.0.113.7")  # a fourth anywhere is refused
    # The table takes four visitors' sockets in all, whatever their addresses.
    for address in ("198.51.100.1", "198.51.100.2"):
        communicator, first = await opened(table, address=address)
        assert first["type"] == "state"
        kept.append(communicator)
    assert await refused(table, address="198.51.100.3")
    # Members are not visitors: a player still comes in.
    communicator, first = await opened(table, address="198.51.100.3", cookie=await cookie_of(alice))
    assert first["type"] == "state" and first["you"]["seat"] == "A"
    kept.append(communicator)
    for communicator in kept:
        await communicator.disconnect()


async def test_a_visitor_has_a_smaller_budget_of_messages(settings, fast_table, carol):
    settings.SOCKET_RATE = (6, 10.0)
    settings.VISITOR_SOCKET_RATE = (3, 10.0)
    visitor, _ = await opened(fast_table)
    member, _ = await opened(fast_table, cookie=await cookie_of(carol))
    answers = {}
    for name, communicator in (("visitor", visitor), ("member", member)):
        codes = []
        for _ in range(4):
            await communicator.send_to(text_data=json.dumps({"type": "sync"}))
            while True:
                message = json.loads(await communicator.receive_from(timeout=5))
                if message["type"] in ("state", "error"):
                    codes.append(message.get("code", "state"))
                    break
        answers[name] = codes
    assert answers["visitor"] == ["state", "state", "state", "rate_limited"]
    assert answers["member"] == ["state"] * 4
    for communicator in (visitor, member):
        await communicator.disconnect()


# --- 2. a socket outlives neither its password nor its active flag -------------------


async def closed_with(communicator) -> int:
    while True:
        output = await communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output["code"]


async def test_a_password_change_closes_the_sockets_of_every_session(fast_table, alice, password):
    """Changed on the site's own page: every socket opened before closes as at a logout
    (the session that changed it goes on under a new key, so its page opens a new socket,
    which acts); an old session's new socket is refused its member."""
    here = Client()
    await sync_to_async(here.force_login)(alice)
    mine, _ = await opened(fast_table, cookie=here.cookies["sessionid"].value)
    phone_cookie = await cookie_of(alice)
    phone, _ = await opened(fast_table, cookie=phone_cookie)
    new = "a new long secret 42"
    response = await sync_to_async(here.post)(
        "/accounts/password/change/",
        {"oldpassword": password, "password1": new, "password2": new},
    )
    assert response.status_code == 302
    assert await closed_with(phone) == member_events.CLOSE_SESSION_ENDED
    assert await closed_with(mine) == member_events.CLOSE_SESSION_ENDED
    again, first = await opened(fast_table, cookie=here.cookies["sessionid"].value)
    assert first["you"]["seat"] == "A"
    await again.send_to(text_data=json.dumps({"type": "chat", "text": "still here"}))
    while (message := json.loads(await again.receive_from(timeout=5)))["type"] != "chat":
        pass
    assert message["text"] == "still here"
    old, first = await opened(fast_table, cookie=phone_cookie)
    assert first["you"]["seat"] is None  # no longer alice there: a visitor
    for communicator in (again, old):
        await communicator.disconnect()


async def test_an_action_checks_the_password_even_without_the_notice(fast_table, alice):
    """The notice may be lost (a process restarting): each action compares the password
    and the active flag in its own statement, so nothing is done for a stale socket."""
    from accounts.models import User

    socket, _ = await opened(fast_table, cookie=await cookie_of(alice))
    # Changed behind the site's back: no signal, no notice to the socket.
    await sync_to_async(User.objects.filter(pk=alice.pk).update)(password="!changed")
    await socket.send_to(text_data=json.dumps({"type": "chat", "text": "hi"}))
    assert await closed_with(socket) == member_events.CLOSE_SESSION_ENDED
    assert not await sync_to_async(ChatMessage.objects.exists)()


async def test_a_deactivated_members_sockets_close(fast_table, alice):
    socket, _ = await opened(fast_table, cookie=await cookie_of(alice))
    alice.is_active = False
    await sync_to_async(alice.save)()
    assert await closed_with(socket) == member_events.CLOSE_SESSION_ENDED


# --- 3. practice tables and the computer's queue -------------------------------------


def test_two_practice_tables_in_play_at_most(alice):
    from games.errors import TableError

    start = dict(member=alice, board="fast", level=1, member_starts=True, clock="", now=T0)
    first = services.practice_start(**start)
    services.practice_start(**start)
    with pytest.raises(TableError) as refused_:
        services.practice_start(**start)
    assert refused_.value.code == "limit"
    assert Match.objects.filter(practice=True).count() == 2
    services.match_resign(match_id=first.pk, user=alice, now=T0)  # one ends: room again
    services.practice_start(**start)
    assert Match.objects.filter(practice=True, status="playing").count() == 2


def test_the_computers_wait_in_the_queue_is_not_charged(alice):
    """The member moves at T0; the worker begins the computer's move 80 s later, after
    the computer's whole bank would have run out: no flag meanwhile, and its clock is
    charged only from when the worker began."""
    match = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="1+1", now=T0
    )

    def computer_plays(began, thought):
        state = MatchState.from_dict(fresh(match).state)
        position = state.current.position
        return services.bot_move(
            match_id=match.pk,
            seat=1,
            ply=state.current.ply,
            color=next(c for c, why in position.legal_colors().items() if why is None),
            now=began + thought,
            began_at=began,
        )

    play_one(match, [alice, None], now=T0)
    assert computer_plays(T0, timedelta(0))  # game 1 under way (no abort rule now)
    play_one(match, [alice, None], now=T0)
    bank = Clock.from_dict(fresh(match).clock_state).remaining_ms[1]
    queued = T0 + timedelta(seconds=80)  # more than the computer's bank
    assert not services.match_tick(match_id=match.pk, now=queued)  # not flagged
    assert fresh(match).status == "playing"
    assert computer_plays(queued, timedelta(milliseconds=500))
    clock = Clock.from_dict(fresh(match).clock_state)
    # Its bank less the half second it thought, plus its increment of 1 s.
    assert clock.remaining_ms[1] == bank - 500 + 1_000


def test_one_computer_move_in_flight_per_table(alice):
    from games.services.practice import bot_turn, bot_work_name
    from games.services.underway import work_begin, work_end

    match = services.practice_start(
        member=alice, board="fast", level=1, member_starts=False, clock="", now=T0
    )
    assert work_begin(bot_work_name(match.pk), now=T0, seconds=60)  # another worker is at it
    assert bot_turn(match_id=match.pk, game=1, ply=0, now=lambda: T0) is None
    assert MatchState.from_dict(fresh(match).state).current.ply == 0
    work_end(bot_work_name(match.pk))
    assert bot_turn(match_id=match.pk, game=1, ply=0, now=lambda: T0) is True
    assert MatchState.from_dict(fresh(match).state).current.ply == 1


# --- 4. ratings that cannot be farmed ------------------------------------------------


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


# --- 6. a finished match is not churned by visitors ----------------------------------


async def test_visitors_coming_and_going_leave_a_finished_match_alone(
    settings, client, under_way, alice, bob
):
    await sync_to_async(services.match_resign)(match_id=under_way.pk, user=bob, now=T0)
    version = await sync_to_async(lambda: fresh(under_way).version)()
    for address in ("198.51.100.1", "198.51.100.2", "198.51.100.3"):
        communicator, first = await opened(under_way, address=address)
        assert first["version"] == version
        await communicator.disconnect()
        await sync_to_async(services.presence_refresh)(match_id=under_way.pk, now=T0)
    assert await sync_to_async(lambda: fresh(under_way).version)() == version
    steps = await sync_to_async(client.get)(f"/match/{under_way.pk}/steps/")
    assert steps.json()["version"] == version
    # What changes the match still does: a new rating shown is a new version.
    refreshed = await sync_to_async(services.table_refresh)(match_id=under_way.pk, now=T0)
    assert refreshed.version == version + 1
    steps = await sync_to_async(client.get)(f"/match/{under_way.pk}/steps/")
    assert steps.json()["version"] == version + 1


# --- 10. a seat read afresh ----------------------------------------------------------


async def test_a_socket_does_not_keep_a_seat_its_member_left(alice, bob, carol):
    from lobby import services as lobby_services

    table = await sync_to_async(lobby_services.table_open)(
        host=alice, variant="four", clock="", single_game=False, rated=False, private=False, now=T0
    )
    await sync_to_async(lobby_services.table_join)(member=bob, match_id=table.pk, now=T0)
    socket, _ = await opened(table, cookie=await cookie_of(bob), first=False)
    counted = sync_to_async(Presence.objects.filter(match=table, member=bob).exists)
    for _ in range(250):  # the socket counts once its opening ran on a database thread
        if await counted():
            break
        await asyncio.sleep(0.02)
    await sync_to_async(services.presence_refresh)(match_id=table.pk, now=T0)
    assert (await sync_to_async(Seat.objects.get)(match=table, seat=1)).connected
    await sync_to_async(lobby_services.table_leave)(member=bob, match_id=table.pk, now=T0)
    await sync_to_async(lobby_services.table_join)(member=carol, match_id=table.pk, now=T0)
    await sync_to_async(services.presence_refresh)(match_id=table.pk, now=T0)
    seat = await sync_to_async(Seat.objects.get)(match=table, seat=1)
    assert seat.member_id == carol.pk and not seat.connected  # carol has no socket there
    await socket.disconnect()


# --- 11. deep frames ------------------------------------------------------------------


async def test_a_deeply_nested_frame_is_refused_and_not_logged(connect, fast_table, alice, caplog):
    socket = await connect(fast_table, alice)
    frame = {"type": "chat", "text": "x", "extra": json.loads("[" * 9 + "1" + "]" * 9)}
    frame["marker"] = "SECRET-FRAME-TEXT"
    with caplog.at_level(logging.DEBUG):
        await socket.send(frame)
        assert (await socket.receive_type("error"))["code"] == "bad_message"
    assert "SECRET-FRAME-TEXT" not in caplog.text
    shallow = {"type": "chat", "text": "eight deep", "extra": json.loads("[" * 6 + "]" * 6)}
    await socket.send(shallow)
    assert (await socket.receive_type("chat"))["text"] == "eight deep"


# --- 13. chat ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["\u202egg", "a\u2066b", "\u200b\u200b", "\u2060", "   ", "\u3164"]
)
async def test_chat_refuses_bidi_controls_and_invisible_lines(connect, fast_table, alice, text):
    socket = await connect(fast_table, alice)
    await socket.send({"type": "chat", "text": text})
    assert (await socket.receive_type("error"))["code"] == "bad_message"
    await socket.send({"type": "chat", "text": "gg\u00a0wp"})
    assert (await socket.receive_type("chat"))["text"] == "gg\u00a0wp"
    assert await sync_to_async(ChatMessage.objects.count)() == 1


async def test_a_crowd_of_visitors_hears_every_event_through_one_of_them(
    connect, fast_table, alice, bob
):
    """Visitors of one table on a process share one place in the table's group (the
    relay, ``games.consumers.Visitors``): states and chat reach each of them, also after
    the relay closed and another took its place."""
    from games.consumers import visitors

    a = await connect(fast_table, alice)
    b = await connect(fast_table, bob)
    crowd = [await connect(fast_table, None) for _ in range(3)]
    assert len(visitors.sockets[fast_table.pk]) == 3
    await a.send({"type": "chat", "text": "welcome"})
    for socket in crowd:
        assert (await socket.receive_type("chat"))["text"] == "welcome"
    await crowd[0].close()  # the relay goes
    position = await sync_to_async(position_of)(fast_table)
    await a.send({"type": "move", "color": legal_colour(position), "ply": 0})
    for socket in crowd[1:]:
        await socket.state_where(lambda s: s["game"]["ply"] == 1)
    await b.state_where(lambda s: s["game"]["ply"] == 1)
    assert len(visitors.sockets[fast_table.pk]) == 2
