"""Tables that wait for players, through the web endpoints of SPEC §10 with CSRF checks:
open, join, leave, cancel, the start when the last seat fills, and every refusal, shown in
the member's language, with nothing changed."""

import re

import pytest
from django.test import Client

from games.models import Match, Seat

pytestmark = pytest.mark.django_db

TABLE = {"variant": "fast", "clock": "3+2", "format": "match"}


class Member:
    """A logged-in browser of one member: gets a CSRF token from a page, then posts."""

    def __init__(self, user, language: str = ""):
        self.user = user
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(user)
        self.prefix = f"/{language}" if language else ""
        self.client.get(self.prefix + "/")
        self.token = self.client.cookies["csrftoken"].value

    def post(self, path: str, data=None, follow: bool = True):
        return self.client.post(
            self.prefix + path, {**(data or {}), "csrfmiddlewaretoken": self.token}, follow=follow
        )

    def messages(self, response) -> list[str]:
        return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.fixture
def members(make_member):
    return {name: Member(make_member(name)) for name in ("ann", "ben", "cat", "dan", "eve")}


def open_table(member, **settings):
    response = member.post("/tables/", {**TABLE, **settings})
    return Match.objects.filter(created_by=member.user).latest("pk"), response


def test_a_table_waits_then_starts_when_the_last_seat_fills(members):
    ann, ben = members["ann"], members["ben"]
    table, response = open_table(ann)
    assert table.status == "waiting"
    assert response.redirect_chain[-1][0] == f"/match/{table.pk}/"
    assert "Waiting for 1 more player" in response.content.decode()
    assert list(table.seats.values_list("member__username", flat=True)) == ["ann"]
    response = ben.post(f"/tables/{table.pk}/join/")
    table.refresh_from_db()
    assert table.status == "playing"
    assert [s.member.username for s in table.seats.order_by("seat")] == ["ann", "ben"]
    assert response.redirect_chain[-1][0] == f"/match/{table.pk}/"
    assert 'id="table"' in response.content.decode()  # the table page, not the waiting room


@pytest.mark.parametrize(("variant", "seats"), [("three", 3), ("four", 4), ("pairs", 4)])
def test_multi_seat_tables_start_when_full(members, variant, seats):
    names = ["ann", "ben", "cat", "dan"][:seats]
    table, _ = open_table(members["ann"], variant=variant, clock="", format="match")
    for name in names[1:-1]:
        members[name].post(f"/tables/{table.pk}/join/")
        table.refresh_from_db()
        assert table.status == "waiting"
    members[names[-1]].post(f"/tables/{table.pk}/join/")
    table.refresh_from_db()
    assert table.status == "playing"
    assert [s.member.username for s in table.seats.order_by("seat")] == names


def test_leave_and_cancel(members):
    ann, ben, cat = members["ann"], members["ben"], members["cat"]
    table, _ = open_table(ann, variant="four", clock="")
    ben.post(f"/tables/{table.pk}/join/")
    cat.post(f"/tables/{table.pk}/join/")
    ben.post(f"/tables/{table.pk}/leave/")
    seats = list(table.seats.order_by("seat").values_list("seat", "member__username"))
    assert seats == [(0, "ann"), (1, "cat")]  # letters stay in the order people came
    response = cat.post(f"/tables/{table.pk}/cancel/")
    assert "Only the member who opened a table can cancel it." in cat.messages(response)
    ann.post(f"/tables/{table.pk}/cancel/")
    assert not Match.objects.filter(pk=table.pk).exists()


REFUSALS = [
    ({"variant": "chess"}, "There is no such variant."),
    ({"clock": "7+77"}, "A clock adds 0 to 30 seconds a move."),
    ({"clock": "0.5+5", "rated": "on"}, "A rated table needs at least 1 minute on the clock."),
    ({"variant": "big", "rated": "on"}, "This variant is never rated."),
    ({"clock": "", "rated": "on"}, "A rated table needs a clock."),
    ({"format": "single", "rated": "on"}, "Only matches of two games are rated."),
    ({"variant": ""}, "Choose a variant."),
]


@pytest.mark.parametrize(("fields", "message"), REFUSALS)
def test_table_settings_refused(members, fields, message):
    ann = members["ann"]
    response = ann.post("/tables/", {**TABLE, **fields})
    assert any(message in text for text in ann.messages(response)), ann.messages(response)
    assert not Match.objects.exists()


