"""Personal API tokens (SPEC §15): made, revoked, and the one check every API call makes.

A token is ``vog_`` and 40 random URL-safe characters. Only its SHA-256 digest is kept
(a long random secret needs no slow hash: nobody can guess one to match a digest), with
its first characters to tell it apart in the member's list; the token itself is shown
once, when it is made.

``token_authenticate`` is the one function that says who calls the API: the token is
known and not revoked, its member is active and not banned (else 401), and it carries
the scope the endpoint needs (else 403). Services take the member it returns.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts import events
from accounts.errors import Refusal, interpolated
from accounts.models import ApiToken, User

PREFIX = "vog_"
#: the characters of a token shown in the list (``vog_`` and six more)
SHOWN = 10
#: a token's last use is written at most this often (each API call would otherwise write)
LAST_USE_EVERY = timedelta(seconds=60)


class TokenRefused(Refusal):
    """An API call without a token that may make it: ``status`` 401 (no token, an unknown
    or revoked one, a member who may not play) or 403 (the token lacks the scope)."""

    def __init__(self, status: int, code: str, message) -> None:
        super().__init__(code, message)
        self.status = status


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None.

    >>> bearer("Bearer vog_abc")
    'vog_abc'
    >>> bearer("Basic dXNlcg==") is None
    True
    """
    if not header:
        return None
    kind, _space, value = header.strip().partition(" ")
    value = value.strip()
    if kind.lower() != "bearer" or not value or len(value) > 200:
        return None
    return value


def scopes_check(scopes) -> list[str]:
    """The scopes asked for, known ones only, in a fixed order; ``invalid`` otherwise."""
    wanted = {scope.strip() for scope in scopes if scope.strip()}
    unknown = wanted - set(ApiToken.Scope.values)
    if unknown or not wanted:
        raise Refusal(
            "invalid",
            interpolated(
                _("Choose one or more scopes: %(scopes)s."),
                {"scopes": ", ".join(ApiToken.Scope.values)},
            ),
        )
    return [scope for scope in ApiToken.Scope.values if scope in wanted]


def token_create(*, member: User, description: str, scopes, now: datetime) -> tuple[ApiToken, str]:
    """A new token of the member's: the row and the token itself (shown once, never
    kept). A member holds at most ``API_TOKENS_PER_MEMBER`` tokens that are not revoked."""
    description = description.strip()
    if not description or len(description) > 100:
        raise Refusal("invalid", _("Describe the token in 1 to 100 characters."))
    chosen = scopes_check(scopes)
    with transaction.atomic():
        # The member's row lock: two tokens made together are counted one after the other.
        User.objects.select_for_update().filter(pk=member.pk).exists()
        held = ApiToken.objects.filter(member=member, revoked_at=None).count()
        if held >= settings.API_TOKENS_PER_MEMBER:
            raise Refusal(
                "limit",
                interpolated(
                    _("You already hold %(count)d tokens: revoke one before making another."),
                    {"count": held},
                ),
            )
        raw = PREFIX + secrets.token_urlsafe(30)
        token = ApiToken.objects.create(
            member=member,
            description=description,
            scopes=chosen,
            prefix=raw[:SHOWN],
            digest=token_digest(raw),
            created_at=now,
        )
    return token, raw


def token_revoke(*, token: ApiToken, now: datetime, member: User | None = None) -> ApiToken:
    """Revoke a token (by its member, or by an administrator's command when ``member`` is
    None): every call with it answers 401 from now on, and its open streams end."""
    with transaction.atomic():
        found = ApiToken.objects.select_for_update().filter(pk=token.pk)
        if member is not None:
            found = found.filter(member=member)
        locked = found.first()
        if locked is None:
            raise Refusal("not_found", _("There is no such token."))
        if locked.revoked_at is None:
            locked.revoked_at = now
            locked.save(update_fields=["revoked_at"])
        transaction.on_commit(partial(events.token_streams_end, locked.pk))
    return locked


def token_by_raw(raw: str) -> ApiToken | None:
    return ApiToken.objects.filter(digest=token_digest(raw)).first()


def token_authenticate(*, raw: str | None, scope: str | None, now: datetime) -> ApiToken:
    """The token of an API call, with its member (``token.member``), if it may make the
    call: raises ``TokenRefused`` otherwise. ``scope`` None: any valid token (an open
    endpoint called with a token). Its last use is kept, at most once a minute."""
    if not raw:
        raise TokenRefused(
            401, "unauthorized", _("Send your API token: Authorization: Bearer <token>.")
        )
    token = ApiToken.objects.select_related("member").filter(digest=token_digest(raw)).first()
    if token is None or token.revoked_at is not None:
        raise TokenRefused(401, "unauthorized", _("This token is unknown or was revoked."))
    member = token.member
    if not member.is_active or member.is_banned(now):
        raise TokenRefused(401, "unauthorized", _("This account may not use the API now."))
    if scope is not None and scope not in token.scopes:
        raise TokenRefused(
            403,
            "missing_scope",
            interpolated(_("This token lacks the scope %(scope)s."), {"scope": scope}),
        )
    if token.last_used_at is None or now - token.last_used_at >= LAST_USE_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def token_still_valid(*, token_id: int, now: datetime) -> bool:
    """Whether a stream opened with this token may go on: the token not revoked, its
    member active and not banned (asked at every keep-alive of a stream). One query."""
    row = (
        ApiToken.objects.filter(pk=token_id, revoked_at=None, member__is_active=True)
        .values_list("member__banned_at", "member__banned_until")
        .first()
    )
    if row is None:
        return False
    banned_at, banned_until = row
    return banned_at is None or (banned_until is not None and banned_until <= now)
