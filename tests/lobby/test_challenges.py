"""Challenges, private tables and Play now through the web endpoints."""

from datetime import timedelta

import pytest
from django.test import Client

from games.errors import TableError
from games.models import Challenge, Match
from lobby import services
from tests.conftest import needs_services
from tests.lobby.test_tables import TABLE, Member, open_table
from tests.timeshift import T0, advance

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(make_member):
    return {name: Member(make_member(name)) for name in ("ann", "ben", "cat", "dan")}


def test_a_challenge_accepted_starts_the_match_for_both(members):
    ann, ben = members["ann"], members["ben"]
    response = ann.post("/@/ben/challenge/", TABLE)
    assert response.redirect_chain[-1][0] == "/@/ben/"
    challenge = Challenge.objects.get()
    assert f'id="challenge-waiting" data-challenge="{challenge.pk}"' in response.content.decode()
    assert challenge.status == "pending"
    assert challenge.expires_at == challenge.created_at + timedelta(minutes=2)
    lobby = ben.client.get("/").content.decode()
    assert f'action="/challenges/{challenge.pk}/accept/"' in lobby  # works without scripts
    response = ben.post(f"/challenges/{challenge.pk}/accept/")
    challenge.refresh_from_db()
    match = challenge.match
    assert challenge.status == "accepted" and match.status == "playing"
    assert [s.member.username for s in match.seats.order_by("seat")] == ["ann", "ben"]
    assert response.redirect_chain[-1][0] == f"/match/{match.pk}/"


def test_decline_and_cancel(members):
    ann, ben = members["ann"], members["ben"]
    ann.post("/@/ben/challenge/", TABLE)
    challenge = Challenge.objects.get()
    response = ann.post(f"/challenges/{challenge.pk}/accept/")  # not ann's to accept
    assert "This challenge does not exist." in ann.messages(response)
    ben.post(f"/challenges/{challenge.pk}/decline/")
    challenge.refresh_from_db()
    assert challenge.status == "declined" and not Match.objects.exists()
    ann.post("/@/ben/challenge/", TABLE)
    second = Challenge.objects.latest("pk")
    ann.post(f"/challenges/{second.pk}/cancel/")
    second.refresh_from_db()
    assert second.status == "cancelled"
    response = ben.post(f"/challenges/{second.pk}/accept/")
    assert any("no longer open" in m for m in ben.messages(response))
    assert not Match.objects.exists()


def test_the_profile_shows_the_challenge_while_it_waits_and_not_after(members):
    """No message says a challenge waits (a bot accepts before the page loads, and a
    message would follow the member to the table): the profile shows it from the
    database, with a Cancel that comes back to the profile, and the form once it ended."""
    ann, ben = members["ann"], members["ben"]
    page = ann.post("/@/ben/challenge/", {**TABLE, "rated": "on"})
    assert not ann.messages(page)
    challenge = Challenge.objects.get()
    html = page.content.decode()
    assert 'id="challenge-waiting"' in html and 'id="challenge"' not in html
    assert "You challenged ben: Fast 8×7" in html and "Waiting for an answer" in html
    assert f'action="/challenges/{challenge.pk}/cancel/"' in html
    assert 'hx-trigger="lobby-changed from:body"' in html  # fetched again when it ends
    # ben sees no such box on ann's profile, nor ann on cat's.
    assert 'id="challenge-waiting"' not in ben.client.get("/@/ann/").content.decode()
    assert 'id="challenge-waiting"' not in ann.client.get("/@/cat/").content.decode()
    # In ann's language too.
    ann.client.cookies["django_language"] = "es"
    spanish = ann.client.get("/es/@/ben/").content.decode()
    assert "Esperando respuesta…" in spanish
    assert "Has desafiado a ben: Rápido 8×7" in spanish  # the variant in the page's language
    assert "Has desafiado a ben: Rápido 8×7" in ann.client.get("/es/lobby/lists/").content.decode()
    del ann.client.cookies["django_language"]

    page = ann.post(f"/challenges/{challenge.pk}/cancel/", {"next": "/@/ben/"})
    assert page.redirect_chain[-1][0] == "/@/ben/"
    html = page.content.decode()
    assert 'id="challenge-waiting"' not in html and 'id="challenge"' in html
    assert "hx-trigger" not in html.split('id="challenge-area"')[1].split(">")[0]

    # A next that leaves the site goes to the lobby instead.
    ann.post("/@/ben/challenge/", TABLE)
    second = Challenge.objects.latest("pk")
    page = ann.post(f"/challenges/{second.pk}/cancel/", {"next": "https://example.org/"})
    assert page.redirect_chain[-1][0] == "/"
    # Declined or expired, the form is back.
    ann.post("/@/ben/challenge/", TABLE)
    third = Challenge.objects.latest("pk")
    ben.post(f"/challenges/{third.pk}/decline/")
    assert 'id="challenge-waiting"' not in ann.client.get("/@/ben/").content.decode()


def test_a_challenge_expires_after_two_minutes(members):
    ann, ben = members["ann"], members["ben"]
    ann.post("/@/ben/challenge/", TABLE)
    challenge = Challenge.objects.get()
    advance(121)
    response = ben.post(f"/challenges/{challenge.pk}/accept/")
    assert any("no longer open" in m for m in ben.messages(response))
    challenge.refresh_from_db()
    assert challenge.status == "expired" and not Match.objects.exists()


