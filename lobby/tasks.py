"""Celery tasks of the lobby: thin wrappers around ``lobby.services``."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from accounts.selectors import bot_names_refresh as bot_names_refresh_now
from games import timing
from lobby import services


@shared_task(ignore_result=True)
def challenges_expire() -> int:
    """At a challenge's end, and every half minute (beat): challenges whose two minutes
    are over."""
    return services.challenges_expire(now=timing.now())


@shared_task(ignore_result=True)
def hosts_gone_withdraw() -> int:
    """Every half minute (beat): waiting tables whose host has gone from the site."""
    return services.hosts_gone_withdraw(now=timing.now())


@shared_task(ignore_result=True)
def arenas_advance() -> int:
    """Every ``ARENA_PAIRING_SECONDS`` (beat): arenas start and end on time, and each
    running arena pairs its waiting entrants. Returns the matches started."""
    now = timing.now()
    services.arenas_advance(now=now)
    return services.arenas_pair(now=now)


@shared_task(ignore_result=True)
def arenas_schedule() -> int:
    """Every hour (beat): the scheduled arenas of the next day."""
    return len(services.arenas_schedule(now=timing.now()))


@shared_task(ignore_result=True)
def house_table_keep() -> int | None:
    """Every few seconds (beat), where the demo asks for it (``HOUSE_TABLE``: ``make
    run``): a table the computer hosts waits in the lobby. Returns its id."""
    if not settings.HOUSE_TABLE:
        return None
    return services.house_table_keep(now=timing.now()).pk


@shared_task(ignore_result=True)
def bot_names_refresh() -> int:
    """Every few minutes (beat): the names pages mark BOT, read again into the cache, in
    case it lost them (each upgrade writes them too)."""
    return bot_names_refresh_now()
