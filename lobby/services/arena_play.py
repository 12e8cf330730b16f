"""An arena at play (SPEC §12): pairing its waiting entrants every few seconds, and
scoring each of its matches as it ends.

Pairing takes the active entrants free by ``lobby.availability`` (a present socket on
some page of the site, no seat at a table in play: what the arena's page says too), and
pairs them with ``lobby.pairing.pair``, never two of whom one blocked the other (SPEC
§14); each pair starts a rated match of two games with the arena's clock
(``match_create`` sends both members to the table, and its ``match_started`` withdraws
their waiting tables and challenges). Scoring stores both members' ``ArenaResult`` in the
transaction that ends the match (``games.signals.arena_match_ended``), from
``lobby.scoring``; a member who was never shown the table of an aborted match
(``never_told``) is not charged for it."""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Sum

from accounts.models import User
from accounts.selectors import blocks_between
from accounts.transactions import deadlock_retried
from games.access import rated_pairs_at_limit
from games.engine import VARIANTS
from games.engine.clock import Clock
from games.engine.match import ABANDONED, ABORTED, FLAGGED, RESIGNED, MatchState
from games.models import Match, Seat
from games.services import match_create
from games.services.commit import counted
from games.state import SeatRow
from lobby.availability import availability
from lobby.models import Arena, ArenaEntry, ArenaResult
from lobby.pairing import Waiting, pair
from lobby.scoring import Played, score
from lobby.services.arenas import arena_changed
from ratings.selectors import MatchRated, current_ratings

#: how often two members may meet in one arena (SPEC §12)
MEETINGS_PER_PAIR = 3
ROUND_SHARE = 0.8  # a beat a little early still pairs: rounds keep their interval


def arenas_pair(*, now: datetime) -> int:
    """Every ``ARENA_PAIRING_SECONDS`` (beat): each running arena's waiting entrants
    paired. Returns the matches started."""
    started = 0
    for arena_id in Arena.objects.filter(status=Arena.Status.RUNNING).values_list("pk", flat=True):
        started += arena_pair(arena_id=arena_id, now=now)
    return started


@deadlock_retried
@transaction.atomic
def arena_pair(*, arena_id: int, now: datetime) -> int:
    """One pairing round of a running arena, unless one is under way (its row locked:
    a large round takes longer than an interval) or came less than an interval ago."""
    arena = Arena.objects.select_for_update(skip_locked=True).filter(pk=arena_id).first()
    if arena is None or arena.status != Arena.Status.RUNNING or now >= arena.ends_at:
        return 0
    interval = timedelta(seconds=settings.ARENA_PAIRING_SECONDS)
    if arena.paired_at is not None and now < arena.paired_at + interval * ROUND_SHARE:
        return 0  # one round an interval, however often the beat comes
    arena.paired_at = now
    arena.save(update_fields=["paired_at"])
    members, waiting = arena_waiting(arena, now)
    free = [w.member for w in waiting]
    apart = {frozenset(block) for block in blocks_between(free)}
    apart |= rated_pairs_at_limit(free, now=now)  # their match would not be rated
    apart |= pairs_met_enough(arena, free)
    pairs = pair(waiting, apart=apart)
    for a, b in pairs:
        seated = [members[a], members[b]]
        if secrets.randbelow(2):  # who moves first is drawn
            seated.reverse()
        match_create(
            variant=arena.variant,
            members=seated,
            now=now,
            rated=True,
            clock=arena.clock,
            arena=arena.pk,
        )
    if pairs:
        arena_changed(arena)
    return len(pairs)


