"""Reports (SPEC §14), filing them: who may report whom, a reporter's reports of one member
within a day merged into the open one, the daily limit, a chat line that must be the
member's at that table, and the endpoint's answers (docs/protocol.md, "Reporting a chat
line"). The moderators' queue is in tests/lobby/test_report_queue.py."""

from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from accounts.errors import Refusal
from accounts.models import Report, ReportEntry
from accounts.services import REPORTS_PER_DAY
from games import services as table_services
from games.models import ChatMessage, Match
from games.services.practice import BOARDS
from lobby.services import member_report
from tests.moves import play_opening
from tests.timeshift import T0, advance

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def finished_match(members):
    match = table_services.match_create(variant="fast", members=members, now=T0, seed=7)
    play_opening(match, members, now=T0)
    table_services.match_resign(match_id=match.pk, user=members[1], now=T0)
    return match


@pytest.fixture
def ann(make_member):
    return make_member("ann")


@pytest.fixture
def ben(make_member):
    return make_member("ben")


@pytest.fixture
def table(ann, ben):
    """Ann and Ben's finished match: both may report."""
    return finished_match([ann, ben])


def line(match, author, text: str) -> ChatMessage:
    return ChatMessage.objects.create(match=match, author=author, text=text, created_at=T0)


def report(reporter, username="ben", reason="cheating", at=T0, **fields) -> Report:
    return member_report(reporter=reporter, username=username, reason=reason, now=at, **fields)


def refusal(reporter, username="ben", **fields) -> Refusal:
    with pytest.raises(Refusal) as caught:
        report(reporter, username, **fields)
    return caught.value


def test_a_member_reports_another_with_a_reason_and_a_text(table, ann, ben):
    kept = report(ann, "BEN", reason="sandbagging", text="  Lost on purpose to boost a friend. ")
    assert (kept.reporter, kept.member, kept.opened_at, kept.closed_at) == (ann, ben, T0, None)
    entry = kept.entries.get()
    assert (entry.reason, entry.text, entry.filed_at) == (
        "sandbagging",
        "Lost on purpose to boost a friend.",
        T0,
    )
    assert (entry.match_id, entry.chat_message_id) == (None, None)


def test_who_may_not_report(table, ann, ben, make_member):
    loner = make_member("loner")  # verified, but has never finished a match
    assert refusal(loner).code == "not_allowed"
    practice = table_services.practice_start(
        member=loner, board=BOARDS[0], level=1, member_starts=True, clock="", now=T0
    )
    Match.objects.filter(pk=practice.pk).update(status=Match.Status.FINISHED)
    assert refusal(loner).code == "not_allowed"  # a finished practice game does not count
    assert str(refusal(ann, "ann").message) == "You cannot report yourself."
    assert refusal(ann, "nobody").code == "not_found"
    computer = table_services.match_create(
        variant="three", members=[ann], bots={1: 2, 2: 3}, now=T0, seed=1
    ).seats.get(seat=1)
    assert refusal(ann, computer.display_name).code == "not_found"  # a computer is no member
    EmailAddress.objects.filter(user=ann).update(verified=False)
    assert str(refusal(ann).message) == "Confirm your e-mail address before reporting a member."
    assert not Report.objects.exists() and not ReportEntry.objects.exists()


def test_reports_of_one_member_within_a_day_go_into_the_open_one(table, ann, ben):
    first = report(ann, reason="cheating", text="Too fast.")
    said = line(table, ben, "you are rubbish")
    again = report(
        ann,
        reason="chat_abuse",
        text="And rude.",
        at=T0 + DAY - timedelta(seconds=1),
        match_id=table.pk,
        chat_message_id=said.pk,
    )
    assert again.pk == first.pk
    entries = list(first.entries.values_list("reason", "text", "chat_message_id"))
    assert entries == [("cheating", "Too fast.", None), ("chat_abuse", "And rude.", said.pk)]
    # A day after the report opened, another one opens.
    later = report(ann, at=T0 + DAY + timedelta(seconds=1))
    assert later.pk != first.pk and later.entries.count() == 1
    # Another reporter's report of the same member is a report of their own.
    assert report(ben, "ann").pk not in (first.pk, later.pk)


def test_a_closed_report_takes_no_more(table, ann, ben, moderator):
    from accounts.services import report_close

    first = report(ann)
    report_close(report_id=first.pk, by=moderator, outcome="dismissed", reason="No proof", now=T0)
    assert report(ann, at=T0 + timedelta(hours=1)).pk != first.pk


def test_a_member_files_at_most_ten_reports_a_day(table, ann, make_member):
    others = [make_member(f"m{i}") for i in range(3)]
    for i in range(REPORTS_PER_DAY):  # merged ones count too
        report(ann, others[i % 3].username, at=T0 + timedelta(minutes=i))
    failure = refusal(ann, "ben")
    assert failure.code == "rate_limited"
    assert str(failure.message) == (
        "You have sent 10 reports today (UTC): please wait until tomorrow."
    )
    assert not Report.objects.filter(member__username="ben").exists()
    assert report(ann, "ben", at=T0 + DAY + timedelta(minutes=1)).member.username == "ben"


