"""Notifications sent after a transaction commits. They are only hints: a client that
misses one sees a gap in ``version`` and asks for the whole state again.

A change made over a socket is sent by that socket's consumer, from the event loop: the
service's after-commit hooks put the messages in the outbox that ``capture()`` opened,
and the consumer sends them once the database call returns. Elsewhere (Celery tasks,
web views) the hooks send at once.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

Outbox = list[tuple[str, dict[str, Any]]]
_outbox: contextvars.ContextVar[Outbox | None] = contextvars.ContextVar("outbox", default=None)

LOBBY_GROUP = "lobby"


def table_group(match_id: int) -> str:
    return f"table-{match_id}"


@contextlib.contextmanager
def capture() -> Iterator[Outbox]:
    """Collect the messages sent inside the block instead of sending them."""
    box: Outbox = []
    token = _outbox.set(box)
    try:
        yield box
    finally:
        _outbox.reset(token)


def send(group: str, message: dict[str, Any]) -> None:
    box = _outbox.get()
    if box is not None:
        box.append((group, message))
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


async def flush(box: Outbox) -> None:
    """Send what ``capture()`` collected (from the consumer's event loop)."""
    layer = get_channel_layer()
    for group, message in box:
        await layer.group_send(group, message)


def table_changed(match_id: int, event: dict[str, Any]) -> None:
    """Every socket at the table gets the new state (``games.state.encode``: the public
    part and each seat's own, serialized once); each web process also watches the
    table's deadline."""
    send(table_group(match_id), event)


def table_waiting_changed(match_id: int, *, cancelled: bool = False) -> None:
    """Someone joined or left a waiting table, or its host cancelled it."""
    send(table_group(match_id), {"type": "table.waiting", "cancelled": cancelled})


def chat_posted(match_id: int, audience: str, author_id: int, payload: dict[str, Any]) -> None:
    """A chat line for the table's sockets; ``author`` lets a socket hide the lines of a
    member its own member blocked (SPEC §14) without a read."""
    send(
        table_group(match_id),
        {"type": "table.chat", "audience": audience, "author": author_id, "message": payload},
    )


def lobby_changed() -> None:
    """The lobby's lists changed (a table opened, filled, started or ended)."""
    send(LOBBY_GROUP, {"type": "lobby.changed"})


def member_notify(member_id: int, payload: dict[str, Any]) -> None:
    """Tell a member on whatever page they are (their site sockets): a challenge, a table
    that started, an answer to their challenge."""
    from accounts.events import member_group

    send(member_group(member_id), {"type": "member.notify", "payload": payload})


def hint_wanted(match_id: int, version: int) -> None:
    """A player at a practice table asked for a hint: a worker on the ``bots`` queue works
    it out (``games.tasks.bot_hint``)."""
    from celery import current_app

    current_app.send_task("games.tasks.bot_hint", args=[match_id, version])


def hint_ready(match_id: int, seat: int, version: int, hint: dict[str, Any]) -> None:
    """A hint was worked out: the sockets of ``seat`` at the table show it."""
    send(
        table_group(match_id),
        {"type": "table.hint", "seat": seat, "version": version, "hint": hint},
    )


def bot_turn(match_id: int, game: int, ply: int, pause: float = 0) -> None:
    """The computer is to move: a worker on the ``bots`` queue chooses and plays, after
    ``pause`` seconds (VOG TV's computers wait, so people can follow)."""
    from celery import current_app

    current_app.send_task(
        "games.tasks.bot_move", args=[match_id, game, ply], countdown=pause or None
    )


def tick_at(match_id: int, deadline: datetime, now: datetime) -> None:
    """Have the worker look at the match when its deadline comes (the ``clocks`` queue).
    Sent by name: this module stays below ``tasks``."""
    from celery import current_app

    countdown = max(0.0, (deadline - now).total_seconds())
    current_app.send_task(
        "games.tasks.match_tick", args=[match_id, deadline.isoformat()], countdown=countdown
    )


def task_at(name: str, args: list, at: datetime, now: datetime) -> None:
    """Have the worker run the task ``name`` when ``at`` comes (by name: this module stays
    below the apps' tasks)."""
    from celery import current_app

    countdown = max(0.0, (at - now).total_seconds())
    current_app.send_task(name, args=args, countdown=countdown)


def analysis_wanted(match_id: int) -> None:
    """A match is to be analysed: the worker of the ``analysis`` queue reviews it
    (``games.tasks.analysis_run``)."""
    from celery import current_app

    current_app.send_task("games.tasks.analysis_run", args=[match_id])


def analysis_progress(match_id: int, *, status: str, done: int, total: int) -> None:
    """How far the analysis of a match is: every socket at the table hears it (not a new
    ``version``; the page fetches the analysis once it is done)."""
    send(
        table_group(match_id),
        {"type": "table.analysis", "status": status, "done": done, "total": total},
    )


def analysis_try_wanted(member_id: int, variant: str, fpn: str, move: int | str) -> None:
    """A member tried a colour in a replayed position: the ``analysis_try`` queue works
    the computer's answer out (``games.tasks.analysis_try``)."""
    from celery import current_app

    current_app.send_task("games.tasks.analysis_try", args=[member_id, variant, fpn, move])
