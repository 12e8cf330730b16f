"""Challenges (SPEC §10): a member challenges a named member with a table's settings;
the challenged member is told at once, and accepts or declines; a challenge expires after
two minutes, and the member who made it is told of every end."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import block_sides
from accounts.transactions import deadlock_retried
from games import events, timing
from games.engine import VARIANTS
from games.errors import TableError
from games.models import Challenge, Match
from games.services import match_create, rematch_offer, rematch_refuse, table_settings_check
from lobby.services.members import lobby_rate_check, member_check, waiting_limit_check


def challenge_send(
    *,
    challenger: User,
    challenged: User,
    variant: str,
    clock: str,
    single_game: bool,
    rated: bool,
    now: datetime,
) -> Challenge:
    """Challenge a member to a table with these settings; they are told at once."""
    member_check(challenger, now, bots=True)
    if challenged.pk == challenger.pk:
        raise TableError("not_allowed", _("You cannot challenge yourself."))
    if VARIANTS.get(variant) is not None and VARIANTS[variant].seats != 2:
        raise TableError("invalid", _("Challenges are for two-player variants."))
    single = table_settings_check(
        variant=variant, clock=clock, rated=rated, single_game=single_game
    )
    if not challenged.is_active or challenged.is_banned(now):
        raise TableError("not_allowed", _("This member cannot play now."))
    blocking, blocked = block_sides(challenger.pk, [challenged.pk])
    if blocking:
        raise TableError("not_allowed", _("You have blocked this member."))
    # A block is silent (SPEC §14): the blocked member is refused as if challenges were off.
    if not challenged.accepts_challenges or blocked:
        raise TableError("not_allowed", _("This member does not accept challenges."))
    with transaction.atomic():
        lobby_rate_check(challenger, now)
        waiting_limit_check(challenger)
        if Challenge.objects.filter(
            challenger=challenger,
            challenged=challenged,
            status=Challenge.Status.PENDING,
            expires_at__gt=now,
        ).exists():
            raise TableError("not_allowed", _("You have already challenged this member."))
        challenge = Challenge.objects.create(
            challenger=challenger,
            challenged=challenged,
            variant=variant,
            clock=clock,
            format=Match.Format.SINGLE if single else Match.Format.MATCH,
            rated=rated,
            created_at=now,
            expires_at=now + timedelta(seconds=settings.CHALLENGE_SECONDS),
        )
        # One toast per challenger and challenged member at a time: a loop of challenges
        # and cancels refreshes the lobby, not a toast each.
        told = f"challenge-told:{challenger.pk}:{challenged.pk}"
        notice = (
            challenge_notice(challenge)
            if cache.add(told, 1, timeout=settings.CHALLENGE_SECONDS)
            else {"kind": "challenges"}
        )
        transaction.on_commit(partial(events.member_notify, challenged.pk, notice))
        transaction.on_commit(partial(events.member_notify, challenger.pk, {"kind": "challenges"}))
        # The worker ends it when its time is over, and both are told (beat sweeps too).
        transaction.on_commit(
            partial(events.task_at, "lobby.tasks.challenges_expire", [], challenge.expires_at, now)
        )
    return challenge


def challenge_notice(challenge: Challenge) -> dict:
    """What the challenged member's pages show (texts are made by the page)."""
    return {
        "kind": "challenge",
        "id": challenge.pk,
        "from": challenge.challenger.username,
        "variant": challenge.variant,
        "clock": challenge.clock or None,
        "format": challenge.format,
        "rated": challenge.rated,
        "expires_at": int(challenge.expires_at.timestamp() * 1000),
    }


def _expire(challenge_id: int, now: datetime) -> None:
    """End the challenge if its time is over, before (and whatever) the answer."""
    challenges_expire(now=now, challenge_id=challenge_id)


