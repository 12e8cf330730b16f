"""Ending a match other than by play, and after it: a claim of an abandoned match, a
moderator's abort, a member leaving the site, the rematch, and the table told again once
ratings moved. One transaction each, the match row locked."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import AuditEntry, User
from accounts.selectors import blocks_between
from accounts.services import audit_record
from accounts.transactions import deadlock_retried
from games import events, timing
from games import state as public
from games.access import locked_match, locked_table, player_seat_or_error, seats_for
from games.engine.clock import Clock
from games.engine.match import PLAYING, MatchState
from games.errors import TableError
from games.models import Challenge, Match
from games.services.commit import ACTIVE, engine_event, match_bump, state_commit
from games.services.seating import match_create


def match_claim(
    *,
    match_id: int,
    user: User,
    now: datetime,
) -> Match:
    """An opponent claims the match when the seat to move has abandoned it (SPEC §3): no
    present socket for a minute, or at a no-clock table no move for five minutes."""
    with transaction.atomic():
        match, seats = locked_table(match_id)
        seat = player_seat_or_error(seats, user, now=now)
        state = match.engine_state()
        clock = Clock.from_dict(match.clock_state) if match.clock_state else None
        claim_at = public.claim_from(match, state, seats, clock)
        absent = state.current.position.to_move if state.status == PLAYING else None
        if absent is None or _same_side(state, seat, absent):
            raise TableError("not_allowed", _("Only an opponent of the player to move can claim."))
        if claim_at is None or now < claim_at:
            raise TableError(
                "not_allowed", _("The player to move has not abandoned the match (yet).")
            )
        return state_commit(match, seats, state, engine_event(state.abandon, absent), now=now)


def _same_side(state: MatchState, a: int, b: int) -> bool:
    return any(a in side and b in side for side in state.board.sides)


def match_abort(*, match_id: int, now: datetime, by: User | None = None, reason: str = "") -> Match:
    """A moderator (``by``) aborts a stuck match: no result, no rating; the audit log
    keeps who and why."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status not in ACTIVE:
            raise TableError("not_allowed", _("Only a match being played can be aborted."))
        state = match.engine_state()
        audit_record(
            action=AuditEntry.Action.ABORT,
            by=by,
            reason=reason,
            reference=f"match {match_id}",
            now=now,
        )
        return state_commit(match, seats_for(match_id), state, state.abort(forced=True), now=now)


def match_abort_unplayed(
    *,
    match_id: int,
    user: User,
    now: datetime,
) -> Match:
    """A player aborts the match before their side has moved in game 1 (SPEC §3, the
    Abort button): no result, no rating. Afterwards ``not_allowed``."""
    with transaction.atomic():
        match, seats = locked_table(match_id)
        seat = player_seat_or_error(seats, user, now=now)
        state = match.engine_state()
        if not state.can_abort or state.side_moved(seat):
            raise TableError(
                "not_allowed", _("A match can be aborted only before your first move.")
            )
        return state_commit(match, seats, state, engine_event(state.abort), now=now)


def match_berserk(
    *,
    match_id: int,
    user: User,
    now: datetime,
) -> Match:
    """An arena player goes berserk before their first move of game 1 (SPEC §12): half
    their bank, no increment for them in this match; both sides see it."""
    with transaction.atomic():
        match, seats = locked_table(match_id)
        seat = player_seat_or_error(seats, user, now=now)
        state = match.engine_state()
        if seat not in public.berserkers(match, state):
            raise TableError(
                "not_allowed",
                _("Berserk is for arena matches, before your first move of game 1, once."),
            )
        clock = Clock.from_dict(match.clock_state).berserk(seat)
        match.clock_state = clock.to_dict()
        return match_bump(match, seats, state, now=now, fields={"clock_state"})


def member_matches_end(*, member_id: int, now: datetime) -> int:
    """A member is banned or deletes their account: each of their matches in play ends
    at once as a resignation of the match by them (rated as such; three or four seats:
    they are out), or is aborted while it is still unplayed (SPEC §3). Their standing is
    not asked: a banned member's matches end too. Returns the matches changed."""
    ended = 0
    for match_id in Match.objects.filter(seats__member_id=member_id, status__in=ACTIVE).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            match, seats = locked_table(match_id)
            seat = next((row.seat for row in seats if row.member_id == member_id), None)
            state = match.engine_state()
            if seat is None or match.status not in ACTIVE or seat in state.out:
                continue
            new = state.abort(forced=True) if state.can_abort else state.resign_match(seat)
            state_commit(match, seats, state, new, now=now)
            ended += 1
    return ended


