"""The report endpoint tells nothing of tables the reporter cannot see (SPEC §14, §9): a
chat line of a private table the reporter neither played at nor holds the token of is
refused exactly as a line that does not exist, whoever wrote it; every refusal counts
towards the daily limit, so the endpoint cannot be asked question after question; and
the limit of reports a day holds when requests come together and when the cache forgets
its counts (a row lock and the stored reports, not a cache key)."""

import threading

import pytest
from django.core.cache import cache

from accounts.errors import Refusal
from accounts.models import ReportEntry
from accounts.services import REPORTS_PER_DAY
from games import services as table_services
from games.models import ChatMessage
from lobby.services import member_report
from tests.conftest import needs_services
from tests.moves import play_opening
from tests.timeshift import T0

JSON = {"HTTP_ACCEPT": "application/json"}


def finished_match(members, **settings):
    match = table_services.match_create(variant="fast", members=members, now=T0, seed=7, **settings)
    play_opening(match, members, now=T0)
    table_services.match_resign(match_id=match.pk, user=members[1], now=T0)
    return match


def line(match, author, text: str, **fields) -> ChatMessage:
    return ChatMessage.objects.create(
        match=match, author=author, text=text, created_at=T0, **fields
    )


@pytest.fixture
def people(make_member):
    """ann reports; ben and cat played a private table ann never saw."""
    ann, ben, cat, dan = (make_member(n) for n in ("ann", "ben", "cat", "dan"))
    public = finished_match([ann, dan])  # ann may report: she finished a match
    private = finished_match([ben, cat], private=True)
    return {
        "ann": ann,
        "ben": ben,
        "cat": cat,
        "dan": dan,
        "public": public,
        "private": private,
        "bens": line(private, ben, "ben at the private table"),
        "cats": line(private, cat, "cat at the private table"),
        "dans": line(public, dan, "dan at ann's table"),
    }


def answer(client, username: str, match, message_id: int) -> tuple[int, dict]:
    data = {"reason": "chat_abuse", "match": match.pk, "message": message_id}
    response = client.post(f"/@/{username}/report/", data, **JSON)
    return response.status_code, response.json()


@pytest.mark.django_db
def test_a_line_of_a_table_the_reporter_cannot_see_is_refused_as_no_line(client, people):
    client.force_login(people["ann"])
    private = people["private"]
    no_line = answer(client, "ben", private, 10**9)
    assert no_line[0] == 403
    # ben's own line and cat's line at the table ann cannot see: the same answer as none.
    assert answer(client, "ben", private, people["bens"].pk) == no_line
    assert answer(client, "ben", private, people["cats"].pk) == no_line
    assert answer(client, "cat", private, people["bens"].pk) == answer(
        client, "cat", private, people["cats"].pk
    )
    assert not ReportEntry.objects.exists()
    # Past the limit every question gets the same answer too, the author's line or not.
    for _ in range(REPORTS_PER_DAY):
        answer(client, "ben", private, 10**9)
    over = answer(client, "ben", private, people["bens"].pk)
    assert over[0] == 429
    assert answer(client, "ben", private, people["cats"].pk) == over
    assert answer(client, "ben", private, 10**9) == over
    assert not ReportEntry.objects.exists()


@pytest.mark.django_db
def test_every_refusal_counts_towards_the_daily_limit(client, people):
    client.force_login(people["ann"])
    for _ in range(REPORTS_PER_DAY - 3):
        assert answer(client, "ben", people["private"], people["bens"].pk)[0] == 403
    assert client.post("/@/ann/report/", {"reason": "other"}, **JSON).status_code == 403
    assert client.post("/@/nobody/report/", {"reason": "other"}, **JSON).status_code == 404
    assert client.post("/@/ben/report/", {"reason": "spite"}, **JSON).status_code == 400
    # Ten refused questions are ten reports of the day: a line ann saw is refused too.
    status, refused = answer(client, "dan", people["public"], people["dans"].pk)
    assert status == 429 and refused["error"] == "rate_limited"
    assert not ReportEntry.objects.exists()


