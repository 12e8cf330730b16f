"""Reports (SPEC §14), the part that needs the tables: a reporter has finished a match,
and a chat line they point at was written by the member at that table. Then
``accounts.services.report_file`` keeps the report (``accounts`` knows nothing of tables,
so it keeps the line and its table as plain ids)."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext_lazy as _

from accounts.errors import Refusal
from accounts.models import Report, User
from accounts.selectors import member_by_username
from accounts.services import report_file
from games.selectors import chat_line_by, member_finished_a_match


def member_report(
    *,
    reporter: User,
    username: str,
    reason: str,
    now: datetime,
    text: str = "",
    match_id: int | None = None,
    chat_message_id: int | None = None,
) -> Report:
    """``reporter`` reports the member named ``username``, maybe pointing at one of their
    chat lines (``chat_message_id`` at table ``match_id``). Raises ``Refusal``."""
    if not member_finished_a_match(reporter.pk):
        raise Refusal("not_allowed", _("You can report members once you have finished a match."))
    member = member_by_username(username)
    if (
        member is not None
        and chat_message_id is not None
        and not chat_line_by(chat_message_id, match_id=match_id, member_id=member.pk)
    ):
        raise Refusal("not_allowed", _("This member did not write that line at this table."))
    return report_file(
        reporter=reporter,
        username=username,
        reason=reason,
        now=now,
        text=text,
        match_id=match_id,
        chat_message_id=chat_message_id,
    )