@deadlock_retried
def rematch_offer(
    *,
    match_id: int,
    user: User,
    now: datetime,
) -> Match:
    """Offer or accept a rematch; when every player accepts within the window a new match
    with the same variant, clock and seats (a new board) starts."""
    with transaction.atomic():
        match, seats = locked_table(match_id)
        seat = player_seat_or_error(seats, user, now=now)
        if match.status != Match.Status.FINISHED:
            raise TableError("not_allowed", _("A rematch can be offered once the match is over."))
        if match.rematch_id:
            return match
        if any(row.member_id is None and row.bot_level is None for row in seats):
            raise TableError("not_allowed", _("A player of this match has left the site."))
        blocks = blocks_between(row.member_id for row in seats)
        if any(blocker == user.pk for blocker, _blocked in blocks):
            raise TableError("not_allowed", _("You have blocked a member at this table."))
        if blocks:  # silent (SPEC §14): not a word of who blocked whom
            raise TableError("not_allowed", _("No rematch is possible at this table."))
        window = timing.seconds("GAME_REMATCH_SECONDS")
        expired = match.rematch_offered_at is None or now - match.rematch_offered_at > window
        accepted = [] if expired else list(match.rematch_accepted)
        if expired:
            match.rematch_offered_at = now
            # The worker ends the offer when its minute is over, and tells who made it.
            transaction.on_commit(
                partial(events.task_at, "games.tasks.rematch_lapse", [match.pk], now + window, now)
            )
            _bots_asked(match, seats, user, now=now, until=now + window)
        # The computer always takes a rematch.
        for index in [seat, *(row.seat for row in seats if row.bot_level)]:
            if index not in accepted:
                accepted.append(index)
        match.rematch_accepted = sorted(accepted)
        fields = {"rematch_offered_at", "rematch_accepted"}
        if len(accepted) == len(seats):
            members = User.objects.in_bulk([row.member_id for row in seats if row.member_id])
            match.rematch = match_create(
                variant=match.variant,
                members=[members[row.member_id] for row in seats if row.member_id],
                bots={row.seat: row.bot_level for row in seats if row.bot_level},
                now=now,
                rated=match.rated,
                single_game=match.format == Match.Format.SINGLE,
                clock=match.clock,
                private=match.private,
                practice=match.practice,
            )
            fields.add("rematch")
        return match_bump(match, seats, match.engine_state(), now=now, fields=fields)


def _bots_asked(match: Match, seats, user: User, *, now: datetime, until: datetime) -> None:
    """A bot account plays through its program, which hears of a rematch as a challenge
    to it (SPEC §15) that lasts as long as the offer: accepting it accepts the rematch,
    declining it ends the offer (``lobby.services.challenge_accept``,
    ``challenge_decline``)."""
    for row in seats:
        if row.member_bot and row.member_id != user.pk:
            Challenge.objects.create(
                challenger=user,
                challenged_id=row.member_id,
                variant=match.variant,
                clock=match.clock,
                format=match.format,
                rated=match.rated,
                created_at=now,
                expires_at=until,
                rematch_of=match,
            )
            transaction.on_commit(
                partial(events.member_notify, row.member_id, {"kind": "challenges"})
            )


def rematch_refuse(*, match_id: int, now: datetime) -> Match:
    """A bot's program declined the rematch's challenge, or its offerer cancelled it: the
    offer ends at once (the lobby's service has told the other side)."""
    with transaction.atomic():
        match, seats = locked_table(match_id)
        if match.rematch_id or match.rematch_offered_at is None:
            return match
        return _offer_cleared(match, seats, now=now)


def _offer_cleared(match: Match, seats, *, now: datetime) -> Match:
    """The table no longer shows the rematch offer."""
    match.rematch_offered_at, match.rematch_accepted = None, []
    return match_bump(
        match,
        seats,
        match.engine_state(),
        now=now,
        fields={"rematch_offered_at", "rematch_accepted"},
    )


def rematch_offers_withdraw(*, member_ids: list[int], now: datetime) -> int:
    """These members' new match has started: nothing of theirs waits (SPEC §10), so their
    acceptance of a rematch still open at another finished match is taken back (an offer
    no other member accepted ends), and nobody seats them in a second match by accepting
    it. Called after the new match's commit, when the match it may be the rematch of says
    so. Returns the offers changed."""
    open_offers = (
        _offers_open(now).filter(seats__member_id__in=member_ids).values_list("pk", flat=True)
    )
    gone = set(member_ids)
    return sum(_acceptance_taken_back(match_id, gone, now=now) for match_id in list(open_offers))