@pytest.mark.django_db
def test_players_and_holders_of_the_token_report_a_private_tables_lines(client, people):
    private, bens = people["private"], people["bens"]
    client.force_login(people["cat"])  # a player of the table
    # The table's page gives its chat menu the token to send (a public table has none).
    assert f'data-token="{private.token}"' in client.get(f"/t/{private.token}/").content.decode()
    assert "data-token" not in client.get(f"/match/{people['public'].pk}/").content.decode()
    assert answer(client, "ben", private, bens.pk)[0] == 200
    client.force_login(people["ann"])  # a spectator who had the invitation
    data = {"reason": "chat_abuse", "match": private.pk, "message": bens.pk}
    wrong = client.post("/@/ben/report/", {**data, "token": "not-the-token"}, **JSON)
    assert wrong.status_code == 403
    kept = client.post("/@/ben/report/", {**data, "token": private.token}, **JSON)
    assert kept.status_code == 200
    assert list(ReportEntry.objects.values_list("report__reporter__username", flat=True)) == [
        "cat",
        "ann",
    ]


@pytest.mark.django_db
def test_a_player_cannot_name_a_spectators_line_players_never_see(people, make_member):
    eve = make_member("eve")
    public, ann = people["public"], people["ann"]
    whisper = line(public, eve, "spectators only", audience=ChatMessage.Audience.SPECTATORS)
    with pytest.raises(Refusal) as caught:
        member_report(
            reporter=ann,
            username="eve",
            reason="chat_abuse",
            now=T0,
            match_id=public.pk,
            chat_message_id=whisper.pk,
        )
    assert caught.value.code == "not_allowed"
    # ben, who did not play there, saw it as a spectator: he may report it.
    kept = member_report(
        reporter=people["ben"],
        username="eve",
        reason="chat_abuse",
        now=T0,
        match_id=public.pk,
        chat_message_id=whisper.pk,
    )
    assert kept.entries.get().chat_message_id == whisper.pk


@pytest.mark.django_db
def test_the_daily_limit_holds_when_the_cache_forgets_its_counts(people, make_member):
    ann = people["ann"]
    others = [make_member(f"m{index}") for index in range(REPORTS_PER_DAY + 1)]
    for other in others[:REPORTS_PER_DAY]:
        member_report(reporter=ann, username=other.username, reason="other", now=T0)
    cache.clear()  # Redis restarted, or evicted the counts: the stored reports remain
    with pytest.raises(Refusal) as caught:
        member_report(reporter=ann, username=others[-1].username, reason="other", now=T0)
    assert caught.value.code == "rate_limited"
    assert ReportEntry.objects.filter(report__reporter=ann).count() == REPORTS_PER_DAY


@needs_services
@pytest.mark.django_db(transaction=True)
def test_simultaneous_reports_stop_at_the_daily_limit(people, make_member):
    """Three reports left today, the cache's counts lost, eight reports at once: three
    are kept. Only the reporter's row lock, under which the day's stored reports are
    counted, holds the line here."""
    ann = people["ann"]
    others = [make_member(f"m{index}") for index in range(REPORTS_PER_DAY + 5)]
    for other in others[: REPORTS_PER_DAY - 3]:
        member_report(reporter=ann, username=other.username, reason="other", now=T0)
    cache.clear()
    together = others[REPORTS_PER_DAY - 3 :]
    barrier = threading.Barrier(len(together))
    outcomes: list[str] = []

    def file(username: str) -> None:
        from django.db import connections

        barrier.wait()
        try:
            member_report(reporter=ann, username=username, reason="other", now=T0)
            outcomes.append("kept")
        except Refusal as refusal:
            outcomes.append(refusal.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=file, args=(m.username,)) for m in together]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["kept"] * 3 + ["rate_limited"] * 5
    assert ReportEntry.objects.filter(report__reporter=ann).count() == REPORTS_PER_DAY
