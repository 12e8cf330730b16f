"""The audit log (SPEC §14): every sanction by a moderator writes exactly one row, where the
moderators act (admin) and in the sanction's transaction; the system's own actions write
none; names outlive deleted accounts; superusers read it and nobody edits it."""

from datetime import timedelta

import pytest
from django.urls import reverse

from accounts import services
from accounts.models import AuditEntry, User
from games import services as table_services
from games import timing
from lobby import services as lobby_services
from ratings import tasks
from tests.moves import play_opening
from tests.ratings.conftest import rate_recorded
from tests.timeshift import T0

pytestmark = pytest.mark.django_db

MEMBERS = "/admin/accounts/user/"


@pytest.fixture
def ben(make_member):
    return make_member("ben")


@pytest.fixture
def root(make_member):
    return make_member("root", is_staff=True, is_superuser=True)


@pytest.fixture
def desk(client, moderator):
    client.force_login(moderator)
    return client


def the_row() -> AuditEntry:
    """The one row there is (``get`` fails on none or two)."""
    return AuditEntry.objects.get()


def act(client, url: str, action: str, pk, **form):
    """An admin action with its form: the form first, then Apply."""
    chosen = {"action": action, "_selected_action": [pk]}
    assert client.post(url, chosen).status_code == 200  # the form asks why
    assert not AuditEntry.objects.exists()
    return client.post(url, {**chosen, "apply": "1", **form})


@pytest.mark.parametrize(
    ("action", "form", "logged"),
    [
        ("ban_members", {"reason": "Cheating", "until": ""}, "ban"),
        ("mute_members", {"reason": "Insults", "until": ""}, "mute"),
    ],
)
def test_a_ban_or_a_mute_writes_one_row(desk, moderator, ben, action, form, logged):
    act(desk, MEMBERS, action, ben.pk, **form)
    row = the_row()
    assert (row.action, row.by, row.by_name, row.member, row.member_name, row.reason) == (
        logged,
        moderator,
        "mod",
        ben,
        "ben",
        form["reason"],
    )


@pytest.mark.parametrize(
    ("action", "logged"), [("unban_members", "unban"), ("unmute_members", "unmute")]
)
def test_lifting_a_ban_or_a_mute_asks_why_and_writes_one_row(desk, moderator, ben, action, logged):
    services.member_ban(member=ben, by=None, reason="By the system")
    services.member_mute(member=ben)
    act(desk, MEMBERS, action, ben.pk, reason="")  # no reason: nothing happens
    ben.refresh_from_db()
    assert ben.is_banned() and ben.is_chat_muted()
    act(desk, MEMBERS, action, ben.pk, reason="Served the time")
    ben.refresh_from_db()
    assert ben.is_banned() != (logged == "unban") and ben.is_chat_muted() != (logged == "unmute")
    row = the_row()
    assert (row.action, row.by, row.member, row.reason) == (
        logged,
        moderator,
        ben,
        "Served the time",
    )


def test_a_warning_writes_one_row(moderator, ben):
    services.member_warn(member=ben, by=moderator, reason="Mind your words", now=T0)
    row = the_row()
    assert (row.action, row.member, row.reason, row.at) == ("warn", ben, "Mind your words", T0)


def test_an_abort_in_admin_writes_one_row(desk, moderator, make_member):
    match = table_services.match_create(
        variant="fast", members=[make_member("ann"), make_member("bob")], now=T0, seed=7
    )
    act(desk, "/admin/games/match/", "abort_matches", match.pk, reason="Both players left")
    row = the_row()
    assert (row.action, row.by, row.member, row.reason, row.reference) == (
        "abort",
        moderator,
        None,
        "Both players left",
        f"match {match.pk}",
    )


def test_an_annulment_in_admin_writes_one_row(desk, moderator, make_member, monkeypatch):
    monkeypatch.setattr(tasks.scale_recalculate, "delay", lambda *a, **kw: None)
    alice, bob = make_member("alice"), make_member("bob")
    rate_recorded("fast", 11, [(alice.pk, bob.pk, 1.0)])
    act(desk, "/admin/ratings/ratedmatch/", "annul_matches", 11, reason="Own second account")
    row = the_row()
    assert (row.action, row.by, row.reason, row.reference) == (
        "annul",
        moderator,
        "Own second account",
        "match 11",
    )


