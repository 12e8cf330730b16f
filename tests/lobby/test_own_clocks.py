"""A clock of one's own (SPEC §3, §10): a table or a challenge may set ½ to 60 minutes and
0 to 30 seconds a move, posted in the ``clock`` field as ``m+s`` and shown so everywhere
(lobby, table, history, API); a rated one needs at least a minute; anything else is
refused with a clear message and creates nothing. Arenas and Play now keep the presets."""

import re

import pytest

from games import services as game_services
from games.errors import TableError
from games.models import Challenge, Match
from lobby import services
from tests.lobby.test_tables import TABLE, Member, open_table
from tests.moves import play_opening
from tests.timeshift import T0

pytestmark = pytest.mark.django_db

NONSENSE = [
    ("abc", "Write the clock as minutes+seconds, for example 7+4"),
    ("7+", "Write the clock as minutes+seconds"),
    ("-1+2", "Write the clock as minutes+seconds"),
    ("1e3+0", "Write the clock as minutes+seconds"),
    ("07+4", "Write the clock as minutes+seconds"),
    ("own", "Write the clock as minutes+seconds"),  # the list's option, sent without a script
    ("61+0", "A clock has half a minute or 1 to 60 whole minutes."),
    ("0.25+0", "A clock has half a minute or 1 to 60 whole minutes."),
    ("0+3", "A clock has half a minute or 1 to 60 whole minutes."),
    ("7+31", "A clock adds 0 to 30 seconds a move."),
]


@pytest.fixture
def members(make_member):
    return {name: Member(make_member(name)) for name in ("ann", "ben")}


def test_a_table_with_its_own_clock_is_shown_and_played_as_asked(members, client):
    ann, ben = members["ann"], members["ben"]
    table, response = open_table(ann, clock="7+4", rated="on")
    assert table.clock == "7+4" and table.rated
    assert "7+4" in response.content.decode()  # the waiting room
    lobby = ben.client.get("/lobby/lists/").content.decode()
    row = re.search(rf'<tr data-table="{table.pk}">.*?</tr>', lobby, re.S).group(0)
    assert re.search(r"<td[^>]*>7\+4</td>", row)

    listed = client.get("/api/tables/").json()["tables"]
    assert [(t["id"], t["clock"], t["rated"]) for t in listed] == [(table.pk, "7+4", True)]

    ben.post(f"/tables/{table.pk}/join/")
    table.refresh_from_db()
    assert table.status == "playing"
    assert table.clock_state["remaining_ms"] == [420_000, 420_000]
    assert table.clock_state["increment_ms"] == 4_000
    record = client.get(f"/api/matches/{table.pk}/").json()
    assert record["clock"] == {"preset": "7+4", "bank_ms": 420_000, "increment_ms": 4_000}
    page = ann.client.get(f"/match/{table.pk}/").content.decode()
    assert "7+4" in page
    history = client.get("/@/ann/").content.decode()
    assert '<span class="match-clock">7+4</span>' in history


def test_half_a_minute_is_for_unrated_tables(members):
    ann = members["ann"]
    table, _ = open_table(ann, clock="0.5+2")
    assert (table.clock, table.rated) == ("0.5+2", False)
    table.delete()
    response = ann.post("/tables/", {**TABLE, "clock": "0.5+30", "rated": "on"})
    assert "A rated table needs at least 1 minute on the clock." in ann.messages(response)
    assert not Match.objects.exists()
    table, _ = open_table(ann, clock="1+0", rated="on")  # a minute is enough
    assert (table.clock, table.rated) == ("1+0", True)


@pytest.mark.parametrize(("clock", "message"), NONSENSE)
def test_a_clock_the_site_does_not_play_creates_nothing(members, clock, message):
    ann = members["ann"]
    response = ann.post("/tables/", {**TABLE, "clock": clock})
    said = ann.messages(response)
    assert any(text.startswith("Clock: ") and message in text for text in said), said
    response = ann.post("/@/ben/challenge/", {**TABLE, "clock": clock})
    assert any(message in text for text in ann.messages(response))
    assert not Match.objects.exists() and not Challenge.objects.exists()


@pytest.mark.parametrize(("clock", "message"), NONSENSE)
def test_the_services_refuse_the_same_clocks(members, clock, message):
    with pytest.raises(TableError) as refused:
        services.table_open(
            host=members["ann"].user,
            variant="fast",
            clock=clock,
            single_game=False,
            rated=False,
            private=False,
            now=T0,
        )
    assert message in str(refused.value.message)
    assert not Match.objects.exists()


def test_a_challenge_with_its_own_clock(members):
    ann, ben = members["ann"], members["ben"]
    response = ann.post("/@/ben/challenge/", {**TABLE, "clock": "12+8", "rated": "on"})
    challenge = Challenge.objects.get()
    assert 'id="challenge-waiting"' in response.content.decode()
    assert challenge.clock == "12+8"
    assert "12+8" in ben.client.get("/lobby/lists/").content.decode()
    ben.post(f"/challenges/{challenge.pk}/accept/")
    challenge.refresh_from_db()
    assert challenge.match.clock == "12+8" and challenge.match.rated
    assert challenge.match.clock_state["remaining_ms"] == [720_000, 720_000]

    response = ann.post("/@/ben/challenge/", {**TABLE, "clock": "0.5+5", "rated": "on"})
    assert "A rated table needs at least 1 minute on the clock." in ann.messages(response)
    assert Challenge.objects.count() == 1


def test_play_now_and_practice_keep_the_presets(members):
    ann = members["ann"]
    response = ann.post("/play/fast/", {"clock": "7+4"})
    assert any("There is no such clock." in m for m in ann.messages(response))
    with pytest.raises(TableError) as refused:
        services.play_now(member=ann.user, variant="fast", clock="7+4", now=T0)
    assert str(refused.value.message) == "Choose one of the site's clocks."
    response = ann.post("/practice/", {"board": "fast", "level": "2", "clock": "7+4"})
    assert any("There is no such clock." in m for m in ann.messages(response))
    assert not Match.objects.exists()


def test_the_forms_offer_the_presets_and_ones_own_clock(members):
    page = members["ann"].client.get("/").content.decode()
    table_form = page[page.index('id="new-table"') :]
    assert '<option value="own" hidden data-clock-own>your own clock</option>' in table_form
    assert 'data-clock-own-for="id_clock"' in table_form
    assert "js/clock_own.js" in page
    play_now = page[: page.index('id="new-table"')]
    assert "data-clock-own" not in play_now  # Play now and practice: presets only
    profile = members["ann"].client.get("/@/ben/").content.decode()
    assert "data-clock-own" in profile and "js/clock_own.js" in profile


def test_a_rematch_keeps_the_tables_own_clock(members):
    ann, ben = members["ann"].user, members["ben"].user
    match = game_services.match_create(
        variant="fast", members=[ann, ben], now=T0, clock="7+4", rated=True
    )
    play_opening(match, [ann, ben], now=T0)
    game_services.match_resign(match_id=match.pk, user=ben, now=T0)
    for member in (ann, ben):
        match = game_services.rematch_offer(match_id=match.pk, user=member, now=T0)
    assert (match.rematch.clock, match.rematch.rated) == ("7+4", True)
    assert match.rematch.clock_state["remaining_ms"] == [420_000, 420_000]
