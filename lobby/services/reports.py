"""Reports (SPEC §14), the part that needs the tables: a reporter has finished a match,
and a chat line they point at was written by the member at a table the reporter could
see. Then ``accounts.services.report_file`` keeps the report (``accounts`` knows nothing
of tables, so it keeps the line and its table as plain ids).

The endpoint must tell nothing the reporter could not see: every attempt counts towards
the daily limit before anything is checked (``report_attempt``), and a line that does not
exist, is not the member's, is not at that table, or is at a table the reporter cannot
see gets one and the same refusal."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext_lazy as _

from accounts.errors import Refusal
from accounts.models import Report, User
from accounts.selectors import member_by_username
from accounts.services import report_attempt, report_file
from games.selectors import chat_line_seen, member_finished_a_match


def member_report(
    *,
    reporter: User,
    username: str,
    reason: str,
    now: datetime,
    text: str = "",
    match_id: int | None = None,
    chat_message_id: int | None = None,
    token: str = "",
) -> Report:
    """``reporter`` reports the member named ``username``, maybe pointing at one of their
    chat lines (``chat_message_id`` at table ``match_id``; ``token``: the private table's,
    for a spectator who watched it by its invitation). Counts the attempt first, refused
    or not. Raises ``Refusal``."""
    report_attempt(reporter=reporter, now=now)
    if not member_finished_a_match(reporter.pk):
        raise Refusal("not_allowed", _("You can report members once you have finished a match."))
    member = member_by_username(username)
    if (
        member is not None
        and chat_message_id is not None
        and not chat_line_seen(
            chat_message_id,
            match_id=match_id,
            author_id=member.pk,
            reader_id=reporter.pk,
            token=token,
        )
    ):
        raise Refusal("not_allowed", _("This member wrote no such line at a table you can see."))
    return report_file(
        reporter=reporter,
        username=username,
        reason=reason,
        now=now,
        text=text,
        match_id=match_id,
        chat_message_id=chat_message_id,
    )