def _offers_open(now: datetime):
    """The finished matches whose rematch offer is still open (within its minute)."""
    window = timing.seconds("GAME_REMATCH_SECONDS")
    return Match.objects.filter(
        status=Match.Status.FINISHED, rematch=None, rematch_offered_at__gt=now - window
    ).distinct()


def _acceptance_taken_back(match_id: int, gone: set[int], *, now: datetime) -> bool:
    with transaction.atomic():
        match, seats = locked_table(match_id)
        if match.rematch_id or match.rematch_offered_at is None:
            return False
        left = {row.seat for row in seats if row.member_id in gone}
        accepted = [seat for seat in match.rematch_accepted if seat not in left]
        if accepted == list(match.rematch_accepted):
            return False
        if not any(row.member_id is not None and row.seat in accepted for row in seats):
            _offer_cleared(match, seats, now=now)  # only the computer's seats were left
            return True
        match.rematch_accepted = accepted
        match_bump(match, seats, match.engine_state(), now=now, fields={"rematch_accepted"})
        return True


def rematch_offers_between_end(sender, *, blocker: User, blocked: User, **kwargs) -> int:
    """``accounts.signals.member_blocked``: an open rematch offer at a finished match of
    the two ends, in the block's transaction (the table no longer shows it), and
    ``rematch_offer`` refuses a new one: no rematch starts between them. Returns how many
    offers ended."""
    now = timing.now()
    offers = (
        _offers_open(now)
        .filter(seats__member=blocker)
        .filter(seats__member=blocked)
        .values_list("pk", flat=True)
    )
    ended = 0
    for match_id in sorted(offers):
        match, seats = locked_table(match_id)
        if match.rematch_id is None and match.rematch_offered_at is not None:
            _offer_cleared(match, seats, now=now)
            ended += 1
    return ended


def rematch_lapse(*, match_id: int, now: datetime) -> bool:
    """A rematch offer nobody completed within its minute ends: the members who offered or
    accepted it are told (``rematch_lapsed``), and the table no longer shows it. Returns
    whether it lapsed now."""
    with transaction.atomic():
        match, seats = locked_table(match_id)
        offered = match.rematch_offered_at
        window = timing.seconds("GAME_REMATCH_SECONDS")
        if match.rematch_id or offered is None or now < offered + window:
            return False
        notice = {"kind": "rematch_lapsed", "match": match.pk}
        for row in seats:
            if row.seat in match.rematch_accepted and row.member_id is not None:
                transaction.on_commit(partial(events.member_notify, row.member_id, notice))
        _offer_cleared(match, seats, now=now)
        return True


def rematches_lapse(*, now: datetime) -> int:
    """Every rematch offer whose minute is over lapses (a beat sweep, for what the task
    queued at the offer missed). Returns how many lapsed."""
    due = Match.objects.filter(
        status=Match.Status.FINISHED,
        rematch=None,
        rematch_offered_at__lte=now - timing.seconds("GAME_REMATCH_SECONDS"),
    ).values_list("pk", flat=True)
    return sum(rematch_lapse(match_id=match_id, now=now) for match_id in list(due))


def member_leave_all(*, member: User, **kwargs) -> None:
    """A member deletes their account or is banned (``accounts.signals``, inside that
    transaction): their matches in play end (``member_matches_end``)."""
    member_matches_end(member_id=member.pk, now=timing.now())


def member_seats_renamed(*, member: User, **kwargs) -> None:
    """A member deletes their account (inside that transaction): once it is gone, the
    tables of theirs that someone is watching show the seat as "deleted member" at once
    (a new version each; ended tables are not bumped otherwise)."""
    watched = list(
        Match.objects.filter(seats__member_id=member.pk, presences__isnull=False)
        .values_list("pk", flat=True)
        .distinct()
    )

    def refresh() -> None:
        for match_id in watched:
            table_refresh(match_id=match_id, now=timing.now())

    transaction.on_commit(refresh)


def table_refresh(*, match_id: int, now: datetime) -> Match:
    """Send the table's state again with a new version (its ratings moved, a seat's
    member left the site)."""
    with transaction.atomic():
        match = locked_match(match_id)
        if not match.state:
            return match
        return match_bump(match, seats_for(match_id), match.engine_state(), now=now)
