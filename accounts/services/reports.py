"""Reports (SPEC §14): a member reports another, a moderator closes the report. One
transaction each.

A report is one case in the moderators' queue; each time the reporter speaks adds an
entry (a reason, a text, the chat line they point at). A reporter's reports of the same
member within a day of the open report's first entry are entries of that report; later
ones open another.

A reporter has ``REPORTS_PER_DAY`` a day (UTC), counted twice over: every attempt, kept
or refused, counts in ``REPORT_ATTEMPTS`` (``report_attempt``, called first), so the
endpoint cannot be asked question after question about what it refuses; and the entries
kept that day are counted in the database under the reporter's row lock
(``report_file``), so that requests that come together, or a cache that lost its counts,
never keep more.

What needs the tables (a finished match of the reporter's, a chat line of the reported
member's that the reporter could see) is checked by the lobby before it calls
``report_file`` (``lobby.services.reports``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.errors import Refusal
from accounts.limits import Limit
from accounts.models import REPORT_TEXT_LIMIT, AuditEntry, Report, ReportEntry, User
from accounts.selectors import member_by_username, member_verified, open_report, reports_filed
from accounts.services.audit import audit_record
from accounts.services.members import member_ban, member_mute, member_warn, sanction_check
from accounts.transactions import deadlock_retried

REPORTS_PER_DAY = 10
#: how long a report takes further reports of the same member
REPORT_WINDOW = timedelta(days=1)
#: the day (UTC) the reports kept are counted in
DAY = timedelta(days=1)
#: a member's attempts at a report, kept or refused, per day (UTC)
REPORT_ATTEMPTS = Limit("report-attempts", REPORTS_PER_DAY, 24 * 3600)


def report_attempt(*, reporter: User, now: datetime) -> None:
    """Count one attempt of ``reporter`` at a report, whatever becomes of it; refused
    (``Refusal``, ``rate_limited``) past ``REPORTS_PER_DAY`` attempts in a day (UTC).
    Called before anything about the report is checked, so that a refusal costs what a
    report costs, and the answer past the limit is the same whatever was asked."""
    if not REPORT_ATTEMPTS.hit(reporter.pk, now=now):
        raise _over_the_limit()


def _over_the_limit() -> Refusal:
    return Refusal(
        "rate_limited",
        _("You have sent %(limit)d reports today (UTC): please wait until tomorrow.")
        % {"limit": REPORTS_PER_DAY},
    )


def _day_of(now: datetime) -> datetime:
    """The start of ``now``'s day, UTC (the day ``REPORT_ATTEMPTS`` counts in)."""
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


@transaction.atomic
def report_file(
    *,
    reporter: User,
    username: str,
    reason: str,
    now: datetime,
    text: str = "",
    match_id: int | None = None,
    chat_message_id: int | None = None,
) -> Report:
    """``reporter`` reports the member named ``username``; returns the report it went to.
    Refused (``Refusal``) to a reporter without a verified e-mail address, for oneself,
    for a name no member has, and past ``REPORTS_PER_DAY`` kept in a day (UTC). Counts
    no attempt: the caller does first (``report_attempt``)."""
    if reason not in Report.Reason.values or len(text) > REPORT_TEXT_LIMIT:
        raise ValueError("a report needs one of the reasons and a text of at most 1000 characters")
    if not member_verified(reporter):
        raise Refusal("not_allowed", _("Confirm your e-mail address before reporting a member."))
    member = member_by_username(username)
    if member is None:
        raise Refusal("not_found", _("No member has that name."))
    if member.pk == reporter.pk:
        raise Refusal("not_allowed", _("You cannot report yourself."))
    # The reporter's reports take turns: the merge sees the one before, and the count of
    # the day's reports sees every one kept before.
    User.objects.select_for_update().filter(pk=reporter.pk).exists()
    day = _day_of(now)
    if reports_filed(reporter.pk, since=day, until=day + DAY) >= REPORTS_PER_DAY:
        raise _over_the_limit()
    report = open_report(reporter.pk, member.pk, since=now - REPORT_WINDOW)
    if report is None:
        report = Report.objects.create(reporter=reporter, member=member, opened_at=now)
    ReportEntry.objects.create(
        report=report,
        reason=reason,
        text=text.strip(),
        match_id=match_id,
        chat_message_id=chat_message_id,
        filed_at=now,
    )
    return report


@deadlock_retried
@transaction.atomic
def report_close(
    *,
    report_id: int,
    by: User,
    outcome: str,
    reason: str,
    now: datetime,
    until: datetime | None = None,
) -> Report:
    """A moderator closes an open report: dismissed, or the member warned, muted or banned
    (``until``: the end of a mute or ban, ``None`` until lifted) through the sanctions'
    own services. Writes the audit row of the closing; a sanction writes its own, both
    with the reference "report <id>". Raises ``NotAllowed`` where ``by`` may not sanction
    the member (moderators, superusers, oneself), ``Refusal`` for a closed report."""
    report = Report.objects.select_for_update().select_related("member").get(pk=report_id)
    if report.closed_at is not None:
        raise Refusal("not_allowed", _("This report is closed already."))
    member = report.member
    sanction_check(by, member)
    reason = reason.strip()
    if not reason:
        raise ValueError("closing a report needs a reason")
    reference = f"report {report.pk}"
    if outcome == Report.Outcome.WARNED:
        member_warn(member=member, by=by, reason=reason, now=now, reference=reference)
    elif outcome == Report.Outcome.MUTED:
        member_mute(member=member, until=until, by=by, reason=reason, reference=reference, now=now)
    elif outcome == Report.Outcome.BANNED:
        member_ban(member=member, by=by, reason=reason, until=until, reference=reference, now=now)
    elif outcome != Report.Outcome.DISMISSED:
        raise ValueError(f"no outcome {outcome!r}")
    report.closed_at, report.closed_by = now, by
    report.outcome, report.close_reason = outcome, reason
    report.save(update_fields=["closed_at", "closed_by", "outcome", "close_reason"])
    audit_record(
        action=AuditEntry.Action.REPORT_CLOSE,
        by=by,
        member=member,
        reason=reason,
        reference=reference,
        now=now,
    )
    return report
