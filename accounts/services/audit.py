"""The audit log (SPEC §14): every sanction by a moderator writes exactly one row, inside
the sanction's own transaction, so a sanction and its row are kept or lost together.
The system's own actions (``by`` is ``None``: a deadline, a member deleting their own
account) write none."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from accounts.models import AuditEntry, User


def audit_record(
    *,
    action: str,
    by: User | None,
    member: User | None = None,
    reason: str = "",
    reference: str = "",
    now: datetime | None = None,
) -> AuditEntry | None:
    """Write the row of one sanction by ``by``; nothing when ``by`` is ``None``. For
    example ``audit_record(action=AuditEntry.Action.ABORT, by=mod, reason="stuck",
    reference="match 12")``."""
    if by is None:
        return None
    return AuditEntry.objects.create(
        at=now or timezone.now(),
        by=by,
        by_name=by.username,
        member=member,
        member_name=member.username if member is not None else "",
        action=action,
        reason=reason.strip(),
        reference=reference,
    )
