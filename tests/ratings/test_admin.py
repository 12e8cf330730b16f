"""Moderators annul a rated match in admin, with a reason that is logged."""

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from ratings import tasks
from ratings.models import RatedMatch, RatingChange
from tests.ratings.conftest import rate_recorded

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:ratings_ratedmatch_changelist"


@pytest.fixture
def rated(members):
    alice, bob = members[:2]
    rate_recorded("fast", 11, [(alice.pk, bob.pk, 1.0)])
    rate_recorded("fast", 12, [(alice.pk, bob.pk, 0.5)])


@pytest.fixture
def queued(monkeypatch):
    calls = []
    monkeypatch.setattr(tasks.scale_recalculate, "delay", lambda *a, **kw: calls.append((a, kw)))
    return calls


def test_moderator_sees_rated_results_with_their_players(client, moderator, rated):
    client.force_login(moderator)
    page = client.get(reverse(CHANGELIST)).content.decode()
    assert "alice, bob" in page
    detail = client.get(reverse("admin:ratings_ratedmatch_change", args=[11]))
    assert detail.status_code == 200 and "1500" in detail.content.decode()


def test_moderator_annuls_with_a_reason_logged_and_the_recalculation_queued(
    client, moderator, rated, queued, django_capture_on_commit_callbacks
):
    client.force_login(moderator)
    form = {"action": "annul_matches", "_selected_action": ["11"]}
    shown = client.post(reverse(CHANGELIST), form)
    assert shown.status_code == 200 and "reason" in shown.content.decode().lower()
    assert RatedMatch.objects.get(pk=11).annulled_at is None
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            reverse(CHANGELIST), {**form, "apply": "1", "reason": "Won against own account"}
        )
    assert done.status_code == 302
    annulled = RatedMatch.objects.get(pk=11)
    assert annulled.annulled_by == moderator
    assert annulled.annul_reason == "Won against own account"
    entry = LogEntry.objects.get(object_id="11")
    assert entry.user == moderator and "Won against own account" in entry.get_change_message()
    assert queued == [(("fast",), {"from_match_id": 11})]
    assert RatedMatch.objects.get(pk=12).annulled_at is None


def test_annulling_without_a_reason_changes_nothing(client, moderator, rated, queued):
    client.force_login(moderator)
    form = {"action": "annul_matches", "_selected_action": ["11"], "apply": "1", "reason": ""}
    assert client.post(reverse(CHANGELIST), form).status_code == 200
    assert RatedMatch.objects.get(pk=11).annulled_at is None and queued == []


def test_staff_without_the_moderators_permissions_cannot_annul(client, make_member, rated):
    staff = make_member("helpdesk", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse(CHANGELIST)).status_code == 403
    form = {"action": "annul_matches", "_selected_action": ["11"], "apply": "1", "reason": "x"}
    client.post(reverse(CHANGELIST), form)
    assert RatedMatch.objects.get(pk=11).annulled_at is None


def test_rated_results_cannot_be_edited_or_deleted_in_admin(client, moderator, rated):
    client.force_login(moderator)
    page = client.get(reverse(CHANGELIST)).content.decode()
    assert "delete_selected" not in page and "annul_matches" in page
    delete = client.post(reverse("admin:ratings_ratedmatch_delete", args=[11]), {"post": "yes"})
    assert delete.status_code == 403
    assert RatingChange.objects.filter(rated_match_id=11).count() == 2
