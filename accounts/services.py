"""Every write to a member: one transaction each."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import events
from accounts.errors import Refusal
from accounts.models import Block, Follow, Theme, User
from accounts.selectors import block_sides, may_sanction, member_by_username
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


# --- follows and blocks (SPEC §14) -------------------------------------------------------
# Another member is named by their username; a computer seat is no member, so it can be
# neither followed nor blocked. Asking twice is harmless.


def _other(member: User, username: str) -> User:
    """The member named ``username``. Both members' rows are locked, in the order of their
    ids: a follow and a block between the same two never cross."""
    other = member_by_username(username)
    if other is None:
        raise Refusal("not_found", _("No member has that name."))
    pair = User.objects.select_for_update().filter(pk__in={member.pk, other.pk})
    list(pair.order_by("pk").values_list("pk", flat=True))
    return other


@transaction.atomic
def follow(*, member: User, username: str) -> User:
    """Follow a member; returns them. A member who blocked ``member`` is not followed, and
    nothing says so: the answer is the one a follow gets (a block is silent)."""
    other = _other(member, username)
    if other.pk == member.pk:
        raise Refusal("not_allowed", _("You cannot follow yourself."))
    blocking, blocked = block_sides(member.pk, [other.pk])
    if blocking:
        raise Refusal("not_allowed", _("You have blocked this member."))
    if not blocked:
        Follow.objects.get_or_create(follower=member, followed=other)
    return other


@transaction.atomic
def unfollow(*, member: User, username: str) -> User:
    other = _other(member, username)
    Follow.objects.filter(follower=member, followed=other).delete()
    return other


@transaction.atomic
def block(*, member: User, username: str) -> User:
    """Block a member; returns them. Follows between the two end, both ways."""
    other = _other(member, username)
    if other.pk == member.pk:
        raise Refusal("not_allowed", _("You cannot block yourself."))
    Block.objects.get_or_create(blocker=member, blocked=other)
    transaction.on_commit(partial(events.member_blocks_changed, member.pk))
    Follow.objects.filter(
        Q(follower=member, followed=other) | Q(follower=other, followed=member)
    ).delete()
    return other


@transaction.atomic
def unblock(*, member: User, username: str) -> User:
    """Unblock a member; the follows the block ended stay ended."""
    other = _other(member, username)
    Block.objects.filter(blocker=member, blocked=other).delete()
    transaction.on_commit(partial(events.member_blocks_changed, member.pk))
    return other
