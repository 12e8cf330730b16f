"""Repeated challenges to a member make one toast per pair (SPEC §10)."""

from datetime import timedelta

import pytest

from accounts.events import member_group
from games import events
from lobby import services
from tests.conftest import needs_services
from tests.timeshift import T0

pytestmark = pytest.mark.django_db


@needs_services
def test_repeated_challenges_to_a_member_make_one_toast(
    make_member, listen, django_capture_on_commit_callbacks
):
    ann, ben = make_member("ann"), make_member("ben")
    hears = listen(member_group(ben.pk))
    table = dict(variant="fast", clock="3+2", single_game=False, rated=False)
    sent = []
    with django_capture_on_commit_callbacks(execute=True):
        for round_ in range(3):
            now = T0 + timedelta(seconds=round_)
            sent.append(services.challenge_send(challenger=ann, challenged=ben, now=now, **table))
            if round_ < 2:
                services.challenge_cancel(challenge_id=sent[-1].pk, member=ann, now=now)
    events.member_notify(ben.pk, {"kind": "end of the test"})  # after every notice above
    notices = []
    while (payload := hears.next()["payload"])["kind"] != "end of the test":
        notices.append(payload)
    # Every challenge and cancel refreshes ben's lobby; one toast only, the first one.
    assert len(notices) == 5
    toasts = [notice for notice in notices if notice["kind"] == "challenge"]
    assert [(toast["id"], toast["from"]) for toast in toasts] == [(sent[0].pk, "ann")]
    assert all(notice == {"kind": "challenges"} for notice in notices if notice not in toasts)