def _pending(challenge_id: int, now: datetime) -> Challenge:
    """The challenge, locked, if it still waits for an answer."""
    challenge = (
        Challenge.objects.select_for_update()
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise TableError("not_found", _("This challenge does not exist."))
    if challenge.status != Challenge.Status.PENDING:
        raise TableError(
            "not_allowed",
            _("This challenge is no longer open (%(status)s).")
            % {"status": challenge.get_status_display()},
        )
    return challenge


def _answer(challenge: Challenge, status: str, now: datetime) -> None:
    challenge.status = status
    challenge.answered_at = now
    challenge.save(update_fields=["status", "answered_at", "match"])


@deadlock_retried
def challenge_accept(*, challenge_id: int, member: User, now: datetime) -> Match:
    """The challenged member accepts: the match starts at once for both."""
    member_check(member, now, bots=True)
    _expire(challenge_id, now)
    with transaction.atomic():
        challenge = _pending(challenge_id, now)
        if challenge.challenged_id != member.pk:
            raise TableError("not_found", _("This challenge does not exist."))
        challenger = User.objects.filter(pk=challenge.challenger_id, is_active=True).first()
        if challenger is None or challenger.is_banned(now):
            raise TableError("not_allowed", _("The challenger cannot play now."))
        # Answered first: the match's start withdraws whatever else of theirs waits.
        _answer(challenge, Challenge.Status.ACCEPTED, now)
        if challenge.rematch_of_id is not None:  # a bot's program takes a rematch
            finished = rematch_offer(match_id=challenge.rematch_of_id, user=member, now=now)
            challenge.match = finished.rematch
        else:
            challenge.match = match_create(
                variant=challenge.variant,
                members=[challenger, member],
                now=now,
                rated=challenge.rated,
                single_game=challenge.format == Match.Format.SINGLE,
                clock=challenge.clock,
                created_by=challenger,
            )
        challenge.save(update_fields=["match"])
    return challenge.match


def challenge_decline(*, challenge_id: int, member: User, now: datetime) -> Challenge:
    _expire(challenge_id, now)
    with transaction.atomic():
        challenge = _pending(challenge_id, now)
        if challenge.challenged_id != member.pk:
            raise TableError("not_found", _("This challenge does not exist."))
        _declined(challenge, member, now)
    return challenge


def _declined(challenge: Challenge, member: User, now: datetime) -> None:
    """``member``, the challenged, declines; the challenger is told who did."""
    _answer(challenge, Challenge.Status.DECLINED, now)
    if challenge.rematch_of_id is not None:
        rematch_refuse(match_id=challenge.rematch_of_id, now=now)
    transaction.on_commit(
        partial(
            events.member_notify,
            challenge.challenger_id,
            {
                "kind": "declined",
                "by": member.username,
                "rematch": challenge.rematch_of_id is not None,
            },
        )
    )


def challenge_cancel(*, challenge_id: int, member: User, now: datetime) -> Challenge:
    _expire(challenge_id, now)
    with transaction.atomic():
        challenge = _pending(challenge_id, now)
        if challenge.challenger_id != member.pk:
            raise TableError("not_found", _("This challenge does not exist."))
        lobby_rate_check(member, now)
        challenge_withdrawn(challenge, now)
    return challenge


def challenge_withdrawn(challenge: Challenge, now: datetime) -> None:
    """The locked, pending challenge is taken back (by its challenger, or for them: their
    match started, they were banned, they blocked the member); the challenged member's
    list reads again, and a rematch offered to a bot account through it ends with it."""
    _answer(challenge, Challenge.Status.CANCELLED, now)
    if challenge.rematch_of_id is not None:
        rematch_refuse(match_id=challenge.rematch_of_id, now=now)
    transaction.on_commit(
        partial(events.member_notify, challenge.challenged_id, {"kind": "challenges"})
    )


def challenges_between_end(sender, *, blocker: User, blocked: User, **kwargs) -> int:
    """``accounts.signals.member_blocked``: the challenges waiting between the two end as
    if the blocker had answered them, in the block's transaction: what the blocker sent is
    cancelled, what was sent to them declined (an ordinary decline: the block stays
    silent, SPEC §14). No match starts between them from a challenge of before. Returns
    how many ended."""
    now = timing.now()
    waiting = (
        Challenge.objects.select_for_update()
        .filter(
            Q(challenger=blocker, challenged=blocked) | Q(challenger=blocked, challenged=blocker),
            status=Challenge.Status.PENDING,
        )
        .order_by("pk")
    )
    ended = 0
    for challenge in waiting:
        if challenge.challenger_id == blocker.pk:
            challenge_withdrawn(challenge, now)
        else:
            _declined(challenge, blocker, now)
        ended += 1
    if ended:  # the blocker's other pages drop them from their lists too
        transaction.on_commit(partial(events.member_notify, blocker.pk, {"kind": "challenges"}))
    return ended


def challenges_expire(*, now: datetime, challenge_id: int | None = None) -> int:
    """End the challenges whose two minutes are over (the worker, at each one's end, and
    a beat sweep; answering one checks too): the challenger is told it expired, and both
    members' lobbies drop it. Returns how many ended."""
    with transaction.atomic():
        due = Challenge.objects.select_for_update().filter(
            status=Challenge.Status.PENDING, expires_at__lte=now
        )
        if challenge_id is not None:
            due = due.filter(pk=challenge_id)
        ended = list(due.select_related("challenged"))
        for challenge in ended:
            challenge.status = Challenge.Status.EXPIRED
            challenge.save(update_fields=["status"])
            notice = {"kind": "expired", "id": challenge.pk, "to": challenge.challenged.username}
            if challenge.rematch_of_id is not None:  # the rematch's lapse tells of it
                notice = {"kind": "challenges"}
            transaction.on_commit(partial(events.member_notify, challenge.challenger_id, notice))
            transaction.on_commit(
                partial(events.member_notify, challenge.challenged_id, {"kind": "challenges"})
            )
    return len(ended)
