"""Reads of members that are more than a ``.get()``."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.cache import cache
from django.db import models
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Lower
from django.http import HttpRequest

from accounts.models import (
    ApiToken,
    AuditEntry,
    Block,
    Follow,
    MemberWarning,
    Report,
    ReportEntry,
    Theme,
    User,
)
from accounts.moderation import MODERATORS_GROUP
from accounts.names import look, skeleton

#: where a visitor's theme is kept (members keep theirs on their row)
THEME_COOKIE_NAME = "theme"


def is_moderator(member: User) -> bool:
    return (
        member.is_superuser
        or member.is_staff
        or member.groups.filter(name=MODERATORS_GROUP).exists()
    )


def may_sanction(by: User | None, member: User) -> bool:
    """Moderators ban and mute ordinary members only; superusers also moderators; nobody
    sanctions a superuser or themselves."""
    if member.is_superuser or (by is not None and by.pk == member.pk):
        return False
    if by is None or by.is_superuser:
        return True
    return not is_moderator(member)


def member_by_username(username: str) -> User | None:
    return User.objects.filter(username__iexact=username, is_active=True).first()


#: the most members a search of names lists
MEMBERS_FOUND = 50


def members_named(text: str, limit: int = MEMBERS_FOUND) -> list[str]:
    """The names of the members whose name starts with ``text`` as a reader sees it:
    whatever the case, the accents and the look-alike letters (``al1``, ``ALI`` or ``аli``
    with a Cyrillic ``а`` all find ``Alice``), through the folds of accounts/names.py that
    every member's row keeps (``name_skeleton``, ``name_look``, indexed). In name order.
    1 query.

    >>> members_named("ALI")  # doctest: +SKIP
    ['Alice', 'alina']
    """
    text = text.strip()
    folds = [fold for fold in (skeleton(text), look(text)) if fold]
    if not text or not folds:
        return []
    found = Q(username__istartswith=text)
    for fold in folds:
        found |= Q(name_skeleton__startswith=fold) | Q(name_look__startswith=fold)
    return list(
        User.objects.filter(found, is_active=True)
        .order_by(Lower("username"), "username")
        .values_list("username", flat=True)[:limit]
    )


def member_verified(member: User) -> bool:
    """Whether the member's primary e-mail address is verified (allauth's)."""
    return EmailAddress.objects.filter(user=member, primary=True, verified=True).exists()


def preferred_language(request: HttpRequest) -> str | None:
    """The language a visitor chose: the member's saved choice, else the cookie."""
    user = getattr(request, "user", None)
    language = user.language if user is not None and user.is_authenticated else ""
    if not language:
        language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return language if language in dict(settings.LANGUAGES) else None