def test_the_expiry_sweep(members):
    members["ann"].post("/@/ben/challenge/", TABLE)
    sent = Challenge.objects.get().created_at
    assert services.challenges_expire(now=sent + timedelta(seconds=119)) == 0
    assert services.challenges_expire(now=sent + timedelta(seconds=121)) == 1
    assert Challenge.objects.get().status == "expired"


def test_members_may_refuse_challenges(members):
    ben = members["ben"].user
    ben.accepts_challenges = False
    ben.save()
    response = members["ann"].post("/@/ben/challenge/", TABLE)
    assert "This member does not accept challenges." in members["ann"].messages(response)
    assert not Challenge.objects.exists()
    page = members["ann"].client.get("/@/ben/").content.decode()
    assert 'action="/@/ben/challenge/"' not in page


def test_no_challenging_oneself(members):
    response = members["ann"].post("/@/ann/challenge/", TABLE)
    assert "You cannot challenge yourself." in members["ann"].messages(response)


def test_private_tables_are_reached_by_their_link_only(members, client):
    ann, ben = members["ann"], members["ben"]
    table, response = open_table(ann, private="on", clock="")
    assert table.private and not table.rated
    assert response.redirect_chain[-1][0] == f"/t/{table.token}/"
    assert len(table.token) >= 16
    assert client.get(f"/match/{table.pk}/").status_code == 404
    response = ben.post(f"/tables/{table.pk}/join/")
    assert "This table does not exist." in ben.messages(response)
    assert table.pk not in [t["id"] for t in client.get("/api/tables/").json()["tables"]]
    assert f"/t/{table.token}/" not in ben.client.get("/").content.decode()
    page = ben.client.get(f"/t/{table.token}/").content.decode()
    assert f'action="/t/{table.token}/join/"' in page
    ben.post(f"/t/{table.token}/join/")
    table.refresh_from_db()
    assert table.status == "playing"
    assert client.get(f"/match/{table.pk}/").status_code == 404
    assert Client().get(f"/t/{table.token}/").status_code == 200  # anyone with the link


def test_private_tables_are_never_rated(members):
    response = members["ann"].post("/tables/", {**TABLE, "private": "on", "rated": "on"})
    assert "Private tables are never rated." in members["ann"].messages(response)


def test_play_now_joins_the_right_table_or_opens_one(members, make_member):
    from ratings.models import PlayerRating

    ann, ben, cat, dan = (members[n] for n in ("ann", "ben", "cat", "dan"))
    for member, rating in ((ann, 1900), (ben, 1500), (cat, 1560), (dan, 1550)):
        PlayerRating.objects.create(member=member.user, scale="fast", rating=rating, rd=60)
    ann.post("/play/fast/", {"clock": "3+2"})  # nobody waits: ann opens one
    ann_table = Match.objects.get(created_by=ann.user)
    assert ann_table.status == "waiting" and ann_table.rated
    advance(1)
    ben.post("/play/fast/", {"clock": "3+2"})  # 400 away from ann: opens another
    ben_table = Match.objects.get(created_by=ben.user)
    assert ben_table.status == "waiting"
    cat.post("/play/fast/", {"clock": "5+3"})  # another clock: opens its own
    assert Match.objects.get(created_by=cat.user).clock == "5+3"
    dan.post("/play/fast/", {"clock": "3+2"})  # within 300 of ben (and not of ann)
    ben_table.refresh_from_db()
    ann_table.refresh_from_db()
    assert ben_table.status == "playing" and ann_table.status == "waiting"
    assert {s.member.username for s in ben_table.seats.all()} == {"ben", "dan"}


def test_provisional_ratings_match_anyone(members):
    members["ann"].post("/play/classic/", {"clock": "10+5"})
    members["ben"].post("/play/classic/", {"clock": "10+5"})
    table = Match.objects.get()
    assert table.status == "playing" and table.variant == "classic"


def test_play_now_only_for_rated_variants(members):
    response = members["ann"].post("/play/big/", {"clock": "3+2"})
    assert "Play now is for the rated variants." in members["ann"].messages(response)
    response = members["ann"].post("/play/fast/", {"clock": "9+9"})
    assert any("There is no such clock." in m for m in members["ann"].messages(response))
    assert not Match.objects.exists()


def test_nobody_seats_another_member(members):
    # The only services that seat a member take that member's own action.
    with pytest.raises(TableError):
        services.challenge_accept(
            challenge_id=services.challenge_send(
                challenger=members["ann"].user,
                challenged=members["ben"].user,
                variant="fast",
                clock="",
                single_game=False,
                rated=False,
                now=T0,
            ).pk,
            member=members["cat"].user,
            now=T0,
        )
    assert not Match.objects.exists()


@pytest.mark.django_db(transaction=True)
@needs_services
def test_two_members_pressing_play_now_at_once_play_each_other(make_member):
    """ann and ben press Play now at the same moment: each finds no table waiting and
    opens one. Each looks again once its table is stored, and the later look finds the
    other's: they play, and no table of theirs is left waiting."""
    from tests.concurrency import at_once

    ann, ben = make_member("ann"), make_member("ben")
    outcomes = at_once(
        {
            name: (
                lambda member=member: services.play_now(
                    member=member, variant="fast", clock="3+2", now=T0
                )
            )
            for name, member in (("ann", ann), ("ben", ben))
        },
        held=lambda row, created: created and isinstance(row, Match),
    )
    assert outcomes == {"ann": "done", "ben": "done"}
    assert not Match.objects.filter(status=Match.Status.WAITING).exists()
    [match] = Match.objects.filter(status=Match.Status.PLAYING)
    assert {seat.member.username for seat in match.seats.all()} == {"ann", "ben"}
