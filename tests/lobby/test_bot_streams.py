"""The bot API's NDJSON streams against real Daphne processes (SPEC §15): the event stream
tells challenges and matches (and one per token), the match stream sends the whole state
first and each new version after, reads the state afresh at a gap, passes chat on and ends
with the match; streams keep alive, end at a revoke or a ban, and make the bot's seat
present while they are open."""

from __future__ import annotations

import asyncio
import itertools
import time
from io import StringIO

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from accounts import services as accounts
from accounts.models import ApiToken
from games import events, services, timing
from games.models import Challenge, Match, Seat
from lobby import services as lobby
from tests.conftest import wait_for
from tests.servers import ApiStream, api_call

pytestmark = pytest.mark.django_db(transaction=True)


def token_of(member, scopes=("bot:play", "challenge:write")) -> str:
    return accounts.token_create(
        member=member, description="t", scopes=list(scopes), now=timezone.now()
    )[1]


@pytest.fixture
def bot_and_member(make_member, daphnes):
    server = daphnes[0]
    robo, alice = make_member("robo"), make_member("alice")
    keys = {"robo": token_of(robo), "alice": token_of(alice)}
    assert api_call(server, "POST", "/api/bot/account/upgrade", keys["robo"])[0] == 200
    return server, robo, alice, keys


def challenge(server, keys, fields=None) -> int:
    status, data = api_call(
        server, "POST", "/api/challenge/robo", keys["alice"], fields or {"variant": "fast"}
    )
    assert status == 200, data
    return data["challenge"]["id"]


def test_the_event_stream_tells_challenges_and_matches(bot_and_member):
    server, _robo, alice, keys = bot_and_member
    events_ = ApiStream(server, "/api/stream/event", keys["robo"])
    assert events_.status == 200
    assert events_.response.headers["Content-Type"] == "application/x-ndjson"

    first = challenge(server, keys, {"variant": "fast", "clock": "3+2", "rated": "true"})
    told = events_.next_object()
    assert told == {
        "type": "challenge",
        "challenge": {
            "id": first,
            "challenger": "alice",
            "challenged": "robo",
            "variant": "fast",
            "clock": "3+2",
            "format": "match",
            "rated": True,
            "expires_at": told["challenge"]["expires_at"],
            "rematch_of": None,
        },
    }
    assert api_call(server, "POST", f"/api/challenge/{first}/cancel", keys["alice"])[0] == 200
    assert events_.next_object() == {"type": "challengeCanceled", "challenge": {"id": first}}

    # The bot's own challenge, declined by the member.
    status, sent = api_call(
        server, "POST", "/api/challenge/alice", keys["robo"], {"variant": "fast"}
    )
    assert status == 200
    mine = sent["challenge"]["id"]
    lobby.challenge_decline(challenge_id=mine, member=alice, now=timing.now())
    assert events_.next_object() == {"type": "challengeDeclined", "challenge": {"id": mine}}

    second = challenge(server, keys)
    assert events_.next_object()["challenge"]["id"] == second
    status, accepted = api_call(server, "POST", f"/api/challenge/{second}/accept", keys["robo"])
    match_id = accepted["match"]["id"]
    assert events_.next_object() == {"type": "matchStart", "match": {"id": match_id}}

    # A new event stream of the token: the match in play first; the older one ends.
    again = ApiStream(server, "/api/stream/event", keys["robo"])
    assert again.next_object() == {"type": "matchStart", "match": {"id": match_id}}
    assert events_.ends_within(10)

    services.match_resign(match_id=match_id, user=alice, now=timing.now())  # aborts: unplayed
    assert again.next_object() == {"type": "matchFinish", "match": {"id": match_id}}
    assert Match.objects.get(pk=match_id).status == Match.Status.ABORTED
    again.close()


def test_the_bots_own_challenge_is_told_however_soon_it_ended(bot_and_member):
    """A challenge the bot sent is told when it is declined or cancelled even if its event
    stream never read it waiting (the stream asks what ended since it last looked, not
    only what it saw waiting): here each is sent and ended in one transaction, so the
    stream hears of it only once it has ended; each is told once."""
    server, robo, alice, keys = bot_and_member
    events_ = ApiStream(server, "/api/stream/event", keys["robo"])
    assert events_.status == 200
    sent = []
    for end in (lobby.challenge_decline, lobby.challenge_cancel):
        with transaction.atomic():
            now = timing.now()
            made = lobby.challenge_send(
                challenger=robo,
                challenged=alice,
                variant="fast",
                clock="",
                single_game=False,
                rated=False,
                now=now,
            )
            end(
                challenge_id=made.pk,
                member=alice if end is lobby.challenge_decline else robo,
                now=now,
            )
        sent.append(made.pk)
    assert [events_.next_object(), events_.next_object()] == [
        {"type": "challengeDeclined", "challenge": {"id": sent[0]}},
        {"type": "challengeCanceled", "challenge": {"id": sent[1]}},
    ]
    # Nothing told twice: up to the next keep-alive, nothing else.
    while events_.read() is not None:
        pass
    assert [data for _at, data in events_.lines if data is not None] == [
        {"type": "challengeDeclined", "challenge": {"id": sent[0]}},
        {"type": "challengeCanceled", "challenge": {"id": sent[1]}},
    ]
    events_.close()