def arena_waiting(arena: Arena, now: datetime) -> tuple[dict[int, User], list[Waiting]]:
    """The arena's entrants who wait for a pairing now (active, not banned, and free by
    ``lobby.availability``: a present socket on some page of the site, no seat at a table
    in play), with their points, rating and last opponent; and the members by id. Six
    queries."""
    members = {
        m.pk: m
        for m in User.objects.filter(
            arena_entries__arena=arena, arena_entries__active=True, is_active=True
        )
        if not m.is_banned(now)
    }
    found = availability(members, now=now)
    free = [pk for pk in members if found[pk].free]
    if len(free) < 2:
        return members, []
    points = dict(
        ArenaResult.objects.filter(arena=arena, member_id__in=free)
        .values("member_id")
        .annotate(total=Sum("points"))
        .values_list("member_id", "total")
    )
    last_opponent = {}
    for member_id, opponent_id in (
        ArenaResult.objects.filter(arena=arena, member_id__in=free)
        .order_by("finished_at", "pk")
        .values_list("member_id", "opponent_id")
    ):
        last_opponent[member_id] = opponent_id
    ratings = current_ratings(free, VARIANTS[arena.variant].rated_scale)
    return members, [
        Waiting(pk, points.get(pk, 0), ratings[pk].rating, last_opponent.get(pk)) for pk in free
    ]


