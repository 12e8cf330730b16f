"""Arenas' writes (SPEC §12): creating one (admin, the command, the schedule), entering
and withdrawing, cancelling, and the clock of its life (upcoming → running → finished).
Pairing comes with the arena's worker task.

Each write is one transaction on the arena's row (locked), bumps its ``version`` and
tells its pages after the commit (``{"type": "arena", "version": n}`` to the group
``arena-<id>``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.limits import Limit
from accounts.models import AuditEntry, User
from accounts.services import audit_record
from games import events
from games.engine.clock import PRESETS
from games.errors import TableError
from lobby.models import (
    ARENA_VARIANTS,
    LONGEST_MINUTES,
    SHORTEST_MINUTES,
    Arena,
    ArenaEntry,
    ArenaSchedule,
)
from lobby.services.members import member_check

SCHEDULE_AHEAD = timedelta(days=1)  # the beat creates a scheduled arena this early


def arena_group(arena_id: int) -> str:
    return f"arena-{arena_id}"


#: joins and withdrawals of a member, all arenas together: each one bumps the arena and
#: every open arena page looks again (36 toggles in 15 s once slowed everyone's moves 14×)
ARENA_ENTRIES = Limit("arena-entries", 6, 60, setting="ARENA_ENTRIES_PER_MINUTE")


def arena_entry_rate_check(member: User, now: datetime) -> None:
    if not ARENA_ENTRIES.hit(member.pk, now=now):
        raise TableError(
            "rate_limited",
            _("Slow down: at most %(limit)d arena joins and withdrawals a minute.")
            % {"limit": ARENA_ENTRIES.rate()[0]},
        )


def arena_changed(arena: Arena) -> None:
    """The arena's pages look again, once the change is committed."""
    arena.version += 1
    arena.save(update_fields=["version", "status", "cancel_reason"])
    arena_id, version = arena.pk, arena.version
    transaction.on_commit(
        lambda: events.send(arena_group(arena_id), {"type": "arena.changed", "version": version})
    )


def arena_locked(arena_id: int) -> Arena:
    arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
    if arena is None:
        raise TableError("not_found", _("This arena does not exist."))
    return arena


@transaction.atomic
def arena_create(
    *,
    name: str,
    variant: str,
    clock: str,
    starts_at: datetime,
    minutes: int,
    created_by: User | None = None,
    schedule: ArenaSchedule | None = None,
) -> Arena:
    """A new arena; its settings are checked as SPEC §12 sets them."""
    arena_settings_check(variant, clock, minutes)
    return Arena.objects.create(
        name=name.strip()[:80],
        variant=variant,
        clock=clock,
        starts_at=starts_at,
        minutes=minutes,
        created_by=created_by,
        schedule=schedule,
    )


@transaction.atomic
def arena_update(*, arena_id: int, now: datetime, **settings) -> Arena:
    """A moderator changes an arena's settings (``name``, ``variant``, ``clock``,
    ``starts_at``, ``minutes``) before it starts; afterwards they stay."""
    arena = arena_locked(arena_id)
    if arena.status != Arena.Status.UPCOMING or arena.starts_at <= now:
        raise TableError("not_allowed", _("An arena that has started keeps its settings."))
    arena_settings_check(
        settings.get("variant", arena.variant),
        settings.get("clock", arena.clock),
        settings.get("minutes", arena.minutes),
    )
    for field in ("name", "variant", "clock", "starts_at", "minutes"):
        if field in settings:
            setattr(arena, field, settings[field])
    arena.save(update_fields=["name", "variant", "clock", "starts_at", "minutes"])
    arena_changed(arena)
    return arena


def arena_settings_check(variant: str, clock: str, minutes: int) -> None:
    """An arena's settings as SPEC §12 allows them, else ``TableError``."""
    if variant not in ARENA_VARIANTS:
        raise TableError("not_allowed", _("Arenas are played on a rated two-player variant."))
    if clock not in PRESETS:
        raise TableError("not_allowed", _("Choose one of the site's clocks."))
    if not SHORTEST_MINUTES <= minutes <= LONGEST_MINUTES:
        raise TableError("not_allowed", _("An arena runs 20 to 180 minutes."))