def test_the_match_stream_sends_every_version_and_ends_with_the_match(bot_and_member):
    server, robo, alice, keys = bot_and_member
    challenge_id = challenge(server, keys)
    match_id = api_call(server, "POST", f"/api/challenge/{challenge_id}/accept", keys["robo"])[1][
        "match"
    ]["id"]
    stream = ApiStream(server, f"/api/bot/match/{match_id}/stream", keys["robo"])
    full = stream.next_object()
    assert full["type"] == "matchFull"
    assert full["you"]["seat"] == "B" and full["match"]["id"] == match_id
    assert {"match", "game", "games", "clock", "you", "version", "server_time"} <= set(full)
    assert full["match"]["seats"][1] == {
        "seat": "B",
        "username": "robo",
        "title": "BOT",
        "bot": None,
        "rating": None,
        "connected": True,  # its stream is its presence
        "out": False,
    }
    assert Seat.objects.get(match_id=match_id, member=robo).connected
    version = full["version"]

    # A gap in the versions heard: the state is read afresh, never taken from the message.
    async_to_sync(get_channel_layer().group_send)(
        events.table_group(match_id),
        {
            "type": "table.state",
            "match": match_id,
            "status": "playing",
            "version": version + 5,
            "body": "{garbage",
            "you": {},
            "deadline": None,
            "players": [],
        },
    )
    position = Match.objects.get(pk=match_id).engine_state().current.position
    colour = min(c for c, r in position.legal_colors().items() if r is None)
    services.move_play(match_id=match_id, user=alice, ply=0, color=colour, received_at=timing.now())
    moved = stream.next_object()
    assert moved["type"] == "matchState" and moved["version"] == version + 1
    assert moved["game"]["ply"] == 1 and moved["you"]["seat"] == "B"
    assert moved["you"]["previews"]  # its turn now

    assert (
        api_call(server, "POST", f"/api/bot/match/{match_id}/chat", keys["robo"], {"text": "gl"})[0]
        == 200
    )
    assert stream.next_object(lambda d: d["type"] == "chatLine") == {
        "type": "chatLine",
        "username": "robo",
        "text": "gl",
    }
    # The program goes away: its seat is absent (the presence rules apply), until it
    # comes back and reads the whole state again.
    stream.close()
    assert wait_for(lambda: not Seat.objects.get(match_id=match_id, member=robo).connected)
    stream = ApiStream(server, f"/api/bot/match/{match_id}/stream", keys["robo"])
    again = stream.next_object()
    assert again["type"] == "matchFull" and again["match"]["seats"][1]["connected"]
    services.match_resign(match_id=match_id, user=alice, now=timing.now())
    last = stream.next_object(lambda d: d["match"]["status"] != "playing")
    assert last["match"]["status"] in ("finished", "aborted")
    assert stream.ends_within(5)
    # Gone: the seat is absent again.
    assert wait_for(lambda: not Seat.objects.get(match_id=match_id, member=robo).connected)


def test_who_may_open_a_stream(bot_and_member, make_member):
    server, robo, _alice, keys = bot_and_member
    rex = make_member("rex")
    rexs = token_of(rex)
    api_call(server, "POST", "/api/bot/account/upgrade", rexs)
    challenge_id = challenge(server, keys)
    match_id = api_call(server, "POST", f"/api/challenge/{challenge_id}/accept", keys["robo"])[1][
        "match"
    ]["id"]
    cases = [
        ("/api/stream/event", None, 401, "unauthorized"),
        ("/api/stream/event", "vog_nothing", 401, "unauthorized"),
        ("/api/stream/event", token_of(robo, ["challenge:write"]), 403, "missing_scope"),
        ("/api/stream/event", keys["alice"], 403, "not_a_bot"),
        (f"/api/bot/match/{match_id}/stream", rexs, 403, "not_a_player"),
        ("/api/bot/match/999999/stream", keys["robo"], 404, "not_found"),
    ]
    for path, token, status, code in cases:
        answer = api_call(server, "GET", path, token)
        assert answer[0] == status and answer[1]["error"] == code, (path, answer)
    assert api_call(server, "POST", "/api/stream/event", keys["robo"])[0] == 405


