"""Work that must not run twice at once, held as a database row (``WorkUnderWay``): the
computer's move at a table, a hint being worked out, a member's tried colour. Taking is
an insert that the row's primary key refuses to a second taker, across every process;
giving back is a delete. A row past its expiry (its worker died) is taken over.

These never wait: a taker refused goes away (the task tries again, the page asks again).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction

from games.models import WorkUnderWay


def work_begin(name: str, *, now: datetime, seconds: float, value: object = "") -> bool:
    """Take ``name`` for ``seconds`` (with ``value``, what the work is on): True when
    taken, False when someone else holds it."""
    expires = now + timedelta(seconds=seconds)
    with transaction.atomic():
        WorkUnderWay.objects.filter(name=name, expires_at__lte=now).delete()
        try:
            with transaction.atomic():
                WorkUnderWay.objects.create(name=name, value=str(value), expires_at=expires)
        except IntegrityError:
            return False
    return True


def work_held(name: str, *, now: datetime) -> str | None:
    """The value ``name`` is held with, or None when nobody holds it."""
    return (
        WorkUnderWay.objects.filter(name=name, expires_at__gt=now)
        .values_list("value", flat=True)
        .first()
    )


def work_hand_over(name: str, *, held: str, value: object, now: datetime, seconds: float) -> bool:
    """Hold ``name`` for other work (``value``) if it is still held for ``held``: True
    when it was (and now holds ``value``)."""
    return bool(
        WorkUnderWay.objects.filter(name=name, value=held).update(
            value=str(value), expires_at=now + timedelta(seconds=seconds)
        )
    )


def work_end(name: str, *, value: object | None = None) -> None:
    """Give ``name`` back (only if it is held for ``value``, when given)."""
    rows = WorkUnderWay.objects.filter(name=name)
    if value is not None:
        rows = rows.filter(value=str(value))
    rows.delete()