@transaction.atomic
def arena_join(*, arena_id: int, member: User | None, now: datetime) -> ArenaEntry:
    """Enter an arena before or while it runs, or come back after withdrawing (the points
    stay)."""
    member = member_check(member, now)
    arena_entry_rate_check(member, now)
    arena = arena_locked(arena_id)
    if arena.status not in (Arena.Status.UPCOMING, Arena.Status.RUNNING) or now >= arena.ends_at:
        raise TableError("not_allowed", _("This arena is over: it takes no more players."))
    entry, created = ArenaEntry.objects.get_or_create(
        arena=arena, member=member, defaults={"joined_at": now}
    )
    if not created and entry.active:
        return entry
    entry.active, entry.withdrawn_at = True, None
    entry.save(update_fields=["active", "withdrawn_at"])
    arena_changed(arena)
    return entry


@transaction.atomic
def arena_withdraw(*, arena_id: int, member: User | None, now: datetime) -> None:
    """Stop being paired; the points stay, and the member may join again."""
    if member is None or not member.is_authenticated:
        raise TableError("not_allowed", _("Log in to take part in an arena."))
    arena_entry_rate_check(member, now)
    arena = arena_locked(arena_id)
    entry = ArenaEntry.objects.filter(arena=arena, member=member, active=True).first()
    if entry is None:
        raise TableError("not_allowed", _("You are not taking part in this arena."))
    entry.active, entry.withdrawn_at = False, now
    entry.save(update_fields=["active", "withdrawn_at"])
    arena_changed(arena)


@transaction.atomic
def arena_cancel(
    *, arena_id: int, reason: str, by: User | None = None, now: datetime | None = None
) -> Arena:
    """A moderator (``by``, kept in the audit log) cancels an arena that has not finished:
    nobody is paired from now on; matches under way play on and count for ratings; the
    arena ends without a podium."""
    reason = reason.strip()
    if not reason:
        raise TableError("not_allowed", _("Say why the arena is cancelled."))
    arena = arena_locked(arena_id)
    if arena.status in (Arena.Status.FINISHED, Arena.Status.CANCELLED):
        raise TableError("not_allowed", _("This arena is over already."))
    arena.status = Arena.Status.CANCELLED
    arena.cancel_reason = reason[:300]
    arena_changed(arena)
    audit_record(
        action=AuditEntry.Action.ARENA_CANCEL,
        by=by,
        reason=reason,
        reference=f"arena {arena_id}",
        now=now,
    )
    return arena


def arenas_advance(*, now: datetime) -> int:
    """Every few seconds (beat): arenas whose start has come run, those whose end has come
    finish. Returns how many changed."""
    changed = 0
    due = Arena.objects.filter(
        status__in=[Arena.Status.UPCOMING, Arena.Status.RUNNING], starts_at__lte=now
    ).values_list("pk", flat=True)
    for arena_id in due:
        changed += _advance(arena_id, now)
    return changed


@transaction.atomic
def _advance(arena_id: int, now: datetime) -> int:
    arena = arena_locked(arena_id)
    was = arena.status
    if arena.status == Arena.Status.UPCOMING and arena.starts_at <= now:
        arena.status = Arena.Status.RUNNING
    if arena.status == Arena.Status.RUNNING and arena.ends_at <= now:
        arena.status = Arena.Status.FINISHED
    if arena.status == was:
        return 0
    if arena.status == Arena.Status.FINISHED:
        from lobby.services.arena_play import podium_set

        podium_set(arena)
    arena_changed(arena)
    return 1


def arenas_schedule(*, now: datetime) -> list[Arena]:
    """Every hour (beat): each active schedule's arenas of the next day that do not exist
    yet. A start already created is never created twice (one per schedule and start)."""
    created = []
    for schedule in ArenaSchedule.objects.filter(active=True):
        for start in schedule.starts_between(now, now + SCHEDULE_AHEAD):
            with transaction.atomic():
                if Arena.objects.filter(schedule=schedule, starts_at=start).exists():
                    continue
                created.append(
                    arena_create(
                        name=schedule.name,
                        variant=schedule.variant,
                        clock=schedule.clock,
                        starts_at=start,
                        minutes=schedule.minutes,
                        schedule=schedule,
                    )
                )
    return created
