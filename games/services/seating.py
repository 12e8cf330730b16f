"""Creating a match and seating its players: every way to a match ends in
``match_create`` (a waiting table that filled, an accepted challenge, Play now, a practice
table, a rematch). Nobody is seated without their own action: the callers are the
services of those actions."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.transactions import deadlock_retried
from games import events
from games import state as public
from games.access import rated_pairs_full
from games.engine import VARIANTS, Position
from games.engine.bots import LEVELS as BOT_LEVELS
from games.engine.clock import RATED_SHORTEST_MS, ClockError, parse_preset
from games.engine.match import MatchState
from games.errors import TableError, clock_message
from games.models import Match, Seat
from games.services import commit
from games.services.commit import state_commit
from games.signals import match_started
from games.state import SeatRow
from games.topics import variant_name
from ratings.selectors import current_ratings


def table_settings_check(*, variant: str, clock: str, rated: bool, single_game: bool) -> bool:
    """Check a table's settings (SPEC §2, §10); returns whether it is a single game. The
    clock is a preset or one of the table's own (``m+s``, see ``games.engine.clock``);
    a rated table needs one of at least a minute."""
    definition = VARIANTS.get(variant)
    if definition is None or variant == "practice":
        raise TableError("invalid", _("There is no such variant."))
    bank_ms = None
    if clock:
        try:
            bank_ms, _increment = parse_preset(clock)
        except ClockError as error:
            raise TableError("invalid", clock_message(error)) from None
    single = definition.format == "single" or single_game
    if rated and definition.rated_scale is None:
        raise TableError("invalid", _("This variant is never rated."))
    if rated and bank_ms is None:
        raise TableError("invalid", _("A rated table needs a clock."))
    if rated and bank_ms < RATED_SHORTEST_MS:
        raise TableError("invalid", _("A rated table needs at least 1 minute on the clock."))
    if rated and single:
        raise TableError("invalid", _("Only matches of two games are rated."))
    return single


@deadlock_retried
def match_create(
    *,
    variant: str,
    members: Sequence[User],
    now: datetime,
    rated: bool = False,
    single_game: bool = False,
    clock: str = "",
    seed: int | None = None,
    created_by: User | None = None,
    table: Match | None = None,
    private: bool = False,
    bots: dict[int, int] | None = None,
    practice: bool = False,
    arena: int | None = None,
    house: str = "",
) -> Match:
    """Seat ``members`` (in seat order A, B, …, skipping the seats of ``bots``: seat →
    computer level) at a new table and start its match; a waiting ``table`` that filled is
    started in place. Everyone seated is sent to the table at once.

    ``arena``: the arena that paired the members (its id), which the notice names; the
    limit of rated matches between two members in a day applies there too (the arena
    does not pair a pair at the limit). ``house``: a match the site keeps going by itself
    (``Match.House``; only computers sit there).

    >>> match_create(variant="fast", members=[alice, bob], now=timezone.now())  # doctest: +SKIP
    """
    bots = bots or {}
    single = table_settings_check(
        variant=variant, clock=clock, rated=rated, single_game=single_game
    )
    definition = VARIANTS[variant]
    if len(members) + len(bots) != definition.seats or not all(
        0 <= seat < definition.seats and level in BOT_LEVELS for seat, level in bots.items()
    ):
        raise TableError(
            "invalid",
            _("%(variant)s needs %(count)d players.")
            % {"variant": variant_name(variant), "count": definition.seats},
        )
    if bots and rated:
        raise TableError("invalid", _("Tables with the computer are never rated."))
    if len({member.pk for member in members}) != len(members):
        raise TableError("invalid", _("A member can take only one seat."))
    if any(member.is_banned(now) for member in members):
        raise TableError("invalid", _("A banned member cannot play."))
    with transaction.atomic():
        if rated and rated_pairs_full([m.pk for m in members], now=now):
            rated = False  # the table said so before it started
            if table is not None:
                table.rated = False
                table.save(update_fields=["rated"])
        if table is None:
            seed = secrets.randbits(31) if seed is None else seed
            match = Match.objects.create(
                variant=variant,
                rated=rated and not private,
                private=private,
                practice=practice,
                format=Match.Format.SINGLE if single else Match.Format.MATCH,
                clock=clock,
                seed=seed,
                board=definition.new_position(seed).to_text(),
                created_by=created_by,
                arena_id=arena,
                house=house,
                created_at=now,
            )
        else:
            match = table
            Seat.objects.filter(match=match).delete()  # seated again, in the final order
        board = Position.from_text(match.board)
        seats = _seat(match, board, members, bots, now=now)
        _start(match, seats, board, now=now)
        started = {"kind": "started", "url": public.table_url(match, neutral=True)}
        if arena is not None:
            started["arena"] = arena
        for member in members:  # everyone seated goes to the table at once
            transaction.on_commit(partial(events.member_notify, member.pk, started))
        match_started.send(sender=Match, match=match, members=list(members))
    return match


def _seat(
    match: Match, board: Position, members: Sequence[User], bots: dict[int, int], *, now
) -> list[SeatRow]:
    """The seats' rows, stored, with the ratings shown there."""
    scale = VARIANTS[match.variant].rated_scale
    ratings = current_ratings([m.pk for m in members], scale) if scale else {}
    people = iter(members)
    seated = [(index, None if index in bots else next(people)) for index in range(board.seats)]
    shown = {m.pk: rating_shown(ratings.get(m.pk)) for _, m in seated if m is not None}
    Seat.objects.bulk_create(
        Seat(
            match=match,
            seat=index,
            member=member,
            bot_level=bots.get(index),
            team=next(i for i, side in enumerate(board.sides) if index in side),
            rating=shown[member.pk] if member else None,
            joined_at=now,
            absent_since=None if member is None else now,
            connected=member is None,  # the computer is always there
        )
        for index, member in seated
    )
    return [
        SeatRow(
            index,
            member.pk if member else None,
            member.username if member else None,
            shown[member.pk] if member else None,
            member is None,
            None if member is None else now,
            bot_level=bots.get(index),
            member_bot=member is not None and member.is_bot,
        )
        for index, member in seated
    ]


def rating_shown(rating) -> float | None:
    """The rating shown at a seat: rounded; none while provisional (SPEC §4: "?")."""
    if rating is None or rating.provisional:
        return None
    return round(rating.rating)


def match_url(match: Match) -> str:
    """The table page: by token for a private table, by id otherwise."""
    return public.table_url(match)


def _start(match: Match, seats: list[SeatRow], board: Position, *, now: datetime) -> None:
    state = MatchState.new(board, games=1 if match.format == Match.Format.SINGLE else 2)
    if match.clock:
        match.clock_state = commit.clock_new(match.clock, board.seats).to_dict()
    match.started_at = now
    state_commit(match, seats, None, state, now=now, fields={"clock_state", "started_at"})
    transaction.on_commit(events.lobby_changed)
