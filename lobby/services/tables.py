"""Tables that wait for players and Play now (SPEC §10). Nobody is seated without their
own action: a member takes a seat by opening a table, joining one or pressing Play now
(the demo's table that the computer hosts seats nobody but the computer).
When the last seat of a waiting table fills, ``games.services.match_create(table=…)``
starts it and everyone seated is sent to it. One transaction each; the events go out
after it commits."""

from __future__ import annotations

import secrets
from datetime import datetime
from functools import partial

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import block_sides
from accounts.transactions import deadlock_retried
from games import events
from games.engine import VARIANTS
from games.engine.bots import LEVELS
from games.engine.clock import PRESETS
from games.errors import TableError
from games.models import Match, Seat
from games.services import match_create, table_settings_check
from lobby.services.members import lobby_rate_check, member_check, waiting_limit_check
from ratings.selectors import current_ratings

RATING_WINDOW = 300  # Play now joins a host within this many points (SPEC §10)


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
    member_check(host, now)
    if private and rated:
        raise TableError("invalid", _("Private tables are never rated."))
    single = table_settings_check(
        variant=variant, clock=clock, rated=rated, single_game=single_game
    )
    with transaction.atomic():
        lobby_rate_check(host, now)
        waiting_limit_check(host)
        match = _new_table(
            variant=variant,
            clock=clock,
            single=single,
            rated=rated,
            private=private,
            host=host,
            now=now,
        )
        Seat.objects.create(match=match, seat=0, member=host, joined_at=now)
        if not private:
            transaction.on_commit(events.lobby_changed)
    return match


def _new_table(
    *,
    variant: str,
    clock: str,
    single: bool,
    rated: bool,
    private: bool,
    host: User | None,
    now: datetime,
    house: str = "",
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
        house=house,
        created_at=now,
    )


#: the demo's table the computer hosts (``house_table_keep``): its variant, clock, level
HOUSE_TABLE_VARIANT = "fast"
HOUSE_TABLE_CLOCK = "3+2"
HOUSE_TABLE_LEVEL = 2


def house_table_keep(*, now: datetime) -> Match:
    """The demo's table that the computer hosts (``make run``, beat every few seconds): the
    one waiting, else a new one, public and unrated, with the computer in seat A and
    nobody else. A member takes the other seat by joining it, as at any table
    (``table_join``: the match starts then, against the computer), and the next call opens
    another; it is never withdrawn, since its host never leaves. At most one waits (the
    unique index ``one_house_table_waiting``: a second caller at the same moment returns
    the first one's)."""
    waiting = Match.objects.filter(house=Match.House.TABLE, status=Match.Status.WAITING)
    found = waiting.first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            match = _new_table(
                variant=HOUSE_TABLE_VARIANT,
                clock=HOUSE_TABLE_CLOCK,
                single=False,
                rated=False,
                private=False,
                host=None,
                house=Match.House.TABLE,
                now=now,
            )
            Seat.objects.create(match=match, seat=0, bot_level=HOUSE_TABLE_LEVEL, joined_at=now)
            transaction.on_commit(events.lobby_changed)
    except IntegrityError:
        found = waiting.first()
        if found is None:
            raise
        return found
    return match


