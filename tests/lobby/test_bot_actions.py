"""The bot's actions and the challenges over HTTP (SPEC §15): the same services, checks,
limits and codes as the table's socket and the lobby's forms; every refusal a JSON error
with nothing changed."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts import services as accounts
from games.engine.match import MatchState
from games.models import Challenge, ChatMessage, Match

pytestmark = pytest.mark.django_db(transaction=True)


def bearer(member, scopes=("bot:play", "challenge:write")) -> dict:
    raw = accounts.token_create(
        member=member, description="t", scopes=list(scopes), now=timezone.now()
    )[1]
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


@pytest.fixture
def people(make_member, client, django_capture_on_commit_callbacks):
    alice, robo, rex = make_member("alice"), make_member("robo"), make_member("rex")
    keys = {m.username: bearer(m) for m in (alice, robo, rex)}
    for name in ("robo", "rex"):
        assert client.post("/api/bot/account/upgrade", **keys[name]).status_code == 200
    return {"alice": alice, "robo": robo, "rex": rex}, keys


def challenge_and_accept(client, keys, *, rated=True, bot="robo") -> Match:
    sent = client.post(
        f"/api/challenge/{bot}",
        {"variant": "fast", "clock": "3+2", "rated": "true" if rated else "false"},
        **keys["alice"],
    )
    assert sent.status_code == 200, sent.json()
    challenge = sent.json()["challenge"]
    assert (challenge["challenger"], challenge["challenged"], challenge["rated"]) == (
        "alice",
        bot,
        rated,
    )
    accepted = client.post(f"/api/challenge/{challenge['id']}/accept", **keys[bot])
    assert accepted.status_code == 200
    return Match.objects.get(pk=accepted.json()["match"]["id"])


def state_of(match) -> MatchState:
    match.refresh_from_db()
    return match.engine_state()


def test_a_bot_plays_through_the_same_services(client, people):
    members, keys = people
    match = challenge_and_accept(client, keys)
    assert match.rated and match.status == Match.Status.PLAYING
    # alice is A (the challenger moves first): the bot's move out of turn is refused.
    state = state_of(match)
    position = state.current.position
    legal = [c for c, r in position.legal_colors().items() if r is None]
    url = f"/api/bot/match/{match.pk}/move"
    version = match.version
    early = client.post(f"{url}/{legal[0]}", {"ply": 0}, **keys["robo"])
    assert (early.status_code, early.json()["error"]) == (409, "not_your_turn")
    from games import services, timing

    services.move_play(
        match_id=match.pk, user=members["alice"], ply=0, color=legal[0], received_at=timing.now()
    )
    state = state_of(match)
    version = match.version
    position = state.current.position
    own = position.seat_colors[1]
    theirs = position.seat_colors[0]
    mine = [c for c, r in position.legal_colors().items() if r is None]
    for colour, ply, status, code in [
        (mine[0], 0, 409, "stale"),
        (mine[0], 7, 409, "stale"),
        (own, 1, 400, "illegal_color"),
        (theirs, 1, 400, "illegal_color"),
        ("0", 1, 400, "illegal_color"),
        ("12", 1, 400, "illegal_color"),
        ("red", 1, 400, "bad_message"),
        ("swap", 1, 400, "illegal_color"),
        (mine[0], "x", 400, "bad_message"),
        (mine[0], "", 400, "bad_message"),
    ]:
        answer = client.post(f"{url}/{colour}", {"ply": ply}, **keys["robo"])
        assert (answer.status_code, answer.json()["error"]) == (status, code), (colour, ply)
        assert answer.json()["message"]
    assert state_of(match).current.ply == 1 and match.version == version  # nothing changed
    answer = client.post(f"{url}/{mine[0]}", {"ply": 1}, **keys["robo"])
    assert (answer.status_code, answer.json()) == (200, {"ok": True})
    assert state_of(match).current.moves[-1] == mine[0]


def test_who_may_call_the_bot_endpoints(client, people):
    members, keys = people
    match = challenge_and_accept(client, keys)
    url = f"/api/bot/match/{match.pk}/move/1"
    assert client.post(url, {"ply": 0}).status_code == 401
    assert client.post(url, {"ply": 0}, HTTP_AUTHORIZATION="Bearer vog_x").status_code == 401
    challenge_only = bearer(members["robo"], ["challenge:write"])
    answer = client.post(url, {"ply": 0}, **challenge_only)
    assert (answer.status_code, answer.json()["error"]) == (403, "missing_scope")
    # A member's token with bot:play, but no bot account.
    answer = client.post(url, {"ply": 0}, **keys["alice"])
    assert (answer.status_code, answer.json()["error"]) == (403, "not_a_bot")
    # Another bot, not seated there.
    answer = client.post(url, {"ply": 0}, **keys["rex"])
    assert (answer.status_code, answer.json()["error"]) == (403, "not_a_player")
    answer = client.post("/api/bot/match/999999/move/1", {"ply": 0}, **keys["robo"])
    assert (answer.status_code, answer.json()["error"]) == (404, "not_found")
    assert client.get(url, **keys["robo"]).status_code == 405
    assert state_of(match).current.ply == 0


def test_resign_ready_abort_claim_and_chat(client, people):
    _members, keys = people
    match = challenge_and_accept(client, keys, rated=False)
    base = f"/api/bot/match/{match.pk}"
    bad = client.post(f"{base}/resign", {"scope": "everything"}, **keys["robo"])
    assert (bad.status_code, bad.json()["error"]) == (400, "bad_message")
    early = client.post(f"{base}/ready", **keys["robo"])
    assert (early.status_code, early.json()["error"]) == (403, "not_allowed")
    claim = client.post(f"{base}/claim", **keys["robo"])
    assert (claim.status_code, claim.json()["error"]) == (403, "not_allowed")
    said = client.post(f"{base}/chat", {"text": "good luck"}, **keys["robo"])
    assert said.status_code == 200
    assert ChatMessage.objects.get(match=match).text == "good luck"
    empty = client.post(f"{base}/chat", {"text": "   "}, **keys["robo"])
    assert empty.json()["error"] == "bad_message"
    elsewhere = client.post(f"{base}/chat", {"text": "hi"}, **keys["rex"])
    assert elsewhere.json()["error"] == "not_a_player"
    # Before anyone has moved, a resignation aborts, as at the socket (SPEC §3).
    assert client.post(f"{base}/abort", **keys["robo"]).status_code == 200
    assert state_of(match).status == "aborted"


def test_refusals_of_challenges_and_their_answers(client, people, make_member):
    members, keys = people
    sofia = make_member("sofia", language="es")
    sofias = bearer(sofia, ["challenge:write"])
    # In the member's language: challenging oneself, in Spanish.
    mine = client.post("/api/challenge/sofia", {"variant": "fast"}, **sofias)
    assert (mine.status_code, mine.json()) == (
        403,
        {"error": "not_allowed", "message": "No puedes desafiarte a ti mismo."},
    )
    # Members challenge members over the API too; once at a time.
    assert client.post("/api/challenge/alice", {"variant": "fast"}, **sofias).status_code == 200
    twice = client.post("/api/challenge/alice", {"variant": "fast"}, **sofias)
    assert (twice.status_code, twice.json()["error"]) == (403, "not_allowed")
    for fields, code in [
        ({"variant": "chess"}, "invalid"),
        ({"variant": "fast", "clock": "9+31"}, "invalid"),  # at most 30 s a move
        ({"variant": "fast", "rated": "true"}, "invalid"),  # rated needs a clock
        ({"variant": "four"}, "invalid"),
        ({"variant": "fast", "format": "marathon"}, "invalid"),
    ]:
        refused = client.post("/api/challenge/robo", fields, **keys["alice"])
        assert (refused.status_code, refused.json()["error"]) == (400, code), fields
    nobody = client.post("/api/challenge/nobody", {"variant": "fast"}, **keys["alice"])
    assert (nobody.status_code, nobody.json()["error"]) == (404, "not_found")
    bot_only = bearer(members["alice"], ["bot:play"])
    scoped = client.post("/api/challenge/robo", {"variant": "fast"}, **bot_only)
    assert (scoped.status_code, scoped.json()["error"]) == (403, "missing_scope")
    assert not Challenge.objects.filter(challenged__username="robo").exists()

    sent = client.post("/api/challenge/robo", {"variant": "fast"}, **keys["alice"]).json()
    challenge_id = sent["challenge"]["id"]
    wrong = client.post(f"/api/challenge/{challenge_id}/accept", **keys["rex"])
    assert (wrong.status_code, wrong.json()["error"]) == (404, "not_found")
    assert client.post(f"/api/challenge/{challenge_id}/decline", **keys["robo"]).status_code == 200
    assert Challenge.objects.get(pk=challenge_id).status == Challenge.Status.DECLINED
    again = client.post(f"/api/challenge/{challenge_id}/accept", **keys["robo"])
    assert again.json()["error"] == "not_allowed"
    sent = client.post("/api/challenge/rex", {"variant": "fast"}, **keys["alice"]).json()
    cancel = f"/api/challenge/{sent['challenge']['id']}/cancel"
    assert client.post(cancel, **keys["rex"]).status_code == 404  # not rex's to cancel
    assert client.post(cancel, **keys["alice"]).status_code == 200


def test_a_refusal_speaks_the_language_the_program_asks_for(client, people, make_member):
    """The member's chosen language first; else the request's: the path's prefix, else
    its ``Accept-Language`` (a program has no language cookie and no pages)."""
    _members, keys = people  # alice chose no language
    greek = client.post(
        "/api/challenge/robo", {"variant": "chess"}, HTTP_ACCEPT_LANGUAGE="el", **keys["alice"]
    )
    assert greek.json() == {"error": "invalid", "message": "Δεν υπάρχει τέτοια παραλλαγή."}
    dutch = client.post("/nl/api/challenge/robo", {"variant": "chess"}, **keys["alice"])
    assert dutch.json()["message"] == "Deze variant bestaat niet."
    english = client.post("/api/challenge/robo", {"variant": "chess"}, **keys["alice"])
    assert english.json()["message"] == "There is no such variant."
    # No token yet: the request's language alone.
    anonymous = client.post("/api/challenge/robo", {}, HTTP_ACCEPT_LANGUAGE="pt")
    assert anonymous.status_code == 401
    assert anonymous.json()["message"].startswith("Envie o seu token da API")
    # A member who chose Spanish reads Spanish whatever the request says.
    sofia = make_member("sofia", language="es")
    spanish = client.post(
        "/api/challenge/robo",
        {"variant": "chess"},
        HTTP_ACCEPT_LANGUAGE="bg",
        **bearer(sofia, ["challenge:write"]),
    )
    assert spanish.json()["message"] == "No existe esa variante."
    assert not Challenge.objects.exists()


def test_a_flood_of_moves_or_challenges_is_refused_and_changes_nothing(client, people, settings):
    members, keys = people
    match = challenge_and_accept(client, keys, rated=False)
    settings.SOCKET_RATE = (5, 10.0)
    robos = bearer(members["robo"])  # a token of its own: nothing counted yet
    url = f"/api/bot/match/{match.pk}/move/1"
    codes = [client.post(url, {"ply": 0}, **robos).json()["error"] for _ in range(8)]
    assert codes[:5] == ["not_your_turn"] * 5 and set(codes[5:]) == {"rate_limited"}
    refused = client.post(url, {"ply": 0}, **robos)
    # When to try again: the seconds left in the 10 s window.
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 10
    assert "Retry-After" not in client.post(url, {"ply": 0}, **keys["rex"])  # not_a_player
    assert state_of(match).current.ply == 0
    # Challenges: the lobby's limit, whatever sends them.
    settings.LOBBY_ACTIONS_PER_MINUTE = 2
    settings.WAITING_PER_MEMBER = 10
    answers = [
        client.post(f"/api/challenge/{name}", {"variant": "fast"}, **keys["alice"])
        for name in ("rex", "robo", "rex")
    ]
    assert [a.status_code for a in answers][-1] == 429
    assert answers[-1].json()["error"] == "rate_limited"
    assert 1 <= int(answers[-1]["Retry-After"]) <= 60


def test_moves_in_turn_never_count_against_the_limit(client, people, settings):
    members, keys = people
    match = challenge_and_accept(client, keys, rated=False)
    settings.SOCKET_RATE = (2, 10.0)
    robos = bearer(members["robo"])  # a token of its own: nothing counted yet
    from games import services, timing

    for _ in range(4):  # four moves of the bot, each in turn
        state = state_of(match)
        position = state.current.position
        colour = min(c for c, r in position.legal_colors().items() if r is None)
        services.move_play(
            match_id=match.pk,
            user=members["alice"],
            ply=state.current.ply,
            color=colour,
            received_at=timing.now(),
        )
        state = state_of(match)
        position = state.current.position
        colour = min(c for c, r in position.legal_colors().items() if r is None)
        answer = client.post(
            f"/api/bot/match/{match.pk}/move/{colour}",
            {"ply": state.current.ply},
            **robos,
        )
        assert answer.status_code == 200, answer.json()


def finished(client, keys, members) -> Match:
    """A match of alice's against robo, one move each, then alice resigns it."""
    from games import services, timing

    match = challenge_and_accept(client, keys, rated=False)
    for seat, name in enumerate(("alice", "robo")):
        position = state_of(match).current.position
        colour = next(c for c, r in position.legal_colors().items() if r is None)
        if name == "alice":
            services.move_play(
                match_id=match.pk,
                user=members[name],
                ply=seat,
                color=colour,
                received_at=timing.now(),
            )
        else:
            assert client.post(
                f"/api/bot/match/{match.pk}/move/{colour}", {"ply": seat}, **keys["robo"]
            ).json() == {"ok": True}
    services.match_resign(match_id=match.pk, user=members["alice"], now=timing.now())
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_a_rematch_offered_to_a_bot_reaches_its_program_as_a_challenge(client, people, settings):
    """A bot's program has no table page: the member's rematch offer is a challenge to it
    that lasts as long as the offer (``rematch_of``). Accepting starts the rematch;
    declining, or the member cancelling, ends the offer at once; once the offer's minute
    is over the challenge can no longer be accepted."""
    from games import services, timing
    from lobby import selectors as lobby_selectors

    members, keys = people
    match = finished(client, keys, members)
    now = timing.now()
    services.rematch_offer(match_id=match.pk, user=members["alice"], now=now)
    offered = Challenge.objects.get(rematch_of=match)
    assert (offered.challenger, offered.challenged, offered.status) == (
        members["alice"],
        members["robo"],
        Challenge.Status.PENDING,
    )
    assert (offered.variant, offered.clock, offered.format, offered.rated) == (
        "fast",
        "3+2",
        "match",
        False,
    )
    assert offered.expires_at == now + timing.seconds("GAME_REMATCH_SECONDS")
    told = lobby_selectors.bot_events(members["robo"].pk, now).received[offered.pk]
    assert told["rematch_of"] == match.pk and told["challenger"] == "alice"
    # Offering again within the minute asks nothing twice.
    services.rematch_offer(match_id=match.pk, user=members["alice"], now=now)
    assert Challenge.objects.filter(rematch_of=match).count() == 1
    # Only robo may answer it.
    wrong = client.post(f"/api/challenge/{offered.pk}/accept", **keys["rex"])
    assert (wrong.status_code, wrong.json()["error"]) == (404, "not_found")

    accepted = client.post(f"/api/challenge/{offered.pk}/accept", **keys["robo"])
    assert accepted.status_code == 200, accepted.json()
    match.refresh_from_db()
    rematch = match.rematch
    assert accepted.json()["match"]["id"] == rematch.pk
    assert rematch.status == Match.Status.PLAYING and not rematch.rated
    assert sorted(s.member.username for s in rematch.seats.all()) == ["alice", "robo"]
    offered.refresh_from_db()
    assert (offered.status, offered.match_id) == (Challenge.Status.ACCEPTED, rematch.pk)

    # Declined by the program: the table no longer shows the offer.
    second = finished(client, keys, members)
    services.rematch_offer(match_id=second.pk, user=members["alice"], now=timing.now())
    asked = Challenge.objects.get(rematch_of=second)
    assert client.post(f"/api/challenge/{asked.pk}/decline", **keys["robo"]).status_code == 200
    second.refresh_from_db()
    assert second.rematch_offered_at is None and second.rematch_accepted == []
    assert second.rematch_id is None
    # Offered again and cancelled by alice (the lobby lists it as hers): the same.
    services.rematch_offer(match_id=second.pk, user=members["alice"], now=timing.now())
    again = Challenge.objects.filter(rematch_of=second, status=Challenge.Status.PENDING).get()
    assert client.post(f"/api/challenge/{again.pk}/cancel", **keys["alice"]).status_code == 200
    second.refresh_from_db()
    assert second.rematch_offered_at is None and second.rematch_id is None

    # Offered once more, and answered after its minute: refused, nothing starts.
    settings.GAME_REMATCH_SECONDS = 0
    services.rematch_offer(match_id=second.pk, user=members["alice"], now=timing.now())
    late = Challenge.objects.filter(rematch_of=second, status=Challenge.Status.PENDING).get()
    refused = client.post(f"/api/challenge/{late.pk}/accept", **keys["robo"])
    assert (refused.status_code, refused.json()["error"]) == (403, "not_allowed")
    second.refresh_from_db()
    assert second.rematch_id is None
