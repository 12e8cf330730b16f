"""Nothing lingers (SPEC §3, §10): tables everyone left end by themselves, a player aborts a
match before their side has moved, a ban or a deletion ends the member's matches, every
end reaches the lobby, and a hint is worked out on the ``bots`` queue like the computer's
moves. Time is injected; the worker and beat are real."""

import pytest
from asgiref.sync import sync_to_async

from accounts import services as accounts_services
from games import events, services
from games.engine.match import MatchState
from games.models import Match, Seat
from tests import timeshift
from tests.conftest import needs_services, wait_for
from tests.games.conftest import legal_colour, position_of

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def play_one(match, members) -> None:
    position = position_of(match)
    services.move_play(
        match_id=match.pk,
        user=members[position.to_move],
        ply=MatchState.from_dict(fresh(match).state).current.ply,
        color=legal_colour(position),
        received_at=timeshift.now(),
    )


# --- 1. deserted tables end by themselves -----------------------------------------------


def test_deserted_tables_end_by_themselves_with_nobody_connected(
    beat, new_table, alice, bob, carol, dave
):
    """No seated member has had a socket for ten minutes: a no-clock match where game 1
    has a move is lost by the seat to move (abandoned); one without a move is aborted; a
    practice table is aborted; a match with a clock is left to its clock (it flags)."""
    now = timeshift.now()
    played = new_table("fast", [alice, bob], seed=1)
    play_one(played, [alice, bob])
    play_one(played, [alice, bob])  # both moved (else the abort rule ends it): A to move
    unplayed = new_table("fast", [carol, dave], seed=2)
    practice = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=now
    )
    clocked = new_table("fast", [carol, dave], seed=3, clock="5+3")
    play_one(clocked, [carol, dave])
    play_one(clocked, [carol, dave])
    Seat.objects.update(absent_since=now, connected=False)  # nobody ever came
    timeshift.advance(599)
    assert not services.deserted_end(now=timeshift.now())  # not yet
    timeshift.advance(2)
    assert wait_for(lambda: fresh(played).status == Match.Status.FINISHED)
    assert wait_for(lambda: fresh(unplayed).status == Match.Status.ABORTED)
    assert wait_for(lambda: fresh(practice).status == Match.Status.ABORTED)
    state = MatchState.from_dict(fresh(played).state)
    assert (state.reason, state.winners) == ("abandoned", (1,))
    assert wait_for(lambda: fresh(clocked).status == Match.Status.FINISHED)
    assert fresh(clocked).result_reason == "flagged"


def test_a_member_who_is_there_keeps_the_table(beat, new_table, alice, bob):
    """One seated member still has a socket: the table does not end, however long."""
    match = new_table("fast", [alice, bob])
    services.socket_open(channel_name="a-1", member=alice, match_id=match.pk, now=T())
    services.presence_refresh(match_id=match.pk, now=T())
    timeshift.advance(3600)
    services.socket_seen(channel_name="a-1", now=timeshift.now())
    services.presence_refresh(match_id=match.pk, now=timeshift.now())
    assert services.deserted_end(now=timeshift.now()) == 0
    assert fresh(match).status == Match.Status.PLAYING


def T():
    return timeshift.now()


# --- 2. abort before one's side has moved -----------------------------------------------


async def test_a_player_aborts_before_their_side_moved_and_not_after(
    connect, fast_table, alice, bob
):
    a = await connect(fast_table, alice)
    b = await connect(fast_table, bob)
    assert a.state["you"]["can_abort"] and b.state["you"]["can_abort"]
    assert a.state["match"]["abort_at"] is not None  # the first move's countdown
    colour = legal_colour(await sync_to_async(position_of)(fast_table))
    await a.send({"type": "move", "color": colour, "ply": 0})
    state = await b.receive_type("state")
    assert state["you"]["can_abort"]  # B has not moved yet
    assert not (await a.receive_type("state"))["you"]["can_abort"]
    await a.send({"type": "abort"})
    refused = await a.receive_type("error")
    assert refused["code"] == "not_allowed"
    assert (await sync_to_async(fresh)(fast_table)).status == Match.Status.PLAYING
    await b.send({"type": "abort"})
    ended = await a.receive_type("state")
    assert ended["match"]["status"] == "aborted" and ended["match"]["result"]["reason"] == "aborted"


# --- 3. a ban or a deletion ends the member's matches -------------------------------------


def test_a_ban_ends_the_members_matches_as_resignations_and_rates_them(
    worker, new_table, alice, bob, carol, dave, moderator
):
    rated = new_table("fast", [alice, bob], clock="3+2", rated=True)
    play_one(rated, [alice, bob])
    play_one(rated, [alice, bob])  # both moved: a resignation is a result
    unplayed = new_table("fast", [alice, carol], clock="3+2", rated=True)
    four = new_table("four", [alice, bob, carol, dave])
    for _ in range(4):
        play_one(four, [alice, bob, carol, dave])
    accounts_services.member_ban(member=alice, by=moderator, reason="Cheating")
    state = MatchState.from_dict(fresh(rated).state)
    assert (state.status, state.reason, state.winners) == ("finished", "resigned", (1,))
    assert fresh(unplayed).status == Match.Status.ABORTED  # never played: no rating
    four_state = MatchState.from_dict(fresh(four).state)
    assert four_state.status == "playing" and 0 in four_state.out  # the others play on
    from ratings.models import RatingChange

    assert wait_for(lambda: RatingChange.objects.filter(rated_match_id=rated.pk).count() == 2)
    assert not RatingChange.objects.filter(rated_match_id=unplayed.pk).exists()


