"""The public state of a table (SPEC §7 ``state`` without ``you``), built from what a
caller already holds: the match row, its engine state and its seats. A move's service
builds it from the locked row it just changed; ``sync`` builds it from a fresh read. Both
give the same message."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, NamedTuple

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games import timing
from games.engine import Position
from games.engine.clock import Clock
from games.engine.match import PLAYING, MatchState
from games.models import SEAT_LETTERS, Match


class SeatRow(NamedTuple):
    """A seat as tables need it, read without the member's whole row (``access.seats_for``);
    the member's ban comes with it."""

    seat: int
    member_id: int | None
    username: str | None
    rating: float | None
    connected: bool
    absent_since: datetime | None
    banned_at: datetime | None = None
    banned_until: datetime | None = None
    bot_level: int | None = None  # the computer plays this seat
    member_bot: bool | None = False  # the member is a bot account (SPEC §15: marked BOT)

    def banned(self, now: datetime) -> bool:
        return self.banned_at is not None and (self.banned_until is None or self.banned_until > now)


def letters(seats) -> list[str]:
    return [SEAT_LETTERS[s] for s in seats]


def table_url(match: Match, *, neutral: bool = False) -> str:
    """The table page: by token for a private table, by id otherwise. ``neutral``: without a
    language prefix, for messages to pages in any language (each adds its own)."""
    with translation.override(settings.LANGUAGE_CODE if neutral else translation.get_language()):
        if match.private:
            return reverse("table_private", args=[match.token])
        return reverse("table", args=[match.pk])


def rematch_url(match: Match) -> str | None:
    """The rematch's table (neutral). A rematch is private exactly when its match is
    (``rematch_offer``), so only a private one is read for its token: every state of a
    finished public table would otherwise load the rematch's whole row."""
    if not match.rematch_id:
        return None
    if match.private:
        return table_url(match.rematch, neutral=True)
    with translation.override(settings.LANGUAGE_CODE):
        return reverse("table", args=[match.rematch_id])


def _changes_by_seat(changes: list[dict] | None, seats: list[SeatRow]) -> list[dict] | None:
    """What a rated match did to each seat's rating, once ratings has updated it."""
    if not changes:
        return None
    letter = {row.member_id: SEAT_LETTERS[row.seat] for row in seats if row.member_id}
    return [
        {
            "seat": letter[change["member_id"]],
            "before": round(change["rating_before"]),
            "after": round(change["rating_after"]),
            "change": change["change"],
        }
        for change in changes
        if change["member_id"] in letter
    ]


def _ms(at: datetime | None) -> int | None:
    return None if at is None else timing.ms(at)


def build(
    match: Match,
    state: MatchState,
    seats: list[SeatRow],
    *,
    now: datetime,
    rating_changes: list[dict] | None = None,
    claim_at: datetime | None = None,
) -> dict[str, Any]:
    """The public state. ``claim_at``: when the seat to move's opponents may claim the
    match (``claim_from``), or None."""
    game = state.current
    position = game.position
    out = set(state.out) | set(position.out)
    clock = Clock.from_dict(match.clock_state) if match.clock_state else None
    result = None
    if state.reason is not None:
        result = {"winners": letters(state.winners), "reason": state.reason}
    clock_view = None
    if clock is not None:
        at = timing.ms(now)
        clock_view = {
            "remaining_ms": [clock.remaining(s, at) for s in range(position.seats)],
            "increment_ms": clock.increment_ms,
            "running": None if clock.running is None else SEAT_LETTERS[clock.running],
        }
        if clock.berserks:  # arenas: who gave up half their time
            clock_view["berserk"] = letters(sorted(clock.berserks))
    rematch_offer = None
    if match.rematch_offered_at and not match.rematch_id:
        window = timing.seconds("GAME_REMATCH_SECONDS")
        rematch_offer = {
            "seats": letters(match.rematch_accepted),
            "expires_at": timing.ms(match.rematch_offered_at + window),
        }
    between = match.status == Match.Status.BETWEEN_GAMES
    built = {
        "type": "state",
        "version": match.version,
        "server_time": timing.ms(now),
        "match": {
            "id": match.pk,
            "variant": match.variant,
            "rated": match.rated,
            "format": match.format,
            "clock": match.clock or None,
            "status": match.status,
            "seats": [
                {
                    "seat": SEAT_LETTERS[row.seat],
                    "username": row.username,
                    "title": "BOT" if row.member_bot else None,
                    "bot": row.bot_level,
                    "rating": row.rating,
                    "connected": row.connected,
                    "out": row.seat in out,
                }
                for row in seats
            ],
            "points": list(state.points),
            "totals": list(state.totals),
            "result": result,
            "rematch": match.rematch_id,
            "rematch_url": rematch_url(match),
            "rematch_offer": rematch_offer,
            "ready": letters(sorted(state.ready)),
            "spectators": match.spectators,
            "next_game_at": _ms(match.deadline) if between else None,
            "abort_at": _ms(match.deadline) if state.can_abort and match.deadline else None,
            "claim": None
            if claim_at is None
            else {"seat": SEAT_LETTERS[position.to_move], "from": timing.ms(claim_at)},
            "rating_changes": _changes_by_seat(rating_changes, seats),
        },
        "game": {
            "number": game.number,
            "ply": game.ply,
            "to_move": SEAT_LETTERS[position.to_move],
            "position": position.to_text(),
            "scores": list(position.scores),
            "needed_to_win": position.needed_to_win,
            "figures": [
                {
                    "seats": letters(f.seats),
                    "score": f.score,
                    "potential": f.potential,
                    "to_equator": f.to_equator,
                    "lead": f.lead,
                }
                for f in position.side_figures()
            ],
            "over": game.over,
            "winners": letters(game.winners),
            "reason": game.reason,
        },
        "games": [
            {
                "number": g.number,
                "scores": list(g.side_scores_by_seat()),
                "winners": letters(g.winners),
                "reason": g.reason,
                "moves": [
                    {
                        "ply": ply,
                        "seat": SEAT_LETTERS[seat],
                        "color": colour,
                        "gained": gained,
                    }
                    for ply, (colour, (seat, gained)) in enumerate(
                        zip(g.moves, g.log, strict=True), start=1
                    )
                ],
            }
            for g in state.games
        ],
        "clock": clock_view,
    }
    if match.arena_id is not None:  # the arena that paired them (SPEC §12)
        built["match"]["arena"] = match.arena_id
    return built


