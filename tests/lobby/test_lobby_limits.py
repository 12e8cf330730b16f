"""Tables and challenges a member opens or cancels are limited per minute
(``LOBBY_ACTIONS``, ``LOBBY_ACTIONS_PER_MINUTE``), refused in the member's language."""

from datetime import timedelta

import pytest

from games.errors import TableError
from games.models import Challenge, Match
from lobby import services
from tests.lobby.test_tables import TABLE, Member
from tests.timeshift import T0

pytestmark = pytest.mark.django_db

# A moment in the middle of a minute, so a run of actions cannot cross into the next one.
FROZEN = T0 + timedelta(seconds=30)


def frozen_clock():
    """``GAME_TIME_SOURCE`` for the tests that count actions within a minute."""
    return FROZEN


def test_the_eleventh_lobby_action_in_a_minute_is_refused(make_member, settings):
    settings.GAME_TIME_SOURCE = f"{__name__}.frozen_clock"
    ann, ben = Member(make_member("ann")), make_member("ben")
    for _ in range(4):  # 8 actions: tables opened and cancelled
        ann.post("/tables/", TABLE)
        table = Match.objects.get(created_by=ann.user)
        ann.post(f"/tables/{table.pk}/cancel/")
    ann.post("/@/ben/challenge/", TABLE)  # 9 and 10: a challenge, cancelled
    challenge = Challenge.objects.get()
    ann.post(f"/challenges/{challenge.pk}/cancel/")
    assert Challenge.objects.get().status == "cancelled"

    slow_down = "Slow down: at most 10 tables and challenges a minute."
    response = ann.post("/tables/", TABLE)
    assert slow_down in ann.messages(response)
    assert not Match.objects.exists()
    response = ann.post("/@/ben/challenge/", TABLE)
    assert slow_down in ann.messages(response)
    assert Challenge.objects.count() == 1

    table_settings = dict(variant="fast", clock="3+2", single_game=False, rated=False)
    with pytest.raises(TableError) as refused:
        services.table_open(host=ann.user, private=False, now=FROZEN, **table_settings)
    assert refused.value.code == "rate_limited"
    # A new minute, a new allowance.
    next_minute = T0 + timedelta(minutes=1)
    services.table_open(host=ann.user, private=False, now=next_minute, **table_settings)
    services.challenge_send(challenger=ann.user, challenged=ben, now=next_minute, **table_settings)
    assert Match.objects.filter(created_by=ann.user).count() == 1
    assert Challenge.objects.filter(status="pending").count() == 1


def test_the_lobby_limit_is_told_in_the_members_language(make_member, settings):
    settings.GAME_TIME_SOURCE = f"{__name__}.frozen_clock"
    settings.LOBBY_ACTIONS_PER_MINUTE = 2
    ana = Member(make_member("ana"), language="es")
    ana.post("/tables/", TABLE)
    ana.post(f"/tables/{Match.objects.get().pk}/cancel/")
    response = ana.post("/tables/", TABLE)
    assert "Más despacio: como mucho 2 mesas y desafíos por minuto." in ana.messages(response)
    assert not Match.objects.exists()
