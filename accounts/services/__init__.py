"""Every write to a member: one transaction each, by job:

- ``members``: preferences, the moderators' sanctions (ban, mute, warn and their lifting)
  and deleting an account;
- ``people``: follows and blocks (SPEC §14);
- ``reports``: a member's report of another, and a moderator closing it (SPEC §14);
- ``tokens``: personal API tokens made and revoked, and the check of every API call
  (SPEC §15);
- ``audit``: the audit log's row each sanction by a moderator writes in its transaction
  (the games, ratings and lobby sanctions write theirs with it too).
"""

from accounts.services.audit import audit_record
from accounts.services.members import (
    PREFERENCE_FIELDS,
    InvalidPreference,
    NotAllowed,
    member_ban,
    member_bot_mark,
    member_delete,
    member_mute,
    member_preferences_update,
    member_unban,
    member_unmute,
    member_warn,
    member_warnings_shown,
    sanction_check,
)
from accounts.services.people import block, follow, unblock, unfollow
from accounts.services.reports import (
    REPORTS_PER_DAY,
    report_attempt,
    report_close,
    report_file,
)
from accounts.services.tokens import (
    TokenRefused,
    token_authenticate,
    token_create,
    token_revoke,
    token_still_valid,
)

__all__ = [
    "PREFERENCE_FIELDS",
    "REPORTS_PER_DAY",
    "InvalidPreference",
    "NotAllowed",
    "TokenRefused",
    "audit_record",
    "block",
    "follow",
    "member_ban",
    "member_bot_mark",
    "member_delete",
    "member_mute",
    "member_preferences_update",
    "member_unban",
    "member_unmute",
    "member_warn",
    "member_warnings_shown",
    "report_attempt",
    "report_close",
    "report_file",
    "sanction_check",
    "token_authenticate",
    "token_create",
    "token_revoke",
    "token_still_valid",
    "unblock",
    "unfollow",
]
