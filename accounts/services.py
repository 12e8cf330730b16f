"""Every write to a member: one transaction each."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import events
from accounts.models import Theme, User
from accounts.selectors import may_sanction
from accounts.signals import member_banned, member_deleting

PREFERENCE_FIELDS = ("language", "color_symbols", "sound", "accepts_challenges", "theme")


class InvalidPreference(ValueError):
    pass


class NotAllowed(ValueError):
    """A moderator tried to sanction someone they may not (SPEC: ordinary members only)."""


def _check_sanction(by: User | None, member: User) -> None:
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


@transaction.atomic
def member_ban(
    *, member: User, by: User | None, reason: str, until: datetime | None = None
) -> User:
    """Ban a member: they cannot log in or play until ``until`` (or until unbanned); their
    open sockets close at once."""
    _check_sanction(by, member)
    reason = reason.strip()
    if not reason:
        raise ValueError("a ban needs a reason")
    now = timezone.now()
    if until is not None and until <= now:
        raise ValueError("the end of a ban must be in the future")
    member.banned_at = now
    member.banned_until = until
    member.ban_reason = reason
    member.banned_by = by
    member.save(update_fields=["banned_at", "banned_until", "ban_reason", "banned_by"])
    member_banned.send(sender=User, member=member)
    member_id = member.pk
    transaction.on_commit(lambda: events.member_sockets_close(member_id, events.CLOSE_BANNED))
    return member


@transaction.atomic
def member_unban(*, member: User) -> User:
    member.banned_at = None
    member.banned_until = None
    member.ban_reason = ""
    member.banned_by = None
    member.save(update_fields=["banned_at", "banned_until", "ban_reason", "banned_by"])
    return member


@transaction.atomic
def member_mute(*, member: User, until: datetime | None = None, by: User | None = None) -> User:
    """Mute a member in chat (their sockets answer chat with ``not_allowed``)."""
    _check_sanction(by, member)
    member.chat_muted_at = timezone.now()
    member.chat_muted_until = until
    member.save(update_fields=["chat_muted_at", "chat_muted_until"])
    member_id = member.pk
    transaction.on_commit(lambda: events.member_chat_standing(member_id, True, until))
    return member


@transaction.atomic
def member_unmute(*, member: User) -> User:
    member.chat_muted_at = None
    member.chat_muted_until = None
    member.save(update_fields=["chat_muted_at", "chat_muted_until"])
    member_id = member.pk
    transaction.on_commit(lambda: events.member_chat_standing(member_id, False, None))
    return member


@transaction.atomic
def member_delete(*, member: User) -> None:
    """Delete a member's account and personal data.

    Finished matches keep their seats with no member; they show "deleted member".
    """
    User.objects.select_for_update().filter(pk=member.pk).first()
    member_deleting.send(sender=User, member=member)
    member_id = member.pk
    member.delete()
    transaction.on_commit(
        lambda: events.member_sockets_close(member_id, events.CLOSE_ACCOUNT_DELETED)
    )