def pairs_met_enough(arena: Arena, members) -> set[frozenset[int]]:
    """The pairs among ``members`` who have met ``MEETINGS_PER_PAIR`` times in this arena
    (each match gives both members a result row). One query."""
    rows = ArenaResult.objects.filter(arena=arena, member_id__in=list(members)).values_list(
        "member_id", "opponent_id"
    )
    met = Counter(frozenset(row) for row in rows if None not in row)
    return {pair for pair, count in met.items() if count // 2 >= MEETINGS_PER_PAIR}


def forfeited_by(state: MatchState, seats) -> set[int]:
    """Who ended an arena match before it counted (``games.services.commit.counted``):
    the seat that resigned (an abort by resignation included), lost on time, abandoned
    it or did not make its first move in time. The Abort button forfeits nothing (SPEC
    §12: its presser, who never moved, is withdrawn, streak kept)."""
    if state.status == ABORTED:
        by = state.aborted_by()
        return set() if by is None else {by}
    if state.reason in (RESIGNED, FLAGGED, ABANDONED):
        return {seat for seat in seats if seat not in state.winners}
    return set()


def never_told(state: MatchState, seat: int, shown_at: datetime | None) -> bool:
    """Whether the member at ``seat`` never knew of this aborted match: they made no move
    in game 1 and the table was never shown to them (``Seat.shown_at``: its page never
    loaded for them, no socket of theirs opened there; a pairing made while they were
    between two pages). Such a member forfeits nothing and is not withdrawn: the arena
    withdraws a member who was told and still did not come (SPEC §12)."""
    return state.status == ABORTED and shown_at is None and not state.game_one_moves(seat)


def outcome_of(state: MatchState, seat: int) -> str:
    """A seat's match as the arena counts it: win, draw, loss or aborted."""
    if state.status == ABORTED:
        return ArenaResult.Outcome.ABORTED
    winners = set(state.winners)
    if not winners or len(winners) == state.seats:
        return ArenaResult.Outcome.DRAW
    return ArenaResult.Outcome.WIN if seat in winners else ArenaResult.Outcome.LOSS


def played_in(match: Match, state: MatchState, seat: int, opponent_rating, *, told: bool) -> Played:
    """A seat's side of an ended arena match from the match: the outcome, whether the
    seat went berserk (the clock) and its moves; the opponent's rating before the match
    is given, and whether the seat's member was told of the match (``never_told``)."""
    clock = Clock.from_dict(match.clock_state) if match.clock_state else None
    played = Played(
        outcome_of(state, seat),
        opponent_rating,
        bool(clock and seat in clock.berserks),
        sum(1 for game in state.games for mover, _ in game.log if mover == seat),
    )
    if not counts_in_arena(match, state):
        # No points for either: a forfeit breaks the streak, the other seat's is void.
        forfeit = told and seat in forfeited_by(state, range(state.seats))
        outcome = ArenaResult.Outcome.LOSS if forfeit else ArenaResult.Outcome.ABORTED
        played = replace(played, outcome=outcome, opponent_rating=None)
    return played


def counts_in_arena(match: Match, state: MatchState) -> bool:
    """Whether an ended arena match gives points: played, and counted for ratings."""
    return state.status != ABORTED and counted(match, state)


def rated_as(played: Played, rated: MatchRated | None, opponent_id: int | None) -> Played:
    """A seat's side of an arena match as ratings keep the match now (``rated``; None for
    a match that did not count, which stays as it is): the opponent's rating before it,
    or, once a moderator annulled it, no rating and a match that counts for nothing."""
    if rated is None:
        return played
    if rated.annulled:
        return replace(played, opponent_rating=None, annulled=True)
    return replace(played, opponent_rating=rated.before.get(opponent_id), annulled=False)


def played_of(result: ArenaResult) -> Played:
    return Played(
        result.outcome, result.opponent_rating, result.berserk, result.moves, result.annulled
    )


def arena_match_scored(
    *, match: Match, state: MatchState, seats: list[SeatRow], now: datetime, **kwargs
) -> None:
    """An arena's match ended (``games.signals.arena_match_ended``, inside its
    transaction): both members' results, scored after their earlier ones in this arena.
    A match in which a seat made fewer than two moves in game 1 counts for nothing
    (``commit.counted``): whoever ended it so (``forfeited_by``) loses their streak and
    is withdrawn; the other seat keeps both. A member who was never told of an aborted
    match (``never_told``) is neither."""
    arena = Arena.objects.select_for_update().filter(pk=match.arena_id).first()
    if arena is None:
        return
    rows = {row.seat: row for row in seats if row.member_id is not None}
    forfeits = set() if counts_in_arena(match, state) else forfeited_by(state, rows)
    shown = dict(Seat.objects.filter(match=match).values_list("seat", "shown_at"))
    # Ratings move only after this transaction (the rating task): these are the ones
    # before the match, as ratings will record them (``RatingChange.rating_before``).
    ratings = current_ratings(
        [r.member_id for r in rows.values()], VARIANTS[match.variant].rated_scale
    )
    for seat, row in rows.items():
        member_id = row.member_id
        opponent = next((r for s, r in rows.items() if s != seat), None)
        earlier = [
            played_of(r)
            for r in ArenaResult.objects.filter(arena=arena, member_id=member_id).order_by(
                "finished_at", "pk"
            )
        ]
        told = not never_told(state, seat, shown.get(seat))
        current = played_in(
            match,
            state,
            seat,
            ratings[opponent.member_id].rating if opponent else None,
            told=told,
        )
        scored = score([*earlier, current])[-1]
        ArenaResult.objects.create(
            arena=arena,
            member_id=member_id,
            match=match,
            opponent_id=opponent.member_id if opponent else None,
            opponent_rating=current.opponent_rating,
            outcome=current.outcome,
            points=scored.points,
            on_fire=scored.on_fire,
            berserk=current.berserk,
            moves=current.moves,
            annulled=current.annulled,
            finished_at=now,
        )
        never_moved = state.status == ABORTED and not state.game_one_moves(seat)
        if told and (seat in forfeits or (never_moved and state.aborted_by() is None)):
            ArenaEntry.objects.filter(arena=arena, member_id=member_id).update(
                active=False, withdrawn_at=now
            )
    if arena.status == Arena.Status.FINISHED:  # a match that played on after the end
        podium_set(arena)
    arena_changed(arena)


PODIUM = 3


def podium_set(arena: Arena) -> None:
    """Keep the finished arena's top three with it (the lists show them) and each
    entrant's place (their page shows it); a cancelled arena has none."""
    from lobby.standings import arena_table

    table = arena_table(arena)
    arena.podium = [
        {"username": line.username, "points": line.standing.points}
        for line in table[:PODIUM]
        if line.standing.results
    ]
    arena.save(update_fields=["podium"])
    entries = {e.member_id: e for e in ArenaEntry.objects.filter(arena=arena)}
    for line in table:  # each member's final place, for their page
        entries[line.standing.member].rank = line.rank
    ArenaEntry.objects.bulk_update(entries.values(), ["rank"])