def preferred_theme(request: HttpRequest) -> str:
    """The theme a page is drawn in: the member's saved choice, else the visitor's cookie,
    else the device's (``Theme.DEVICE``). A cookie that names no theme is ignored."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        theme = user.theme
    else:
        theme = request.COOKIES.get(THEME_COOKIE_NAME, "")
    return theme if theme in Theme.values else Theme.DEVICE


# --- follows and blocks (SPEC §14) -------------------------------------------------------


def blocks_between(member_ids: Iterable[int | None]) -> set[tuple[int, int]]:
    """The blocks among these members, as (blocker, blocked) pairs. 1 query (none for
    fewer than two members; computer seats, ``None``, are left out)."""
    ids = {pk for pk in member_ids if pk is not None}
    if len(ids) < 2:
        return set()
    return set(
        Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list(
            "blocker_id", "blocked_id"
        )
    )


def block_sides(member_id: int, others: Iterable[int | None]) -> tuple[bool, bool]:
    """Whether the member blocked one of ``others``, and whether one of them blocked the
    member; "blocked either way" is ``any(block_sides(a, [b]))``. 1 query.

    The blocked side must never show: callers refuse it as they refuse anyone else."""
    blocks = blocks_between([member_id, *others])
    return (
        any(blocker == member_id for blocker, blocked in blocks),
        any(blocked == member_id for blocker, blocked in blocks),
    )


def blocked_ids(member_id: int) -> set[int]:
    """The members this member blocked: their chat is hidden from them. 1 query."""
    return set(Block.objects.filter(blocker_id=member_id).values_list("blocked_id", flat=True))


def blocked_members(member_id: int) -> dict[int, str]:
    """The members this member blocked, by id, with their names. 1 query."""
    blocks = Block.objects.filter(blocker_id=member_id)
    return dict(blocks.values_list("blocked_id", "blocked__username"))


def follows(follower_id: int, followed_id: int) -> bool:
    return Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


def follow_counts(member_id: int) -> tuple[int, int]:
    """How many follow the member, and how many they follow. 1 query."""
    counts = Follow.objects.filter(Q(follower_id=member_id) | Q(followed_id=member_id)).aggregate(
        followers=Count("pk", filter=Q(followed_id=member_id)),
        following=Count("pk", filter=Q(follower_id=member_id)),
    )
    return counts["followers"], counts["following"]


def follower_names(member_id: int) -> list[str]:
    """The names of the members who follow this one (for their eyes only). 1 query."""
    return _names(following__followed_id=member_id)


def followed_names(member_id: int) -> list[str]:
    """The names of the members this one follows (for their eyes only). 1 query."""
    return _names(followers__follower_id=member_id)


def blocked_names(member_id: int) -> list[str]:
    """The names of the members this one blocked (for their eyes only). 1 query."""
    return _names(blocked_by__blocker_id=member_id)


def _names(**relation: int) -> list[str]:
    members = User.objects.filter(is_active=True, **relation).order_by("username")
    return list(members.values_list("username", flat=True))


# --- reports, warnings and the audit log (SPEC §14) --------------------------------------


def open_report(reporter_id: int, member_id: int, *, since: datetime) -> Report | None:
    """The reporter's open report of the member opened since ``since``, if any: the one a
    further report of the same member joins."""
    return (
        Report.objects.filter(
            reporter_id=reporter_id, member_id=member_id, closed_at=None, opened_at__gt=since
        )
        .order_by("-opened_at", "-pk")
        .first()
    )


def reports_filed(reporter_id: int, *, since: datetime, until: datetime) -> int:
    """How many entries the reporter filed from ``since`` until before ``until`` (merged
    into a report or not). One query."""
    return ReportEntry.objects.filter(
        report__reporter_id=reporter_id, filed_at__gte=since, filed_at__lt=until
    ).count()


def reports_for(viewer: User) -> QuerySet[Report]:
    """The reports a moderator works, as ``may_sanction`` says: never one about themselves
    (they would see who reported them); for a moderator who is not a superuser, none about
    a superuser or another moderator either."""
    reports = Report.objects.exclude(member=viewer)
    if viewer.is_superuser:
        return reports
    return (
        reports.exclude(member__is_superuser=True)
        .exclude(member__is_staff=True)
        .exclude(member__groups__name=MODERATORS_GROUP)
    )


def member_warnings(member_id: int, limit: int = 20) -> list[MemberWarning]:
    """The member's latest warnings, newest first, with who gave them. 1 query."""
    return list(MemberWarning.objects.filter(member_id=member_id).select_related("by")[:limit])


def audit_about(member_id: int, limit: int = 20) -> list[AuditEntry]:
    """The latest rows of the audit log about the member, newest first. 1 query."""
    return list(AuditEntry.objects.filter(member_id=member_id)[:limit])


# --- personal API tokens (SPEC §15) -------------------------------------------------------


def member_tokens(member_id: int) -> list[ApiToken]:
    """The member's tokens, newest first, revoked ones after the others. 1 query."""
    return list(
        ApiToken.objects.filter(member_id=member_id).order_by(
            models.F("revoked_at").desc(nulls_first=True), "-created_at", "-pk"
        )
    )


# --- bot accounts (SPEC §15) ---------------------------------------------------------------

BOT_NAMES_KEY = "bot-names"


def bot_names() -> frozenset[str]:
    """The names of the bot accounts, which every page marks BOT (``{% member_link %}``):
    a read of the cache, never of the database, so a page costs the same queries with
    or without names on it. The set is written whenever a member becomes a bot
    (``bot_names_refresh``) and again by beat every few minutes, should the cache have
    lost it."""
    return cache.get(BOT_NAMES_KEY) or frozenset()


def bot_names_refresh() -> int:
    """Read the bot accounts' names into the cache (no expiry). Returns how many."""
    names = frozenset(User.objects.filter(is_bot=True).values_list("username", flat=True))
    cache.set(BOT_NAMES_KEY, names, None)
    return len(names)