def test_a_chat_line_must_be_the_members_at_that_table(table, ann, ben, make_member):
    cat = make_member("cat")
    elsewhere = finished_match([ben, cat])
    bens = line(table, ben, "ben at ann's table")
    cats = line(elsewhere, cat, "cat's line")
    bens_elsewhere = line(elsewhere, ben, "ben elsewhere")
    message = "This member wrote no such line at a table you can see."
    for match_id, message_id in [
        (table.pk, cats.pk),  # another author
        (table.pk, bens_elsewhere.pk),  # another table
        (elsewhere.pk, bens.pk),  # the table named is not the line's
        (None, bens.pk),
        (table.pk, 10**9),  # no such line
    ]:
        failure = refusal(ann, match_id=match_id, chat_message_id=message_id)
        assert str(failure.message) == message
    assert not Report.objects.exists()
    kept = report(
        ann, reason="chat_abuse", match_id=elsewhere.pk, chat_message_id=bens_elsewhere.pk
    )
    # ann may report a line of a table she did not play at: she may have watched it
    entry = kept.entries.get()
    assert (entry.match_id, entry.chat_message_id) == (elsewhere.pk, bens_elsewhere.pk)


# --- the endpoint ----------------------------------------------------------------------

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def browser(client, ann, table):
    client.force_login(ann)
    return client


def test_a_report_from_the_members_page_goes_back_there_with_thanks(browser, ben):
    response = browser.post("/@/ben/report/", {"reason": "cheating", "text": "Engine moves"})
    assert response.status_code == 302 and response["Location"] == "/@/ben/"
    page = browser.get("/@/ben/").content.decode()
    assert "Thank you: the moderators will look into your report." in page
    assert Report.objects.get().entries.get().text == "Engine moves"


def test_a_report_of_a_chat_line_answers_json(browser, table, ben):
    said = line(table, ben, "rude words")
    data = {"reason": "chat_abuse", "match": table.pk, "message": said.pk}
    response = browser.post("/@/ben/report/", data, **JSON)
    assert response.status_code == 200
    assert response.json() == {
        "ok": True,
        "message": "Thank you: the moderators will look into your report.",
    }
    entry = ReportEntry.objects.get()
    assert (entry.match_id, entry.chat_message_id, entry.text) == (table.pk, said.pk, "")
    # A second report of the same member a moment later is merged: the same answer.
    advance(60)
    assert browser.post("/@/ben/report/", data, **JSON).json()["ok"] is True
    assert Report.objects.count() == 1 and ReportEntry.objects.count() == 2


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"reason": "spite"}, "Choose one of the reasons."),
        ({}, "Choose one of the reasons."),
        (
            {"reason": "other", "text": "x" * 1001},
            "Ensure this value has at most 1000 characters (it has 1001).",
        ),
        ({"reason": "other", "match": "1", "message": "seven"}, "There is no such chat line."),
        ({"reason": "other", "message": "7"}, "There is no such chat line."),
        ({"reason": "other", "match": "1", "message": str(2**70)}, "There is no such chat line."),
    ],
)
def test_a_form_with_nonsense_is_refused_and_nothing_kept(browser, fields, message):
    response = browser.post("/@/ben/report/", fields, **JSON)
    assert response.status_code == 400
    assert response.json() == {"error": "invalid", "message": message}
    response = browser.post("/@/ben/report/", {**fields, "next": "/match/1/"})
    assert response.status_code == 302 and response["Location"] == "/match/1/"
    assert message in browser.get("/@/ben/").content.decode()
    assert not Report.objects.exists()


def test_refusals_answer_with_their_code_and_status(browser, ann, client):
    refused = browser.post("/@/ann/report/", {"reason": "other"}, **JSON)
    assert refused.status_code == 403
    assert refused.json() == {"error": "not_allowed", "message": "You cannot report yourself."}
    assert browser.post("/@/nobody/report/", {"reason": "other"}, **JSON).status_code == 404
    assert browser.post("/@/nobody/report/", {"reason": "other"}).status_code == 404
    # The three refusals counted towards the day's reports, as the reports kept do.
    for _ in range(REPORTS_PER_DAY - 3):
        assert browser.post("/@/ben/report/", {"reason": "other"}, **JSON).status_code == 200
    assert browser.post("/@/ben/report/", {"reason": "other"}, **JSON).status_code == 429
    back = browser.post("/@/ben/report/", {"reason": "other"})
    assert back.status_code == 302 and ReportEntry.objects.count() == REPORTS_PER_DAY - 3
    nonsense = browser.post("/@/ben/report/", {"reason": "spite"}, **JSON)
    assert nonsense.status_code == 429  # past the limit, whatever is asked
    browser.logout()
    visitor = browser.post("/@/ben/report/", {"reason": "other"}, **JSON)
    assert visitor.status_code == 403 and visitor.json()["error"] == "not_allowed"
    login = browser.post("/@/ben/report/", {"reason": "other"})
    assert login.status_code == 302 and login["Location"].startswith("/accounts/login/")


def test_the_endpoint_wants_a_post_with_csrf(ann, table):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    assert browser.post("/@/ben/report/", {"reason": "other"}).status_code == 403
    assert browser.get("/@/ben/report/").status_code == 405
    assert not Report.objects.exists()


def test_the_members_page_offers_the_report_form_to_other_members_only(browser, client, ben):
    assert 'action="/@/ben/report/"' in browser.get("/@/ben/").content.decode()
    assert 'action="/@/ann/report/"' not in browser.get("/@/ann/").content.decode()
    browser.logout()
    assert 'action="/@/ben/report/"' not in client.get("/@/ben/").content.decode()
