"""The moderators' queue of reports in admin (SPEC §14): open reports newest first, a
report's page with the reported chat line in context, the member's sanctions and latest
tables, and the actions that close a report (dismiss, warn, mute, ban) with a reason,
through the sanctions' services; moderators never act on moderators or superusers."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group

from accounts.models import AuditEntry, MemberWarning, Report, User
from accounts.moderation import MODERATORS_GROUP
from accounts.services import member_warn
from games.models import ChatMessage
from lobby.services import member_report
from tests.lobby.test_reports import finished_match
from tests.timeshift import T0

pytestmark = pytest.mark.django_db

QUEUE = "/admin/accounts/report/"


@pytest.fixture
def ann(make_member):
    return make_member("ann")


@pytest.fixture
def ben(make_member):
    return make_member("ben")


@pytest.fixture
def table(ann, ben):
    return finished_match([ann, ben])


@pytest.fixture
def reported(table, ann, ben) -> Report:
    """Ann's report of Ben's tenth line of twenty at their table."""
    lines = [
        ChatMessage.objects.create(
            match=table, author=ben if i % 2 else ann, text=f"line {i:02}", created_at=T0
        )
        for i in range(20)
    ]
    return member_report(
        reporter=ann,
        username="ben",
        reason="chat_abuse",
        text="Insults",
        match_id=table.pk,
        chat_message_id=lines[9].pk,
        now=T0,
    )


@pytest.fixture
def desk(client, moderator):
    client.force_login(moderator)
    return client


def close(client, report: Report, action: str, **form):
    """The two steps of a closing action: the form, then Apply with ``form``."""
    chosen = {"action": action, "_selected_action": [report.pk]}
    asked = client.post(QUEUE, chosen)
    assert asked.status_code == 200 and "Reason" in asked.content.decode()
    return client.post(QUEUE, {**chosen, "apply": "1", "until": "", **form})


def test_the_queue_shows_open_reports_newest_first_and_closed_ones_on_asking(
    desk, reported, ann, make_member, moderator
):
    cat = make_member("cat")
    finished_match([cat, ann])
    later = member_report(reporter=cat, username="ann", reason="other", now=T0 + timedelta(hours=1))
    page = desk.get(QUEUE)
    assert page.status_code == 200
    assert [r.pk for r in page.context["cl"].result_list] == [later.pk, reported.pk]
    assert "Abuse in chat" in page.content.decode()
    close(desk, later, "dismiss_reports", reason="Not against the rules")
    assert [r.pk for r in desk.get(QUEUE).context["cl"].result_list] == [reported.pk]
    closed = desk.get(QUEUE, {"status": "closed"}).context["cl"].result_list
    assert [r.pk for r in closed] == [later.pk]
    # Reports are kept as filed: nobody adds, edits or deletes one here.
    assert desk.get(f"{QUEUE}add/").status_code == 403
    assert desk.post(f"{QUEUE}{reported.pk}/change/", {"outcome": "banned"}).status_code == 403
    assert desk.post(f"{QUEUE}{reported.pk}/delete/", {"post": "yes"}).status_code == 403


def test_a_reports_page_shows_the_line_among_the_ten_around_it(desk, reported, table, ben):
    page = desk.get(f"{QUEUE}{reported.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    shown = [f"line {i:02}" for i in range(20) if f"line {i:02}" in html]
    assert shown == [f"line {i:02}" for i in range(4, 15)]  # five before, the line, five after
    reported_line = reported.entries.get().chat_message_id
    assert f'class="reported" data-line="{reported_line}"' in html
    assert html.count('class="reported"') == 1
    assert "<mark>line 09</mark>" in html
    # The member's latest tables link to the table pages; their standing and sanctions.
    assert f'href="/match/{table.pk}/"' in html
    assert "Not banned." in html and "Not muted." in html


def test_a_reports_page_shows_earlier_warnings_and_audit_rows(desk, reported, ben, moderator):
    member_warn(member=ben, by=moderator, reason="Mind your words", now=T0)
    html = desk.get(f"{QUEUE}{reported.pk}/change/").content.decode()
    assert html.count("Mind your words") == 2  # the warning, and its audit row


@pytest.mark.parametrize(
    ("action", "outcome"),
    [
        ("dismiss_reports", "dismissed"),
        ("warn_members", "warned"),
        ("mute_members", "muted"),
        ("ban_members", "banned"),
    ],
)
def test_each_action_needs_a_reason_and_closes_the_report(
    desk, reported, ben, moderator, action, outcome
):
    close(desk, reported, action, reason="  ")
    reported.refresh_from_db()
    assert reported.closed_at is None  # no reason, nothing happens
    response = close(desk, reported, action, reason="Read the chat")
    assert response.status_code == 302
    reported.refresh_from_db()
    assert (reported.outcome, reported.close_reason, reported.closed_by) == (
        outcome,
        "Read the chat",
        moderator,
    )
    ben.refresh_from_db()
    assert ben.is_banned() == (outcome == "banned")
    assert ben.is_chat_muted() == (outcome == "muted")
    assert MemberWarning.objects.filter(member=ben).exists() == (outcome == "warned")
    if outcome == "banned":
        assert (ben.ban_reason, ben.banned_by) == ("Read the chat", moderator)
    # The report is closed now: the action cannot close it a second time.
    close(desk, reported, action, reason="Again")
    reported.refresh_from_db()
    assert reported.close_reason == "Read the chat"
    assert AuditEntry.objects.filter(action="report_close").count() == 1


def test_a_warning_shows_once_on_the_members_next_page(desk, reported, client, ben):
    close(desk, reported, "warn_members", reason="Keep the chat friendly")
    client.force_login(ben)
    first = client.get("/").content.decode()
    assert "A moderator warns you: Keep the chat friendly" in first
    assert "Keep the chat friendly" not in client.get("/").content.decode()
    assert MemberWarning.objects.get(member=ben).seen_at is not None


def test_a_fragment_leaves_the_warning_for_the_next_page(client, ben, moderator):
    member_warn(member=ben, by=moderator, reason="Be kind", now=T0)
    client.force_login(ben)
    assert "Be kind" not in client.get("/lobby/lists/").content.decode()
    assert "Be kind" in client.get("/").content.decode()


@pytest.fixture
def colleague(make_member):
    other = make_member("colleague", is_staff=True)
    other.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return other


def test_a_moderator_never_acts_on_a_moderator_or_a_superuser(
    desk, table, ann, colleague, make_member, client
):
    root = make_member("root", is_staff=True, is_superuser=True)
    finished_match([colleague, root])
    about = {
        name: member_report(reporter=ann, username=name, reason="other", now=T0)
        for name in ("colleague", "root")
    }
    # Not in the moderator's queue: they could neither act nor should see who reported.
    assert list(desk.get(QUEUE).context["cl"].result_list) == []
    for report in about.values():
        assert desk.get(f"{QUEUE}{report.pk}/change/").status_code == 302  # "not found"
        desk.post(
            QUEUE,
            {
                "action": "ban_members",
                "_selected_action": [report.pk],
                "apply": "1",
                "reason": "x",
                "until": "",
            },
        )
    assert not User.objects.get(username="colleague").is_banned()
    assert not Report.objects.filter(closed_at__isnull=False).exists()
    # A superuser handles the report about a moderator, not the one about a superuser.
    boss = make_member("boss", is_staff=True, is_superuser=True)
    client.force_login(boss)
    page = client.get(f"{QUEUE}{about['root'].pk}/change/").content.decode()
    assert "Close this report" not in page
    response = close(client, about["root"], "ban_members", reason="x")
    assert "is about a moderator or an administrator: it stays open" in (
        client.get(response["Location"]).content.decode()
    )
    assert not User.objects.get(username="root").is_banned()
    close(client, about["colleague"], "mute_members", reason="Rude in chat")
    assert User.objects.get(username="colleague").is_chat_muted()


def test_the_queue_runs_the_same_queries_for_few_and_many_reports(desk, table, ann, make_member):
    def queries() -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            assert desk.get(QUEUE).status_code == 200
        return len(captured)

    member_report(reporter=ann, username="ben", reason="other", now=T0)
    few = queries()
    for i in range(8):
        make_member(f"m{i}")
        member_report(reporter=ann, username=f"m{i}", reason="cheating", now=T0)
    assert queries() == few


def test_closing_checks_who_may_act_even_to_dismiss(table, ann, colleague, moderator, make_member):
    from accounts.services import NotAllowed, report_close

    make_member("root", is_staff=True, is_superuser=True)
    boss = make_member("boss", is_staff=True, is_superuser=True)
    closers = {"colleague": moderator, "root": boss, "mod": moderator}  # the last: oneself
    for name, by in closers.items():
        report = member_report(reporter=ann, username=name, reason="other", now=T0)
        with pytest.raises(NotAllowed):
            report_close(report_id=report.pk, by=by, outcome="dismissed", reason="Fine", now=T0)
    assert not Report.objects.filter(closed_at__isnull=False).exists()
    assert not AuditEntry.objects.exists()


def test_the_moderators_group_works_the_queue_but_not_the_audit_log():
    group = Group.objects.get(name=MODERATORS_GROUP)  # made by the migrations
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"view_report", "close_report"} <= codenames
    assert not {c for c in codenames if c.endswith("auditentry")}