def test_joining_refusals(members, make_member):
    ann, ben, cat = members["ann"], members["ben"], members["cat"]
    table, _ = open_table(ann, variant="three", clock="")
    response = ann.post(f"/tables/{table.pk}/join/")
    assert "You already sit at this table." in ann.messages(response)
    ben.post(f"/tables/{table.pk}/join/")
    response = ben.post(f"/tables/{table.pk}/join/")
    assert "You already sit at this table." in ben.messages(response)
    cat.post(f"/tables/{table.pk}/join/")  # the third seat: it starts
    response = members["dan"].post(f"/tables/{table.pk}/join/")
    assert "This table has already started." in members["dan"].messages(response)
    other, _ = open_table(members["eve"], variant="fast", clock="")
    guest = Client()
    response = guest.post(f"/tables/{other.pk}/join/", follow=True)
    assert "Log in to take a seat." in [str(m) for m in response.context["messages"]]
    assert Seat.objects.filter(match=other).count() == 1


def test_a_full_table_refuses(members):
    table, _ = open_table(members["ann"], variant="four", clock="")
    for name in ("ben", "cat", "dan"):
        Seat.objects.create(
            match=table, seat=Seat.objects.filter(match=table).count(), member=members[name].user
        )
    response = members["eve"].post(f"/tables/{table.pk}/join/")
    assert "This table is full." in members["eve"].messages(response)


def test_a_banned_member_cannot_open_or_join(members, moderator):
    from accounts.services import member_ban

    table, _ = open_table(members["ann"])
    member_ban(member=members["ben"].user, by=moderator, reason="spam")
    response = members["ben"].post(f"/tables/{table.pk}/join/")
    # The ban logs the member out at their next request, and says why.
    assert response.status_code == 403
    assert Seat.objects.filter(match=table).count() == 1


def test_at_most_three_waiting_tables_and_challenges(members):
    ann = members["ann"]
    for _ in range(2):
        open_table(ann, clock="")
    ann.post("/@/ben/challenge/", TABLE)
    response = ann.post("/tables/", {**TABLE, "clock": ""})
    assert any(
        "You already have 3 tables and challenges waiting" in m for m in ann.messages(response)
    )
    assert Match.objects.filter(created_by=ann.user).count() == 2


def test_refusals_are_in_the_members_language(make_member):
    ann = Member(make_member("ana"), language="es")
    response = ann.post("/tables/", {**TABLE, "clock": "", "rated": "on"})
    assert "Una mesa con rating necesita un reloj." in ann.messages(response)
    response = ann.post("/tables/", {**TABLE, "variant": "chess"})
    assert any("No existe esa variante." in m for m in ann.messages(response))


def test_forms_refuse_without_csrf(make_member):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_member("ann"))
    assert client.post("/tables/", TABLE).status_code == 403
    assert not Match.objects.exists()


def test_lobby_lists_waiting_tables_with_join_and_own_as_yours(members):
    table, _ = open_table(members["ann"])
    page = members["ben"].client.get("/").content.decode()
    assert re.search(rf'action="/tables/{table.pk}/join/"', page)
    own = members["ann"].client.get("/").content.decode()
    assert f'action="/tables/{table.pk}/cancel/"' in own and "Your table" in own
    assert 'href="/@/ann/"' in page


def test_the_host_fills_the_empty_seats_with_the_computer(members, make_member):
    ann, ben = members["ann"], members["ben"]
    table, response = open_table(ann, variant="four", clock="", format="single")
    assert "Fill the empty seats with the computer" in response.content.decode()
    ben.post(f"/tables/{table.pk}/join/")
    # Only the host; in the member's language; nothing changes.
    dutch = Member(make_member("dirk"), "nl")
    dutch.post(f"/tables/{table.pk}/join/")
    refused = dutch.post(f"/tables/{table.pk}/bots/", {"level": "2"})
    assert "Alleen het lid dat de tafel heeft geopend, kan dat doen." in dutch.messages(refused)
    assert ben.messages(ben.post(f"/tables/{table.pk}/bots/", {"level": "9"}))
    table.refresh_from_db()
    assert table.status == "waiting"
    response = ann.post(f"/tables/{table.pk}/bots/", {"level": "3"})
    table.refresh_from_db()
    assert table.status == "playing"
    seats = [(s.member.username if s.member else None, s.bot_level) for s in table.seats.all()]
    assert sorted(seats, key=str) == sorted(
        [("ann", None), ("ben", None), ("dirk", None), (None, 3)], key=str
    )
    assert response.redirect_chain[-1][0] == f"/match/{table.pk}/"


def test_rated_and_two_seat_tables_are_not_filled_with_the_computer(members):
    ann = members["ann"]
    for settings in ({"variant": "four", "rated": "on"}, {"variant": "fast", "clock": ""}):
        table, response = open_table(ann, **settings)
        assert table.variant == settings["variant"] and table.status == "waiting"
        assert "Fill the empty seats with the computer" not in response.content.decode()
        refused = ann.post(f"/tables/{table.pk}/bots/", {"level": "2"})
        assert (
            "The computer fills seats at unrated tables of three or four players."
            in ann.messages(refused)
        )
        table.refresh_from_db()
        assert table.status == "waiting"
        ann.post(f"/tables/{table.pk}/cancel/")
