"""A member's own row: preferences, the moderators' sanctions (ban, mute, warn and their
lifting) and deleting an account. One transaction each; a sanction by a moderator writes
its audit row in it (``audit``), and checks first that ``by`` may sanction the member."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import events
from accounts.models import AuditEntry, MemberWarning, Theme, User
from accounts.selectors import bot_names_refresh, may_sanction
from accounts.services.audit import audit_record
from accounts.signals import member_banned, member_deleting
from accounts.transactions import deadlock_retried

PREFERENCE_FIELDS = ("language", "color_symbols", "sound", "accepts_challenges", "theme")


class InvalidPreference(ValueError):
    pass


class NotAllowed(ValueError):
    """A moderator tried to sanction someone they may not (SPEC: ordinary members only)."""


def sanction_check(by: User | None, member: User) -> None:
    if not may_sanction(by, member):
        raise NotAllowed(f"{by} may not sanction {member}")


@transaction.atomic
def member_preferences_update(
    *,
    member: User,
    language: str | None = None,
    color_symbols: bool | None = None,
    sound: bool | None = None,
    accepts_challenges: bool | None = None,
    theme: str | None = None,
) -> User:
    """Save the given preferences; ``None`` leaves a preference as it is."""
    changed = []
    if language is not None:
        if language and language not in dict(settings.LANGUAGES):
            raise InvalidPreference(f"unknown language {language!r}")
        member.language = language
        changed.append("language")
    if color_symbols is not None:
        member.color_symbols = bool(color_symbols)
        changed.append("color_symbols")
    if sound is not None:
        member.sound = bool(sound)
        changed.append("sound")
    if accepts_challenges is not None:
        member.accepts_challenges = bool(accepts_challenges)
        changed.append("accepts_challenges")
    if theme is not None:
        if theme not in Theme.values:
            raise InvalidPreference(f"unknown theme {theme!r}")
        member.theme = theme
        changed.append("theme")
    if changed:
        member.save(update_fields=changed)
    return member


def member_bot_mark(*, member: User) -> User:
    """Mark a member a bot account, for good (SPEC §15; the lobby's ``bot_upgrade`` checks
    first that they may become one, under the same row lock). The names shown with the
    BOT mark are read again after commit."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=member.pk)
        if not locked.is_bot:
            locked.is_bot = True
            locked.save(update_fields=["is_bot"])
            transaction.on_commit(bot_names_refresh)
    member.is_bot = True
    return member


@deadlock_retried
@transaction.atomic
def member_ban(
    *,
    member: User,
    by: User | None,
    reason: str,
    until: datetime | None = None,
    reference: str = "",
    now: datetime | None = None,
) -> User:
    """Ban a member: they cannot log in or play until ``until`` (or until unbanned); their
    open sockets close at once."""
    sanction_check(by, member)
    reason = reason.strip()
    if not reason:
        raise ValueError("a ban needs a reason")
    now = now or timezone.now()
    if until is not None and until <= now:
        raise ValueError("the end of a ban must be in the future")
    member.banned_at = now
    member.banned_until = until
    member.ban_reason = reason
    member.banned_by = by
    member.save(update_fields=["banned_at", "banned_until", "ban_reason", "banned_by"])
    audit_record(
        action=AuditEntry.Action.BAN,
        by=by,
        member=member,
        reason=reason,
        reference=reference,
        now=now,
    )
    member_banned.send(sender=User, member=member)
    member_id = member.pk
    transaction.on_commit(lambda: events.member_sockets_close(member_id, events.CLOSE_BANNED))
    return member


@transaction.atomic
def member_unban(
    *, member: User, by: User | None = None, reason: str = "", now: datetime | None = None
) -> User:
    sanction_check(by, member)
    member.banned_at = None
    member.banned_until = None
    member.ban_reason = ""
    member.banned_by = None
    member.save(update_fields=["banned_at", "banned_until", "ban_reason", "banned_by"])
    audit_record(action=AuditEntry.Action.UNBAN, by=by, member=member, reason=reason, now=now)
    return member


@transaction.atomic
def member_mute(
    *,
    member: User,
    until: datetime | None = None,
    by: User | None = None,
    reason: str = "",
    reference: str = "",
    now: datetime | None = None,
) -> User:
    """Mute a member in chat (their sockets answer chat with ``not_allowed``)."""
    sanction_check(by, member)
    now = now or timezone.now()
    member.chat_muted_at = now
    member.chat_muted_until = until
    member.save(update_fields=["chat_muted_at", "chat_muted_until"])
    audit_record(
        action=AuditEntry.Action.MUTE,
        by=by,
        member=member,
        reason=reason,
        reference=reference,
        now=now,
    )
    member_id = member.pk
    transaction.on_commit(lambda: events.member_chat_standing(member_id, True, until))
    return member


@transaction.atomic
def member_unmute(
    *, member: User, by: User | None = None, reason: str = "", now: datetime | None = None
) -> User:
    sanction_check(by, member)
    member.chat_muted_at = None
    member.chat_muted_until = None
    member.save(update_fields=["chat_muted_at", "chat_muted_until"])
    audit_record(action=AuditEntry.Action.UNMUTE, by=by, member=member, reason=reason, now=now)
    member_id = member.pk
    transaction.on_commit(lambda: events.member_chat_standing(member_id, False, None))
    return member


@transaction.atomic
def member_warn(
    *, member: User, by: User, reason: str, now: datetime, reference: str = ""
) -> MemberWarning:
    """A moderator warns a member: the member reads the reason once, at the top of their
    next page (``member_warnings_shown``)."""
    sanction_check(by, member)
    reason = reason.strip()
    if not reason:
        raise ValueError("a warning needs a reason")
    warning = MemberWarning.objects.create(member=member, by=by, reason=reason, created_at=now)
    audit_record(
        action=AuditEntry.Action.WARN,
        by=by,
        member=member,
        reason=reason,
        reference=reference,
        now=now,
    )
    return warning


@transaction.atomic
def member_warnings_shown(*, member: User, now: datetime) -> list[MemberWarning]:
    """The member's warnings they have not read yet, oldest first, marked read now: a page
    shows them once."""
    unseen = MemberWarning.objects.select_for_update().filter(member=member, seen_at=None)
    warnings = list(unseen.order_by("created_at", "pk"))
    MemberWarning.objects.filter(pk__in=[w.pk for w in warnings]).update(seen_at=now)
    return warnings


@deadlock_retried
@transaction.atomic
def member_delete(*, member: User, by: User | None = None, reason: str = "") -> None:
    """Delete a member's account and personal data (by themselves, or by ``by``: then it
    is a sanction, logged with the member's name).

    Finished matches keep their seats with no member; they show "deleted member".
    """
    User.objects.select_for_update().filter(pk=member.pk).first()
    audit_record(action=AuditEntry.Action.MEMBER_DELETE, by=by, member=member, reason=reason)
    member_deleting.send(sender=User, member=member)
    member_id = member.pk
    member.delete()
    transaction.on_commit(
        lambda: events.member_sockets_close(member_id, events.CLOSE_ACCOUNT_DELETED)
    )