def test_an_arena_cancelled_in_admin_writes_one_row(desk, moderator):
    arena = lobby_services.arena_create(
        name="Evening", variant="fast", clock="1+1", starts_at=T0 + timedelta(hours=1), minutes=30
    )
    act(desk, "/admin/lobby/arena/", "cancel_arenas", arena.pk, reason="Nobody came")
    row = the_row()
    assert (row.action, row.by, row.reason, row.reference) == (
        "arena_cancel",
        moderator,
        "Nobody came",
        f"arena {arena.pk}",
    )


def test_a_member_deleted_in_admin_writes_one_row_that_keeps_the_name(client, root, ben):
    client.force_login(root)
    response = client.post(f"{MEMBERS}{ben.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not User.objects.filter(username="ben").exists()
    row = the_row()
    assert (row.action, row.by, row.member, row.member_name) == ("member_delete", root, None, "ben")


def test_closing_a_report_writes_its_row_and_the_sanctions(moderator, ben, make_member):
    from lobby.services import member_report

    ann = make_member("ann")
    match = table_services.match_create(variant="fast", members=[ann, ben], now=T0, seed=7)
    play_opening(match, [ann, ben], now=T0)
    table_services.match_resign(match_id=match.pk, user=ann, now=T0)
    report = member_report(reporter=ann, username="ben", reason="cheating", now=T0)
    services.report_close(
        report_id=report.pk, by=moderator, outcome="dismissed", reason="No proof", now=T0
    )
    assert the_row().action == "report_close"
    second = member_report(reporter=ann, username="ben", reason="cheating", now=T0)
    services.report_close(
        report_id=second.pk, by=moderator, outcome="banned", reason="Engine", now=T0
    )
    closing = AuditEntry.objects.filter(reference=f"report {second.pk}").order_by("pk")
    assert [(r.action, r.reason) for r in closing] == [
        ("ban", "Engine"),
        ("report_close", "Engine"),
    ]


def test_the_systems_own_actions_write_no_row(ben, make_member, moderator):
    services.member_ban(member=ben, by=None, reason="Automatic")
    services.member_unban(member=ben)
    services.member_mute(member=ben)
    services.member_unmute(member=ben)
    match = table_services.match_create(
        variant="fast", members=[make_member("ann"), make_member("bob")], now=T0, seed=7
    )
    table_services.match_abort(match_id=match.pk, now=timing.now())
    services.member_delete(member=ben)  # a member deleting their own account
    assert not AuditEntry.objects.exists()


def test_a_sanction_that_fails_writes_no_row(moderator, ben):
    with pytest.raises(ValueError):
        services.member_ban(member=ben, by=moderator, reason="   ")
    with pytest.raises(services.NotAllowed):
        services.member_warn(member=moderator, by=moderator, reason="Myself", now=T0)
    assert not AuditEntry.objects.exists()


def test_a_row_keeps_the_moderators_name_after_their_account_goes(moderator, ben):
    services.member_warn(member=ben, by=moderator, reason="Mind your words", now=T0)
    services.member_delete(member=moderator)
    row = the_row()
    assert (row.by, row.by_name, row.member_name) == (None, "mod", "ben")


def test_superusers_read_the_log_and_nobody_edits_it(client, root, moderator, ben):
    services.member_warn(member=ben, by=moderator, reason="Mind your words", now=T0)
    row = the_row()
    client.force_login(root)
    listing = client.get("/admin/accounts/auditentry/")
    assert listing.status_code == 200 and "Mind your words" in listing.content.decode()
    assert client.get(f"/admin/accounts/auditentry/{row.pk}/change/").status_code == 200
    assert client.get("/admin/accounts/auditentry/add/").status_code == 403
    changed = client.post(
        f"/admin/accounts/auditentry/{row.pk}/change/", {"reason": "nothing happened"}
    )
    assert changed.status_code == 403
    assert (
        client.post(f"/admin/accounts/auditentry/{row.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    bulk = client.post(
        "/admin/accounts/auditentry/",
        {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"},
    )
    assert bulk.status_code == 200  # no such action: the list again, nothing deleted
    assert AuditEntry.objects.get().reason == "Mind your words"


def test_moderators_do_not_see_the_log(desk):
    assert "/admin/accounts/auditentry/" not in desk.get(reverse("admin:index")).content.decode()
    assert desk.get("/admin/accounts/auditentry/").status_code == 403
