"""The lobby's writes: tables that wait for players, challenges and Play now (SPEC §10).

Nobody is seated without their own action: a member takes a seat by opening a table,
joining one, accepting a challenge or pressing Play now. When the last seat of a waiting
table fills, ``games.services.match_create(table=…)`` starts it and everyone seated is
sent to it. One transaction each; the events go out after it commits.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import events
from games.engine import VARIANTS
from games.engine.bots import LEVELS
from games.errors import TableError
from games.models import Challenge, Match, Seat
from games.services import match_create, table_settings_check
from lobby.selectors import waiting_count
from ratings.selectors import current_ratings

RATING_WINDOW = 300  # Play now joins a host within this many points (SPEC §10)


def _check_member(member: User | None, now: datetime) -> User:
    if member is None or not member.is_authenticated:
        raise TableError("not_allowed", _("Log in to take a seat."))
    if member.is_banned(now):
        raise TableError("not_allowed", _("A banned member cannot play."))
    return member


def _check_limit(member: User) -> None:
    # The member's row lock orders their own requests arriving together.
    User.objects.select_for_update().filter(pk=member.pk).exists()
    limit = settings.WAITING_PER_MEMBER
    if waiting_count(member) >= limit:
        raise TableError(
            "limit",
            _(
                "You already have %(limit)d tables and challenges waiting: cancel one "
                "before opening another."
            )
            % {"limit": limit},
        )


def table_open(
    *,
    host: User,
    variant: str,
    clock: str,
    single_game: bool,
    rated: bool,
    private: bool,
    now: datetime,
) -> Match:
    """A new table waiting for players, the host in seat A."""
    _check_member(host, now)
    if private and rated:
        raise TableError("invalid", _("Private tables are never rated."))
    single = table_settings_check(
        variant=variant, clock=clock, rated=rated, single_game=single_game
    )
    with transaction.atomic():
        _check_limit(host)
        match = _new_table(
            variant=variant, clock=clock, single=single, rated=rated, private=private, host=host
        )
        Seat.objects.create(match=match, seat=0, member=host, joined_at=now)
        if not private:
            transaction.on_commit(events.lobby_changed)
    return match


def _new_table(
    *, variant: str, clock: str, single: bool, rated: bool, private: bool, host: User
) -> Match:
    seed = secrets.randbits(31)
    return Match.objects.create(
        variant=variant,
        rated=rated,
        private=private,
        format=Match.Format.SINGLE if single else Match.Format.MATCH,
        clock=clock,
        seed=seed,
        board=VARIANTS[variant].new_position(seed).to_text(),
        created_by=host,
    )


def table_join(
    *, member: User, now: datetime, match_id: int | None = None, token: str | None = None
) -> Match:
    """Take the next free seat at a waiting table (a private one only by its token); the
    match starts when the last seat fills."""
    _check_member(member, now)
    with transaction.atomic():
        match = _waiting_table(match_id=match_id, token=token)
        seats = list(match.seats.order_by("joined_at", "pk"))
        if any(seat.member_id == member.pk for seat in seats):
            raise TableError("not_allowed", _("You already sit at this table."))
        needed = VARIANTS[match.variant].seats
        if len(seats) >= needed:
            raise TableError("not_allowed", _("This table is full."))
        _check_limit(member)
        try:
            with transaction.atomic():
                Seat.objects.create(match=match, seat=len(seats), member=member, joined_at=now)
        except IntegrityError:
            raise TableError("not_allowed", _("This table is full.")) from None
        members = [seat.member for seat in seats] + [member]
        if len(members) == needed:
            match_create(
                variant=match.variant,
                members=members,
                now=now,
                rated=match.rated,
                single_game=match.format == Match.Format.SINGLE,
                clock=match.clock,
                table=match,
            )
        elif not match.private:
            transaction.on_commit(events.lobby_changed)
        transaction.on_commit(partial(events.table_waiting_changed, match.pk))
    return match


def _waiting_table(*, match_id: int | None, token: str | None) -> Match:
    """The waiting table, locked; ``not_found`` for a private table asked for by id."""
    tables = Match.objects.select_for_update()
    if token is not None:
        match = tables.filter(token=token).first()
    else:
        match = tables.filter(pk=match_id, private=False).first()
    if match is None:
        raise TableError("not_found", _("This table does not exist."))
    if match.status != Match.Status.WAITING:
        raise TableError("not_allowed", _("This table has already started."))
    return match


def table_leave(
    *, member: User, now: datetime, match_id: int | None = None, token: str | None = None
) -> None:
    """Leave a waiting table one joined (the host cancels instead)."""
    with transaction.atomic():
        match = _waiting_table(match_id=match_id, token=token)
        if match.created_by_id == member.pk:
            raise TableError("not_allowed", _("You opened this table: cancel it instead."))
        if not Seat.objects.filter(match=match, member=member).delete()[0]:
            raise TableError("not_allowed", _("You do not sit at this table."))
        for index, seat in enumerate(match.seats.order_by("joined_at", "pk")):
            if seat.seat != index:  # the seats stay A, B, … in the order people came
                Seat.objects.filter(pk=seat.pk).update(seat=index)
        if not match.private:
            transaction.on_commit(events.lobby_changed)
        transaction.on_commit(partial(events.table_waiting_changed, match.pk))


def table_cancel(
    *, member: User, now: datetime, match_id: int | None = None, token: str | None = None
) -> None:
    """The host cancels a waiting table; everyone there is told."""
    with transaction.atomic():
        match = _waiting_table(match_id=match_id, token=token)
        if match.created_by_id != member.pk:
            raise TableError("not_allowed", _("Only the member who opened a table can cancel it."))
        match_id = match.pk
        match.delete()
        transaction.on_commit(partial(events.table_waiting_changed, match_id, cancelled=True))
        transaction.on_commit(events.lobby_changed)


def play_now(*, member: User, variant: str, clock: str, now: datetime) -> Match:
    """Join the oldest waiting public rated table of this variant and clock whose host is
    within 300 points (provisional ratings match anyone), else open one (SPEC §10)."""
    _check_member(member, now)
    definition = VARIANTS.get(variant)
    if definition is None or definition.rated_scale is None:
        raise TableError("invalid", _("Play now is for the rated variants."))
    table_settings_check(variant=variant, clock=clock, rated=True, single_game=False)
    scale = definition.rated_scale
    candidates = list(
        Match.objects.filter(
            status=Match.Status.WAITING, private=False, rated=True, variant=variant, clock=clock
        )
        .exclude(seats__member=member)
        .order_by("created_at", "pk")
        .values_list("pk", "created_by_id")[:50]
    )
    ratings = current_ratings([member.pk, *[host for _, host in candidates if host]], scale)
    mine = ratings[member.pk]
    for match_id, host in candidates:
        theirs = ratings.get(host)
        if theirs is None:
            continue
        close = abs(theirs.rating - mine.rating) <= RATING_WINDOW
        if close or theirs.provisional or mine.provisional:
            try:
                return table_join(member=member, match_id=match_id, now=now)
            except TableError as failure:
                if failure.code == "limit":
                    raise
                continue  # filled or cancelled a moment ago: try the next
    return table_open(
        host=member,
        variant=variant,
        clock=clock,
        single_game=False,
        rated=True,
        private=False,
        now=now,
    )


def table_fill_bots(
    *,
    member: User,
    level: int,
    now: datetime,
    match_id: int | None = None,
    token: str | None = None,
) -> Match:
    """The host of an unrated waiting table of three or four seats fills the empty seats
    with the computer at ``level``; the match starts."""
    if level not in LEVELS:
        raise TableError("invalid", _("The computer plays at levels 1 to 4."))
    with transaction.atomic():
        match = _waiting_table(match_id=match_id, token=token)
        if match.created_by_id != member.pk:
            raise TableError("not_allowed", _("Only the member who opened a table can do that."))
        if match.rated or VARIANTS[match.variant].seats < 3:
            raise TableError(
                "not_allowed",
                _("The computer fills seats at unrated tables of three or four players."),
            )
        seated = list(match.seats.select_related("member").order_by("joined_at", "pk"))
        needed = VARIANTS[match.variant].seats
        bots = {index: level for index in range(len(seated), needed)}
        return match_create(
            variant=match.variant,
            members=[seat.member for seat in seated],
            bots=bots,
            now=now,
            single_game=match.format == Match.Format.SINGLE,
            clock=match.clock,
            table=match,
            private=match.private,
        )


# --- challenges -----------------------------------------------------------------------


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
    _check_member(challenger, now)
    if challenged.pk == challenger.pk:
        raise TableError("not_allowed", _("You cannot challenge yourself."))
    if VARIANTS.get(variant) is not None and VARIANTS[variant].seats != 2:
        raise TableError("invalid", _("Challenges are for two-player variants."))
    single = table_settings_check(
        variant=variant, clock=clock, rated=rated, single_game=single_game
    )
    if not challenged.is_active or challenged.is_banned(now):
        raise TableError("not_allowed", _("This member cannot play now."))
    if not challenged.accepts_challenges:
        raise TableError("not_allowed", _("This member does not accept challenges."))
    with transaction.atomic():
        _check_limit(challenger)
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
        transaction.on_commit(
            partial(events.member_notify, challenged.pk, challenge_notice(challenge))
        )
        transaction.on_commit(partial(events.member_notify, challenger.pk, {"kind": "challenges"}))
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
    """Mark the challenge expired if its time is over, before (and whatever) the answer."""
    Challenge.objects.filter(
        pk=challenge_id, status=Challenge.Status.PENDING, expires_at__lte=now
    ).update(status=Challenge.Status.EXPIRED)


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


def challenge_accept(*, challenge_id: int, member: User, now: datetime) -> Match:
    """The challenged member accepts: the match starts at once for both."""
    _check_member(member, now)
    _expire(challenge_id, now)
    with transaction.atomic():
        challenge = _pending(challenge_id, now)
        if challenge.challenged_id != member.pk:
            raise TableError("not_found", _("This challenge does not exist."))
        challenger = User.objects.filter(pk=challenge.challenger_id, is_active=True).first()
        if challenger is None or challenger.is_banned(now):
            raise TableError("not_allowed", _("The challenger cannot play now."))
        challenge.match = match_create(
            variant=challenge.variant,
            members=[challenger, member],
            now=now,
            rated=challenge.rated,
            single_game=challenge.format == Match.Format.SINGLE,
            clock=challenge.clock,
            created_by=challenger,
        )
        _answer(challenge, Challenge.Status.ACCEPTED, now)
    return challenge.match


def challenge_decline(*, challenge_id: int, member: User, now: datetime) -> Challenge:
    _expire(challenge_id, now)
    with transaction.atomic():
        challenge = _pending(challenge_id, now)
        if challenge.challenged_id != member.pk:
            raise TableError("not_found", _("This challenge does not exist."))
        _answer(challenge, Challenge.Status.DECLINED, now)
        transaction.on_commit(
            partial(
                events.member_notify,
                challenge.challenger_id,
                {"kind": "declined", "by": member.username},
            )
        )
    return challenge


def challenge_cancel(*, challenge_id: int, member: User, now: datetime) -> Challenge:
    _expire(challenge_id, now)
    with transaction.atomic():
        challenge = _pending(challenge_id, now)
        if challenge.challenger_id != member.pk:
            raise TableError("not_found", _("This challenge does not exist."))
        _answer(challenge, Challenge.Status.CANCELLED, now)
        transaction.on_commit(
            partial(events.member_notify, challenge.challenged_id, {"kind": "challenges"})
        )
    return challenge


def challenges_expire(*, now: datetime) -> int:
    """Mark challenges whose two minutes are over (a beat task; answering one checks too)."""
    return Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__lte=now).update(
        status=Challenge.Status.EXPIRED
    )
