"""Arenas' first part (SPEC §12): created by moderators in admin and by the command,
from schedules a day ahead, entered and withdrawn from, cancelled with a reason, and
started and ended on time. Pairing and the live pages come next."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import timing
from games.errors import TableError
from lobby import services
from lobby.models import Arena, ArenaEntry, ArenaSchedule

pytestmark = pytest.mark.django_db


def new_arena(**settings) -> Arena:
    values = {
        "name": "Fast evening",
        "variant": "fast",
        "clock": "1+1",
        "starts_at": timing.now() + timedelta(minutes=10),
        "minutes": 30,
        **settings,
    }
    return services.arena_create(**values)


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("variant", "four"),
        ("variant", "vinco"),
        ("clock", "7+7"),
        ("minutes", 19),
        ("minutes", 181),
    ],
)
def test_an_arena_takes_only_what_spec_allows(setting, value):
    with pytest.raises(TableError):
        new_arena(**{setting: value})
    assert Arena.objects.count() == 0


def test_the_command_prints_the_new_arenas_id(capsys):
    call_command(
        "arena_create",
        "--variant",
        "fast",
        "--clock",
        "1+1",
        "--minutes",
        "30",
        "--starts-in",
        "60",
        "--name",
        "Quick one",
    )
    arena = Arena.objects.get()
    assert capsys.readouterr().out.strip() == str(arena.pk)
    assert (arena.name, arena.variant, arena.clock, arena.minutes) == (
        "Quick one",
        "fast",
        "1+1",
        30,
    )
    assert abs((arena.starts_at - timing.now()).total_seconds() - 60) < 5


def test_the_command_refuses_a_wrong_variant_with_the_reason():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="rated two-player variant"):
        call_command("arena_create", "--variant", "four", "--clock", "1+1", "--minutes", "30")
    assert Arena.objects.count() == 0


def test_join_withdraw_and_join_again(make_member):
    alice = make_member("alice")
    arena = new_arena()
    now = timing.now()
    services.arena_join(arena_id=arena.pk, member=alice, now=now)
    services.arena_withdraw(arena_id=arena.pk, member=alice, now=now)
    entry = ArenaEntry.objects.get()
    assert (entry.active, entry.withdrawn_at) == (False, now)
    later = now + timedelta(minutes=1)
    services.arena_join(arena_id=arena.pk, member=alice, now=later)
    entry.refresh_from_db()
    assert entry.active and entry.withdrawn_at is None
    assert entry.joined_at == now  # the first entry stays: it breaks ties
    arena.refresh_from_db()
    assert arena.version == 3


def test_a_banned_member_cannot_join_and_nothing_changes(make_member):
    mallory = make_member("mallory")
    mallory.banned_at = timing.now()
    mallory.save()
    arena = new_arena()
    with pytest.raises(TableError, match="banned"):
        services.arena_join(arena_id=arena.pk, member=mallory, now=timing.now())
    assert ArenaEntry.objects.count() == 0
    arena.refresh_from_db()
    assert arena.version == 0


def test_nobody_joins_an_arena_that_is_over_or_withdraws_without_being_in(make_member):
    alice = make_member("alice")
    arena = new_arena(starts_at=timing.now() - timedelta(minutes=40))
    with pytest.raises(TableError, match="over"):
        services.arena_join(arena_id=arena.pk, member=alice, now=timing.now())
    with pytest.raises(TableError, match="not taking part"):
        services.arena_withdraw(arena_id=arena.pk, member=alice, now=timing.now())
    assert ArenaEntry.objects.count() == 0


def test_arenas_start_and_end_on_time():
    now = timing.now()
    arena = new_arena(starts_at=now + timedelta(minutes=1), minutes=20)
    assert services.arenas_advance(now=now) == 0
    assert services.arenas_advance(now=now + timedelta(minutes=1)) == 1
    arena.refresh_from_db()
    assert arena.status == Arena.Status.RUNNING
    assert services.arenas_advance(now=now + timedelta(minutes=2)) == 0  # nothing to say
    assert services.arenas_advance(now=now + timedelta(minutes=21)) == 1
    arena.refresh_from_db()
    assert (arena.status, arena.version) == (Arena.Status.FINISHED, 2)


def test_cancelling_needs_a_reason_and_stops_the_arena():
    arena = new_arena()
    with pytest.raises(TableError):
        services.arena_cancel(arena_id=arena.pk, reason="  ")
    services.arena_cancel(arena_id=arena.pk, reason="Server maintenance")
    arena.refresh_from_db()
    assert (arena.status, arena.cancel_reason) == (Arena.Status.CANCELLED, "Server maintenance")
    assert services.arenas_advance(now=timing.now() + timedelta(hours=2)) == 0
    with pytest.raises(TableError):
        services.arena_cancel(arena_id=arena.pk, reason="again")


def test_a_schedule_makes_the_next_days_arenas_once():
    now = timing.now()
    schedule = ArenaSchedule.objects.create(
        name="Hourly Fast",
        variant="fast",
        clock="1+1",
        minutes=30,
        first_start=now - timedelta(hours=5, minutes=30),
        every_hours=6,
    )
    made = services.arenas_schedule(now=now)
    starts = sorted(a.starts_at for a in made)
    assert starts == [now + timedelta(minutes=30 + 360 * i) for i in range(4)]
    assert all(a.schedule_id == schedule.pk and a.name == "Hourly Fast" for a in made)
    assert services.arenas_schedule(now=now + timedelta(minutes=5)) == []
    schedule.active = False
    schedule.save()
    assert services.arenas_schedule(now=now + timedelta(days=2)) == []


def test_moderators_create_change_and_cancel_arenas_in_admin(client, moderator):
    client.force_login(moderator)
    start = (timing.now() + timedelta(hours=1)).replace(microsecond=0)
    response = client.post(
        reverse("admin:lobby_arena_add"),
        {
            "name": "Admin arena",
            "variant": "classic",
            "clock": "3+2",
            "starts_at_0": start.strftime("%Y-%m-%d"),
            "starts_at_1": start.strftime("%H:%M:%S"),
            "minutes": "45",
            "entries-TOTAL_FORMS": "0",
            "entries-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    arena = Arena.objects.get()
    assert (arena.variant, arena.minutes, arena.created_by) == ("classic", 45, moderator)

    response = client.post(
        reverse("admin:lobby_arena_changelist"),
        {"action": "cancel_arenas", "_selected_action": [arena.pk]},
    )
    assert response.status_code == 200  # the reason first
    arena.refresh_from_db()
    assert arena.status == Arena.Status.UPCOMING
    client.post(
        reverse("admin:lobby_arena_changelist"),
        {
            "action": "cancel_arenas",
            "_selected_action": [arena.pk],
            "apply": "1",
            "reason": "Nobody came",
        },
    )
    arena.refresh_from_db()
    assert (arena.status, arena.cancel_reason) == (Arena.Status.CANCELLED, "Nobody came")


def test_a_started_arena_keeps_its_settings_in_admin(client, moderator):
    client.force_login(moderator)
    arena = new_arena(starts_at=timing.now() - timedelta(minutes=1))
    response = client.get(reverse("admin:lobby_arena_change", args=[arena.pk]))
    assert response.status_code == 200
    assert b'name="minutes"' not in response.content  # read only
    with pytest.raises(TableError):
        services.arena_update(arena_id=arena.pk, now=timing.now(), minutes=60)
    arena.refresh_from_db()
    assert arena.minutes == 30