SPECTATOR = {"seat": None, "legal": {}, "previews": {}, "can_swap": False, "can_abort": False}


def you(
    state: dict[str, Any],
    seat: int | None,
    position: Position | None = None,
    *,
    can_abort: bool = False,
    can_berserk: bool = False,
) -> dict:
    """A player's own part of the state: legal colours with reasons, previews when it is
    their turn, and whether they may still abort the match (their side has not moved in
    game 1). Spectators get ``seat: null`` and nothing else."""
    if seat is None:
        return SPECTATOR
    if position is None:
        position = Position.from_text(state["game"]["position"])
    legal = position.legal_colors(seat)
    previews: dict[str, list[int]] = {}
    playing = state["match"]["status"] == Match.Status.PLAYING and not state["game"]["over"]
    if playing and position.to_move == seat:
        previews = {
            str(colour): sorted(position.preview(colour))
            for colour, reason in legal.items()
            if reason is None
        }
    mine = {
        "seat": SEAT_LETTERS[seat],
        "legal": {str(colour): reason for colour, reason in legal.items()},
        "previews": previews,
        "can_swap": bool(playing and position.to_move == seat and position.can_swap),
        "can_abort": can_abort,
    }
    if can_berserk:  # arena matches only: other tables' states keep their shape
        mine["can_berserk"] = True
    return mine


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def berserkers(match: Match, state: MatchState) -> frozenset[int]:
    """The seats whose members may still go berserk (SPEC §12): arena matches, game 1,
    before the member's first move, once."""
    if match.arena_id is None or state.status != Match.Status.PLAYING or state.current.number != 1:
        return frozenset()
    clock = Clock.from_dict(match.clock_state) if match.clock_state else None
    if clock is None:
        return frozenset()
    return frozenset(
        seat
        for seat in range(state.seats)
        if seat not in clock.berserks and not state.side_moved(seat)
    )


def abortable(state: MatchState) -> frozenset[int]:
    """The seats whose members may abort the match now (SPEC §3: before their side has
    moved in game 1)."""
    if not state.can_abort:
        return frozenset()
    return frozenset(seat for seat in range(state.seats) if not state.side_moved(seat))


def encode(
    message: dict[str, Any],
    position: Position,
    *,
    deadline: datetime | None = None,
    aborters: frozenset[int] = frozenset(),
    players: list[int | None] | None = None,
    berserks: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    """The state as a group event, serialized once for every socket at the table: the
    public part as JSON text, each seat's ``you`` (and the spectators') as JSON text, so a
    socket only joins two strings (``personal``). ``aborters``: ``abortable(state)``;
    ``players``: each seat's member id, so a socket knows its member's seat afresh."""
    yous = {"-": _dumps(SPECTATOR)}
    for seat in range(position.seats):
        yous[str(seat)] = _dumps(
            you(
                message,
                seat,
                position,
                can_abort=seat in aborters,
                can_berserk=seat in berserks,
            )
        )
    return {
        "type": "table.state",
        "match": message["match"]["id"],
        "status": message["match"]["status"],
        "version": message["version"],
        "body": _dumps(message)[:-1],
        "you": yous,
        "deadline": deadline.isoformat() if deadline else None,
        "players": players or [],
    }


STATE_START = '{"type":"state"'


def personal(event: dict[str, Any], seat: int | None, *, kind: str = "state") -> str:
    """One socket's ``state`` frame from a group event made by ``encode``; ``kind``: the
    same fields under another ``type`` (the bot API's ``matchFull`` and ``matchState``,
    SPEC §15)."""
    mine = event["you"]["-" if seat is None else str(seat)]
    body = event["body"]
    if kind != "state":
        assert body.startswith(STATE_START)  # ``build`` puts the type first
        body = '{"type":' + _dumps(kind) + body[len(STATE_START) :]
    return f'{body},"you":{mine}}}'


def claim_from(
    match: Match, state: MatchState, seats: list[SeatRow], clock: Clock | None
) -> datetime | None:
    """When the opponents of the seat to move may claim the match (SPEC §3: no present
    socket for a minute; at no-clock tables also no move for five minutes), or None.
    Asked by ``ending.match_claim`` and by every state a table sends (its ``claim``
    field), so both always agree."""
    if state.status != PLAYING or state.current.over or state.can_abort:
        return None
    to_move = seats[state.current.position.to_move]
    moments = []
    if not to_move.connected and to_move.absent_since is not None:
        moments.append(to_move.absent_since + timing.seconds("GAME_ABANDON_SECONDS"))
    if clock is None and match.turn_started_at is not None:
        moments.append(match.turn_started_at + timing.seconds("GAME_IDLE_SECONDS"))
    return min(moments) if moments else None