def test_streams_keep_alive_and_end_at_a_revoke_or_a_ban(make_member, own_daphne, moderator):
    server = own_daphne(BOT_KEEPALIVE_SECONDS=1)
    robo, rex = make_member("robo"), make_member("rex")
    keys = {"robo": token_of(robo), "rex": token_of(rex)}
    for key in keys.values():
        assert api_call(server, "POST", "/api/bot/account/upgrade", key)[0] == 200
    stream = ApiStream(server, "/api/stream/event", keys["robo"])
    assert [stream.read() for _ in range(3)] == [None, None, None]  # empty lines only
    moments = [at for at, _data in stream.lines]
    assert all(later - earlier < 3 for earlier, later in itertools.pairwise(moments))
    out = StringIO()
    call_command("token_revoke", keys["robo"], stdout=out)
    assert stream.ends_within(10)

    # The ban of the member ends theirs.
    banned = ApiStream(server, "/api/stream/event", keys["rex"])
    assert banned.read() is None
    accounts.member_ban(member=rex, by=moderator, reason="abuse")
    assert banned.ends_within(10)
    assert api_call(server, "GET", "/api/stream/event", keys["rex"])[0] == 401


def test_a_revoke_the_channel_layer_lost_still_ends_the_stream(make_member, own_daphne):
    server = own_daphne(BOT_KEEPALIVE_SECONDS=1)
    robo = make_member("robo")
    key = token_of(robo)
    assert api_call(server, "POST", "/api/bot/account/upgrade", key)[0] == 200
    stream = ApiStream(server, "/api/stream/event", key)
    assert stream.read() is None
    # Revoked in the database, no message sent: the stream's own check ends it.
    ApiToken.objects.filter(member=robo).update(revoked_at=timezone.now())
    assert stream.ends_within(5)


async def test_a_stream_too_far_behind_is_ended(settings):
    """The feed's queue is bounded: once its reader is ``BOT_STREAM_BACKLOG`` messages
    behind, the stream ends instead of holding more."""
    from tests.conftest import SERVICES

    if not SERVICES:
        pytest.skip("needs Redis: run make test")
    from lobby.bot_streams import Behind, Feed

    settings.BOT_STREAM_BACKLOG = 3
    feed = Feed()
    await feed.open(["slow-reader"])
    try:
        for number in range(10):
            await feed.layer.group_send("slow-reader", {"type": "x", "n": number})
        deadline = time.monotonic() + 5
        while not feed.behind and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # the pump takes what the layer delivers
        assert feed.behind and feed.queue.qsize() == 3
        with pytest.raises(Behind):
            await feed.next(1)
    finally:
        await feed.close()


def test_challenge_expiry_is_told_as_canceled(bot_and_member):
    server, _robo, _alice, keys = bot_and_member
    stream = ApiStream(server, "/api/stream/event", keys["robo"])
    first = challenge(server, keys)
    assert stream.next_object()["challenge"]["id"] == first
    Challenge.objects.filter(pk=first).update(expires_at=timing.now())
    lobby.challenges_expire(now=timing.now())
    assert stream.next_object() == {"type": "challengeCanceled", "challenge": {"id": first}}
    stream.close()


def test_a_rematch_offer_is_told_as_a_challenge_and_its_acceptance_starts_it(bot_and_member):
    """The member's rematch at a finished match reaches the bot's event stream at once, as
    a challenge naming the match (``rematch_of``); accepted, the rematch starts."""
    server, _robo, alice, keys = bot_and_member
    stream = ApiStream(server, "/api/stream/event", keys["robo"])
    first = challenge(server, keys)
    assert stream.next_object()["challenge"]["id"] == first
    status, accepted = api_call(server, "POST", f"/api/challenge/{first}/accept", keys["robo"])
    match_id = accepted["match"]["id"]
    assert stream.next_object() == {"type": "matchStart", "match": {"id": match_id}}
    match = Match.objects.get(pk=match_id)
    colour = next(
        c for c, r in match.engine_state().current.position.legal_colors().items() if r is None
    )
    services.move_play(match_id=match_id, user=alice, ply=0, color=colour, received_at=timing.now())
    match.refresh_from_db()
    position = match.engine_state().current.position
    colour = next(c for c, r in position.legal_colors().items() if r is None)
    moved = api_call(
        server, "POST", f"/api/bot/match/{match_id}/move/{colour}", keys["robo"], {"ply": 1}
    )
    assert moved == (200, {"ok": True})
    services.match_resign(match_id=match_id, user=alice, now=timing.now())
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED
    assert stream.next_object() == {"type": "matchFinish", "match": {"id": match_id}}

    services.rematch_offer(match_id=match_id, user=alice, now=timing.now())
    told = stream.next_object()
    assert told["type"] == "challenge"
    assert (told["challenge"]["challenger"], told["challenge"]["rematch_of"]) == ("alice", match_id)
    offer = told["challenge"]["id"]
    status, answer = api_call(server, "POST", f"/api/challenge/{offer}/accept", keys["robo"])
    assert status == 200, answer
    rematch = Match.objects.get(pk=match_id).rematch_id
    assert answer["match"]["id"] == rematch
    assert stream.next_object() == {"type": "matchStart", "match": {"id": rematch}}
    stream.close()