@deadlock_retried
def table_join(
    *, member: User, now: datetime, match_id: int | None = None, token: str | None = None
) -> Match:
    """Take the next free seat at a waiting table (a private one only by its token); the
    match starts when the last seat fills."""
    member_check(member, now)
    with transaction.atomic():
        match = _waiting_table(match_id=match_id, token=token)
        seats = list(match.seats.order_by("joined_at", "pk"))
        if any(seat.member_id == member.pk for seat in seats):
            raise TableError("not_allowed", _("You already sit at this table."))
        people = [seat.member_id for seat in seats if seat.member_id is not None]
        blocking, blocked = block_sides(member.pk, people)
        if blocking:
            raise TableError("not_allowed", _("You have blocked a member at this table."))
        needed = VARIANTS[match.variant].seats
        # A block is silent (SPEC §14): a member blocked by someone seated finds it full.
        if len(seats) >= needed or blocked:
            raise TableError("not_allowed", _("This table is full."))
        waiting_limit_check(member)
        try:
            with transaction.atomic():
                Seat.objects.create(match=match, seat=len(seats), member=member, joined_at=now)
        except IntegrityError:
            raise TableError("not_allowed", _("This table is full.")) from None
        if len(seats) + 1 == needed:
            # The computer may sit there already (the demo's table it hosts: ``house``).
            bots = {seat.seat: seat.bot_level for seat in seats if seat.bot_level}
            match_create(
                variant=match.variant,
                members=[seat.member for seat in seats if not seat.bot_level] + [member],
                now=now,
                rated=match.rated,
                single_game=match.format == Match.Format.SINGLE,
                clock=match.clock,
                table=match,
                bots=bots or None,
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
        if not seat_remove(match, member.pk):
            raise TableError("not_allowed", _("You do not sit at this table."))


def table_cancel(
    *, member: User, now: datetime, match_id: int | None = None, token: str | None = None
) -> None:
    """The host cancels a waiting table; everyone there is told."""
    with transaction.atomic():
        match = _waiting_table(match_id=match_id, token=token)
        if match.created_by_id != member.pk:
            raise TableError("not_allowed", _("Only the member who opened a table can cancel it."))
        lobby_rate_check(member, now)
        table_remove(match)


def seat_remove(match: Match, member_id: int) -> bool:
    """Take a member's seat at a locked waiting table away, the others keeping their order
    (A, B, … as people came); the table and the lobby are told. Whether they sat there."""
    if not Seat.objects.filter(match=match, member_id=member_id).delete()[0]:
        return False
    for index, seat in enumerate(match.seats.order_by("joined_at", "pk")):
        if seat.seat != index:
            Seat.objects.filter(pk=seat.pk).update(seat=index)
    if not match.private:
        transaction.on_commit(events.lobby_changed)
    transaction.on_commit(partial(events.table_waiting_changed, match.pk))
    return True


def table_remove(match: Match, *, reason: str | None = None) -> None:
    """Remove a locked waiting table; its page and the lobby are told. With ``reason``
    (SPEC §10 ``withdrawn``), each member seated there but the host is told why too."""
    if reason is not None:
        for member_id in match.seats.exclude(member_id=match.created_by_id).values_list(
            "member_id", flat=True
        ):
            notice = {"kind": "withdrawn", "reason": reason, "what": "table"}
            transaction.on_commit(partial(events.member_notify, member_id, notice))
    match_id = match.pk
    match.delete()
    transaction.on_commit(partial(events.table_waiting_changed, match_id, cancelled=True))
    transaction.on_commit(events.lobby_changed)


def play_now(*, member: User, variant: str, clock: str, now: datetime) -> Match:
    """Join the oldest waiting public rated table of this variant and clock (a preset)
    whose host is within 300 points (provisional ratings match anyone), else open one
    (SPEC §10). A host who blocked the member, or whom the member blocked, is passed over:
    ``table_join`` refuses the two either way (SPEC §14).

    Two members who press at the same moment may each find nothing and open a table of
    their own. So a member who opened one looks once more after its commit: of two such
    looks the later comes after both commits and finds the other's table, so the two
    play (the joiner's own table is withdrawn as their match starts)."""
    member_check(member, now)
    definition = VARIANTS.get(variant)
    if definition is None or definition.rated_scale is None:
        raise TableError("invalid", _("Play now is for the rated variants."))
    if clock not in PRESETS:  # a clock of one's own is for tables and challenges
        raise TableError("invalid", _("Choose one of the site's clocks."))
    table_settings_check(variant=variant, clock=clock, rated=True, single_game=False)
    joined = _fitting_table_join(member, variant, clock, now)
    if joined is not None:
        return joined
    table = table_open(
        host=member,
        variant=variant,
        clock=clock,
        single_game=False,
        rated=True,
        private=False,
        now=now,
    )
    try:
        return _fitting_table_join(member, variant, clock, now) or table
    except TableError:  # the member's own table counts to their limit now: it waits
        return table


def _fitting_table_join(member: User, variant: str, clock: str, now: datetime) -> Match | None:
    """Play now's join: the oldest fitting table another member waits at (``play_now``),
    or None."""
    candidates = list(
        Match.objects.filter(
            status=Match.Status.WAITING, private=False, rated=True, variant=variant, clock=clock
        )
        .exclude(seats__member=member)
        .order_by("created_at", "pk")
        .values_list("pk", "created_by_id")[:50]
    )
    scale = VARIANTS[variant].rated_scale
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
                continue  # filled or cancelled a moment ago, or a block between: the next
    return None


@deadlock_retried
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