def test_a_banned_seated_member_can_be_deleted(new_table, alice, bob, moderator):
    match = new_table("fast", [alice, bob])
    play_one(match, [alice, bob])
    play_one(match, [alice, bob])
    from accounts.models import User

    User.objects.filter(pk=alice.pk).update(banned_at=timeshift.now())  # banned already
    accounts_services.member_delete(member=User.objects.get(pk=alice.pk))
    assert not User.objects.filter(pk=alice.pk).exists()
    state = MatchState.from_dict(fresh(match).state)
    assert (state.reason, state.winners) == ("resigned", (1,))


def test_the_admins_delete_actions_go_through_the_members_deletion(
    client, new_table, alice, bob, carol, dave
):
    from accounts.models import User

    admin = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-42")
    client.force_login(admin)
    first = new_table("fast", [alice, bob])
    second = new_table("fast", [carol, dave])
    for match, members in ((first, [alice, bob]), (second, [carol, dave])):
        play_one(match, members)
        play_one(match, members)
    response = client.post(
        "/admin/accounts/user/",
        {"action": "delete_selected", "_selected_action": [alice.pk, carol.pk], "post": "yes"},
    )
    assert response.status_code == 302
    assert not User.objects.filter(pk__in=[alice.pk, carol.pk]).exists()
    for match in (first, second):
        assert MatchState.from_dict(fresh(match).state).reason == "resigned"
    response = client.post(f"/admin/accounts/user/{bob.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not User.objects.filter(pk=bob.pk).exists()


# --- 4. the lobby follows every end, on every process -------------------------------------


async def test_the_lobby_hears_every_end_on_another_process(daphnes, new_table, alice, bob):
    from tests.servers import LiveSocket

    lobby = await LiveSocket.open(daphnes[1], "/ws/site/?lobby=1")
    match = await sync_to_async(new_table)("fast", [alice, bob])
    await lobby.receive_type("lobby")  # it started
    await sync_to_async(play_one)(match, [alice, bob])
    await sync_to_async(play_one)(match, [alice, bob])
    await sync_to_async(services.match_resign)(match_id=match.pk, user=alice, now=timeshift.now())
    assert (await lobby.receive_type("lobby"))["type"] == "lobby"  # it ended
    await lobby.close()


def test_practice_tables_are_not_played_now_in_the_lobby(new_table, alice, bob):
    from games.selectors import live_matches

    public = new_table("fast", [alice, bob])
    practice = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=T()
    )
    assert [m.pk for m in live_matches()] == [public.pk]
    assert fresh(practice).status == Match.Status.PLAYING


def test_a_lobby_row_names_the_computer(client, new_table, alice, bob, carol):
    match = services.match_create(variant="four", members=[alice, bob], bots={2: 3, 3: 1}, now=T())
    page = client.get("/lobby/lists/").content.decode()
    assert "Computer (level 3) (C)" in page and "Computer (level 1) (D)" in page
    assert "deleted member" not in page
    data = client.get(f"/api/matches/{match.pk}/").json()
    assert [seat["bot"] for seat in data["seats"]] == [None, None, 3, 1]


# --- 8. hints like the computer's moves -------------------------------------------------


async def test_a_hint_comes_from_the_bots_queue_once_per_position(connect, worker, alice):
    match = await sync_to_async(services.practice_start)(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=T()
    )
    socket = await connect(match, alice)
    calls = []
    original = events.hint_wanted

    def counted(*args):
        calls.append(args)
        original(*args)

    events.hint_wanted = counted
    try:
        await socket.send({"type": "hint"})
        await socket.send({"type": "hint"})  # one in flight per table
        hint = await socket.receive_type("hint", timeout=30)
        position = await sync_to_async(position_of)(match)
        assert position.legal_colors()[hint["color"]] is None
        assert hint["cells"] == sorted(position.preview(hint["color"]))
        await socket.send({"type": "hint"})  # known now: answered at once, from the cache
        assert (await socket.receive_type("hint"))["color"] == hint["color"]
    finally:
        events.hint_wanted = original
    assert len(calls) == 1


async def test_a_page_asking_for_a_hint_again_and_again_reads_it_once(
    monkeypatch, connect, worker, alice
):
    """A socket that asked for the hint of the position it shows waits for it, and once
    it has it answers a new ask itself: five asks, one call of the service; the next
    position asks again."""
    match = await sync_to_async(services.practice_start)(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=T()
    )
    socket = await connect(match, alice)
    calls = []
    practice_hint = services.practice_hint

    def counted(**kwargs):
        calls.append(kwargs["match_id"])
        return practice_hint(**kwargs)

    monkeypatch.setattr(services, "practice_hint", counted)
    for _ in range(3):
        await socket.send({"type": "hint"})
    hint = await socket.receive_type("hint", timeout=30)
    for _ in range(2):
        await socket.send({"type": "hint"})
        assert await socket.receive_type("hint") == hint
    assert calls == [match.pk]
    await socket.send({"type": "move", "color": hint["color"], "ply": 0})
    await socket.state_where(lambda s: s["game"]["ply"] == 2, timeout=30)  # the computer's
    await socket.send({"type": "hint"})
    await socket.receive_type("hint", timeout=30)
    assert calls == [match.pk, match.pk]


def test_a_hint_for_a_position_the_table_left_is_dropped(alice):
    match = services.practice_start(
        member=alice, board="fast", level=1, member_starts=True, clock="", now=T()
    )
    version = fresh(match).version
    play_one(match, [alice, None])
    assert services.hint_work(match_id=match.pk, version=version) is None
