"""Follows and blocks (SPEC §14), one transaction each. Another member is named by their
username; a computer seat is no member, so it can be neither followed nor blocked. Asking
twice is harmless."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts import events
from accounts.errors import Refusal
from accounts.models import Block, Follow, User
from accounts.selectors import block_sides, member_by_username
from accounts.signals import member_blocked
from accounts.transactions import deadlock_retried


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
    the follow is refused in so many words: an answer that says "you follow them" while
    nothing happened misleads (issue 43.4; what the block leaves silent is why)."""
    other = _other(member, username)
    if other.pk == member.pk:
        raise Refusal("not_allowed", _("You cannot follow yourself."))
    blocking, blocked = block_sides(member.pk, [other.pk])
    if blocking:
        raise Refusal("not_allowed", _("You have blocked this member."))
    if blocked:
        raise Refusal("not_allowed", _("You cannot follow %(name)s.") % {"name": other.username})
    Follow.objects.get_or_create(follower=member, followed=other)
    return other


@transaction.atomic
def unfollow(*, member: User, username: str) -> User:
    other = _other(member, username)
    Follow.objects.filter(follower=member, followed=other).delete()
    return other


@deadlock_retried
@transaction.atomic
def block(*, member: User, username: str) -> User:
    """Block a member; returns them. Follows between the two end, both ways, and so do
    the challenges and rematch offers waiting between them (``member_blocked``)."""
    other = _other(member, username)
    if other.pk == member.pk:
        raise Refusal("not_allowed", _("You cannot block yourself."))
    Block.objects.get_or_create(blocker=member, blocked=other)
    member_blocked.send(sender=User, blocker=member, blocked=other)
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
