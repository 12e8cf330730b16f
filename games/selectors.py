"""Reads of tables: the public state every socket gets, chat, the lists of matches."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from django.core.cache import cache
from django.db.models import Avg, Exists, F, OuterRef, Prefetch, Q

from games import protocol, state, timing
from games.access import seats_for
from games.board_svg import render_board
from games.engine import VARIANTS, Position, replay
from games.engine.clock import Clock, parse_preset
from games.engine.match import MatchState
from games.engine.record import record_of, record_to_text
from games.models import SEAT_LETTERS, Analysis, Challenge, ChatMessage, Match, Seat
from ratings.selectors import match_rating_changes

CHAT_HISTORY = 100


def match_for_table(match_id: int) -> Match | None:
    """A match as a table shows it: all but its board (game 1's start, in its state)."""
    return Match.objects.defer("board").filter(pk=match_id).first()


def _tables(match_id: int | None, token: str | None):
    """The match behind a table page or socket: a public one by id, any by its token (a
    private table is never found by id)."""
    if token is not None:
        return Match.objects.filter(token=token)
    return Match.objects.filter(pk=match_id, private=False)


def table_match(*, match_id: int | None = None, token: str | None = None) -> Match | None:
    return _tables(match_id, token).first()


def table_id(*, match_id: int | None = None, token: str | None = None) -> int | None:
    return _tables(match_id, token).values_list("pk", flat=True).first()


def waiting_seats(match: Match) -> list[Seat]:
    """The members seated at a waiting table, in the order they came."""
    return list(match.seats.select_related("member").order_by("joined_at", "pk"))


def table_message(match: Match, *, now: datetime | None = None):
    """(engine state, seats, public state) of a match that has started."""
    engine_state = match.engine_state()
    changes = None
    if match.rated and match.status == Match.Status.FINISHED:
        changes = match_rating_changes(match.pk)
    seats = seats_for(match.pk)
    clock = Clock.from_dict(match.clock_state) if match.clock_state else None
    message = state.build(
        match,
        engine_state,
        seats,
        now=now or timing.now(),
        rating_changes=changes,
        claim_at=state.claim_from(match, engine_state, seats, clock),
    )
    return engine_state, seats, message


def _table(match_id: int, now: datetime | None):
    """(match, engine state, seats, public state) of a table that has started, else
    None."""
    match = match_for_table(match_id)
    if match is None or not match.state:
        return None
    engine_state, seats, message = table_message(match, now=now)
    return match, engine_state, seats, message


def table_state(match_id: int, *, now: datetime | None = None) -> dict[str, Any] | None:
    """The public state of a table (SPEC §7 ``state`` without ``you``): the match and its
    seats (and, once rated, the rating changes), the same message a change sends."""
    found = _table(match_id, now)
    return None if found is None else found[3]


def table_event(match_id: int, *, now: datetime | None = None) -> dict[str, Any] | None:
    """The state as the group event a change sends (``state.encode``), for a socket that
    connects or asks for ``sync``."""
    found = _table(match_id, now)
    if found is None:
        return None
    match, engine_state, seats, message = found
    return state.encode(
        message,
        engine_state.current.position,
        deadline=match.deadline,
        aborters=state.abortable(engine_state),
        players=[row.member_id for row in seats],
    )


def chat_history(match_id: int, *, player: bool, viewer: int | None = None) -> list[dict[str, Any]]:
    """The latest messages a socket may see, oldest first (players never see
    spectators-only chat, the member ``viewer`` not the chat of the members they
    blocked)."""
    lines = ChatMessage.objects.filter(match_id=match_id)
    if player:
        lines = lines.exclude(audience=ChatMessage.Audience.SPECTATORS)
    if viewer is not None:
        lines = lines.exclude(author__blocked_by__blocker_id=viewer)
    latest = lines.order_by("-created_at", "-id").values_list(
        "id", "author__username", "text", "created_at", "audience"
    )[:CHAT_HISTORY]
    return [
        protocol.chat(pk, name, text, at, audience == ChatMessage.Audience.SPECTATORS)
        for pk, name, text, at, audience in reversed(latest)
    ]


def live_matches(limit: int = 50) -> list[Match]:
    """Public tables being played now, newest first, for the lobby (practice tables are
    not shown, nor VOG TV's computers: the lobby shows them on its live board)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("member"))
    return list(_on_show().exclude(house=Match.House.TV).prefetch_related(seats)[:limit])


#: how long after a challenge of theirs was accepted a member's next page still sends them
#: to its table if they were never shown it (``unseen_table``)
ACCEPTED_UNSEEN_SECONDS = 60


def unseen_table(member_id: int, *, now: datetime) -> str | None:
    """The table (neutral URL) of a challenge of the member's accepted in the last
    ``ACCEPTED_UNSEEN_SECONDS``, in play, that they were never shown (``Seat.shown_at``):
    it was accepted while no page of theirs had its socket open to hear the notice (a bot
    accepts at once, as the challenger's page loads). Their next page's socket sends them
    there (``lobby.consumers.SiteConsumer``)."""
    challenge = (
        Challenge.objects.filter(
            challenger_id=member_id,
            status=Challenge.Status.ACCEPTED,
            answered_at__gte=now - timedelta(seconds=ACCEPTED_UNSEEN_SECONDS),
            match__status=Match.Status.PLAYING,
            match__seats__member_id=member_id,
            match__seats__shown_at=None,
        )
        .select_related("match")
        .only("match__private", "match__token")
        .order_by("-answered_at")
        .first()
    )
    return state.table_url(challenge.match, neutral=True) if challenge is not None else None


def _on_show():
    """Matches anyone may watch being played: public, in play, not practice."""
    active = [Match.Status.PLAYING, Match.Status.BETWEEN_GAMES]
    return Match.objects.filter(status__in=active, private=False, practice=False)


def tv_match() -> Match | None:
    """The match VOG TV shows (/tv/, the home page's live board): the public match in play
    whose members are rated highest (the mean of the ratings shown at their seats;
    provisional ratings and computers count for none, so a match of provisional players
    comes after rated ones), the newest first among equals, among those whose members are
    all at the table (a present socket: a match its players left shows nothing happening);
    when there is none, the site's own match of two computers (``services.house``), if it
    runs. Two queries at most, all but the board."""
    shown = _on_show().defer("board")
    away = Seat.objects.filter(match=OuterRef("pk"), member__isnull=False, connected=False)
    best = (
        shown.exclude(house=Match.House.TV)
        .exclude(Exists(away))
        .annotate(strength=Avg("seats__rating"))
        .order_by(F("strength").desc(nulls_last=True), "-started_at", "-pk")
        .first()
    )
    return best or shown.filter(house=Match.House.TV).first()


@dataclass
class TvBoard:
    """The match on VOG TV as the home page draws it small: the public state a spectator
    gets first (SPEC §7), and its position."""

    match: Match
    state: dict[str, Any]

    @cached_property
    def position(self) -> Position:
        return Position.from_text(self.state["game"]["position"])

    @cached_property
    def svg(self) -> str:
        return render_board(self.position, css_class="live-board-svg")

    @property
    def seats(self) -> list[dict[str, Any]]:
        """Each seat of the state with its score and its colour now, and whether its name
        needs its letter."""
        scores, colours = self.state["game"]["scores"], self.position.seat_colors
        seats = self.state["match"]["seats"]
        # Where several computers share the table, each is told by its letter (SPEC §10).
        computers = sum(1 for seat in seats if seat["bot"])
        return [
            {**seat, "score": scores[i], "colour": colours[i], "lettered": computers > 1}
            for i, seat in enumerate(seats)
        ]


def tv_board(*, now: datetime | None = None) -> TvBoard | None:
    """The match on VOG TV (``tv_match``) with its public state, or None. 4 queries."""
    match = tv_match()
    if match is None:
        return None
    _engine, _seats, message = table_message(match, now=now)
    return TvBoard(match, message)


def match_steps(match: Match) -> dict[str, Any]:
    """Every position of every game of a match, for the replay (``games.engine.replay``):
    per step the position (FPN), the scores, who moved what and the cells it took. Kept
    in the cache per match version."""
    key = f"replay:{match.pk}:{match.version}"
    cached = cache.get(key)
    if cached is not None:
        return cached
    games = []
    for timeline in replay.steps(MatchState.from_dict(match.state)):
        games.append(
            [
                {
                    "ply": step.ply,
                    "label": step.label,
                    "seat": None if step.seat is None else SEAT_LETTERS[step.seat],
                    "color": step.move,
                    "event": step.event,
                    "position": step.position.to_text(),
                    "scores": list(step.position.scores),
                    "gained": sorted(step.gained),
                }
                for step in timeline
            ]
        )
    data = {"match": match.pk, "version": match.version, "games": games}
    cache.set(key, data, 3600)
    return data


def api_match(*, match_id: int | None = None, token: str | None = None) -> Match | None:
    """A match with its seats and their members, and its analysis (a private one by its
    token only)."""
    matches = Match.objects.select_related("analysis").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("member").order_by("seat"))
    )
    if token is not None:
        return matches.filter(token=token).first()
    return matches.filter(pk=match_id, private=False).first()


def halves(value: float) -> str:
    """Points as players write them: 1.5 as "1½", 0.5 as "½"."""
    whole = int(value)
    if value - whole < 0.5:
        return str(whole)
    return f"{whole}½" if whole else "½"


def match_outcome(state: MatchState, mine: int) -> str:
    """A finished match from seat ``mine``'s side: "won", "drawn" or "lost"."""
    if mine not in state.winners:
        return "lost"
    my_side = next(side for side in state.board.sides if mine in side)
    return "drawn" if any(w not in my_side for w in state.winners) else "won"


@dataclass
class HeadToHead:
    """The finished matches a member played against another, from the member's side."""

    won: int = 0
    drawn: int = 0
    lost: int = 0

    @property
    def matches(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def score(self) -> tuple[float, float]:
        """The two members' points, a drawn match half a point each."""
        return self.won + self.drawn / 2, self.lost + self.drawn / 2


#: the variants of two seats, where one member meets one other
TWO_SEATS = tuple(key for key, variant in VARIANTS.items() if variant.seats == 2)


def head_to_head(member, opponent, *, private: bool = True) -> HeadToHead:
    """How ``member`` fared in the finished two-seat matches they played against
    ``opponent`` (members or their ids): the record ``member`` sees on the other's page,
    private matches too (both played them), and the table's crosstable, for everyone to
    read (``private=False``). One query, each match's winners read out of its state (not
    the whole state, which two bots may have thousands of)."""
    rows = Seat.objects.filter(
        member=member,
        match__status=Match.Status.FINISHED,
        match__variant__in=TWO_SEATS,
        match__seats__member=opponent,
    )
    if not private:
        rows = rows.filter(match__private=False)
    record = HeadToHead()
    for seat, winners in rows.values_list("seat", "match__state__winners"):
        if seat not in winners:
            record.lost += 1
        elif 1 - seat in winners:
            record.drawn += 1
        else:
            record.won += 1
    return record


def member_recent_matches(member, limit: int = 20) -> list[Match]:
    """A member's latest public matches that started, newest first, seats prefetched."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("member").order_by("seat"))
    return list(
        Match.objects.filter(seats__member=member, private=False)
        .exclude(status=Match.Status.WAITING)
        .prefetch_related(seats)
        .order_by("-created_at", "-pk")[:limit]
    )


def match_record_text(match: Match) -> str:
    """The match as a text record anyone can replay (docs/record.md,
    ``python -m games.engine replay FILE``)."""
    seats = list(match.seats.select_related("member").order_by("seat"))
    tags = [("Id", str(match.pk)), ("Rated", "yes" if match.rated else "no")]
    if match.practice:
        tags.append(("Practice", "yes"))
    record = record_of(
        MatchState.from_dict(match.state),
        variant=match.variant,
        players=[seat.display_name for seat in seats],
        site="VOG Filler",
        date=(match.started_at or match.created_at).date().isoformat(),
        clock=match.clock or "none",
        tags=tags,
    )
    return record_to_text(record)


def _letters(seats) -> list[str]:
    return [SEAT_LETTERS[s] for s in seats]


def match_analysis(match_id: int) -> dict[str, Any] | None:
    """``analysis`` of the API and of the replay (SPEC §13): ``None`` when never asked,
    its progress while it runs, the review once done."""
    return analysis_public(Analysis.objects.filter(match_id=match_id).first())


def analysis_public(found: Analysis | None) -> dict[str, Any] | None:
    if found is None:
        return None
    if found.status != Analysis.Status.DONE:
        return {"status": found.status, "done": found.done, "total": found.total}
    return {"status": "done", **found.result}


def _analysis_of(match: Match) -> Analysis | None:
    """The match's analysis (joined by ``api_match``), if it was ever asked for."""
    try:
        return match.analysis
    except Analysis.DoesNotExist:
        return None


def match_etag(match: Match) -> str:
    """What a copy of a match's record is revalidated against: its version, its rating
    changes (annulling another match can change them) and how far its analysis is."""
    changes = match_rating_changes(match.pk) if match.rated else []
    analysis = _analysis_of(match)
    progress = f"{analysis.status}:{analysis.done}" if analysis else ""
    fingerprint = f"{match.version}:{progress}:" + ",".join(
        f"{c['member_id']}:{c['rating_after']:.4f}" for c in changes
    )
    return hashlib.sha256(fingerprint.encode()).hexdigest()[:20]


def match_record(match: Match) -> dict[str, Any]:
    """A match as the API gives it (``api_match`` prefetched its seats): settings, seats,
    every game's start, moves and end, the result, the rating changes and the
    analysis."""
    state = MatchState.from_dict(match.state)
    seats = list(match.seats.all())
    changes = match_rating_changes(match.pk) if match.rated else []
    member_seat = {seat.member_id: seat.letter for seat in seats if seat.member_id}
    clock = None
    if match.clock:
        bank, increment = parse_preset(match.clock)
        clock = {"preset": match.clock, "bank_ms": bank, "increment_ms": increment}
    result = None
    if state.reason is not None:
        result = {"winners": _letters(state.winners), "reason": state.reason}
    berserks = Clock.from_dict(match.clock_state).berserks if match.clock_state else frozenset()
    return {
        "id": match.pk,
        "variant": match.variant,
        "rated": match.rated,
        "arena": match.arena_id,
        "practice": match.practice,
        "status": match.status,
        "format": match.format,
        "clock": clock,
        "created": match.created_at.isoformat(),
        "started": match.started_at.isoformat() if match.started_at else None,
        "finished": match.finished_at.isoformat() if match.finished_at else None,
        "seats": [
            {
                "seat": seat.letter,
                "username": seat.member.username if seat.member else None,
                "title": "BOT" if seat.member and seat.member.is_bot else None,
                "bot": seat.bot_level,
                "rating": seat.rating,
                "berserk": seat.seat in berserks,
            }
            for seat in seats
        ],
        "games": [
            {
                "number": game.number,
                "start": game.start.to_text(),
                "moves": list(game.moves),
                "final": game.position.to_text(),
                "scores": list(game.position.scores),
                "winners": _letters(game.winners),
                "reason": game.reason,
            }
            for game in state.games
        ],
        "points": list(state.points),
        "totals": list(state.totals),
        "result": result,
        "rating_changes": [
            {
                "seat": member_seat.get(change["member_id"]),
                "username": change["username"],
                "scale": change["scale"],
                "before": round(change["rating_before"], 1),
                "after": round(change["rating_after"], 1),
                "rd_after": round(change["rd_after"], 1),
                "change": change["change"],
            }
            for change in changes
        ],
        "analysis": analysis_public(_analysis_of(match)),
    }


def match_summary(match: Match) -> dict[str, Any]:
    """A line of a member's recent matches (``member_recent_matches`` prefetched them)."""
    finished = match.status == Match.Status.FINISHED
    return {
        "id": match.pk,
        "variant": match.variant,
        "rated": match.rated,
        "status": match.status,
        "finished": match.finished_at.isoformat() if match.finished_at else None,
        "players": [s.member.username if s.member else None for s in match.seats.all()],
        "result": {
            "winners": _letters(match.state.get("winners", [])),  # MatchState.to_dict's
            "reason": match.result_reason,
        }
        if finished
        else None,
    }


# --- for the moderators' reports (SPEC §14) ----------------------------------------------


def member_finished_a_match(member_id: int) -> bool:
    """Whether the member held a seat in a finished match (practice tables do not count):
    the test a member passes before they may report another."""
    return Match.objects.filter(
        seats__member_id=member_id, status=Match.Status.FINISHED, practice=False
    ).exists()


def chat_line_seen(
    message_id: int,
    *,
    match_id: int | None,
    author_id: int,
    reader_id: int,
    token: str = "",
) -> bool:
    """Whether chat line ``message_id`` was written at table ``match_id`` by the member
    ``author_id``, and the member ``reader_id`` could see it there: a public table; a
    private one they had a seat at, or whose ``token`` they give (whoever holds the
    token may watch); a spectators-only line not when they played there (SPEC §7: players
    never see those). One query: a line that exists and one the reader cannot see are one
    answer."""
    seated = Seat.objects.filter(match_id=OuterRef("match_id"), member_id=reader_id)
    visible = Q(match__private=False) | Exists(seated)
    if token:
        visible |= Q(match__token=token)
    return (
        ChatMessage.objects.filter(pk=message_id, match_id=match_id, author_id=author_id)
        .filter(visible)
        .exclude(Q(audience=ChatMessage.Audience.SPECTATORS) & Exists(seated))
        .exists()
    )


def chat_around(match_id: int, message_id: int, each_side: int = 5) -> list[ChatMessage]:
    """The chat of a table around one line, oldest first: up to ``each_side`` lines before
    it, the line, up to ``each_side`` after. By id, the order lines were written in, so a
    line a moderator deleted still has its surroundings. 2 queries."""
    lines = ChatMessage.objects.filter(match_id=match_id).select_related("author")
    before = lines.filter(pk__lt=message_id).order_by("-pk")[:each_side]
    after = lines.filter(pk__gte=message_id).order_by("pk")[: each_side + 1]
    return [*reversed(before), *after]


def member_latest_matches(member_id: int, limit: int = 10) -> list[Match]:
    """The member's latest tables that started, private and practice ones too, newest
    first, seats prefetched: what a moderator looks at beside a report."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("member").order_by("seat"))
    return list(
        Match.objects.filter(seats__member_id=member_id)
        .exclude(status=Match.Status.WAITING)
        .prefetch_related(seats)
        .order_by("-created_at", "-pk")[:limit]
    )
