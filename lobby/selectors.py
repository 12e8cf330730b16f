"""Reads of the lobby and the members' pages, each a fixed number of queries whatever the
number of tables and matches (tests count them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import Exists, OuterRef, Prefetch, Q

from accounts.models import User
from games.access import rated_pairs_at_limit, rated_pairs_full
from games.engine import VARIANTS
from games.engine.match import MatchState
from games.models import Challenge, Match, Presence, Seat
from games.selectors import halves, live_matches, match_outcome
from ratings.models import Scale
from ratings.selectors import member_changes, ratings_by_scale, top_players_by_scale

MATCHES_PER_PAGE = 20
ONLINE_NAMES = 60


@dataclass
class WaitingTable:
    match: Match
    seats: list[Seat]
    needed: int
    #: the seated members' ratings on the variant's scale (empty for unrated variants)
    ratings: dict
    #: rated, but it would start unrated if the member looking joined (``unrated_for``)
    unrated_for_viewer: bool = False

    @property
    def free(self) -> int:
        return self.needed - len(self.seats)

    @property
    def host_rating(self):
        return self.ratings.get(self.match.created_by_id)

    def seated(self, user) -> bool:
        return user.is_authenticated and any(s.member_id == user.pk for s in self.seats)


def _seats() -> Prefetch:
    return Prefetch(
        "seats", queryset=Seat.objects.select_related("member").order_by("joined_at", "seat")
    )


def waiting_tables(limit: int | None = 100, *, viewer=None) -> list[WaitingTable]:
    """Public tables waiting for players, oldest first, with the seated members' ratings.
    For a ``viewer`` (a member), not the tables where someone sits whom they blocked or
    who blocked them: joining one is refused (SPEC §14); their own stay. 3 queries."""
    waiting = Match.objects.filter(status=Match.Status.WAITING, private=False)
    if viewer is not None and viewer.is_authenticated:
        seated = Seat.objects.filter(match=OuterRef("pk"))
        mine = Exists(seated.filter(member=viewer))
        apart = Exists(seated.filter(member__blocked_by__blocker=viewer)) | Exists(
            seated.filter(member__blocks__blocked=viewer)
        )
        waiting = waiting.filter(mine | ~apart)
    matches = list(
        waiting.select_related("created_by")
        .prefetch_related(_seats())
        .order_by("created_at", "pk")[:limit]
    )
    members = {s.member_id for m in matches for s in m.seats.all() if s.member_id}
    ratings = ratings_by_scale(sorted(members)) if members else {}
    tables = []
    for m in matches:
        scale = VARIANTS[m.variant].rated_scale
        seats = list(m.seats.all())
        tables.append(
            WaitingTable(
                match=m,
                seats=seats,
                needed=VARIANTS[m.variant].seats,
                ratings={
                    s.member_id: ratings[(s.member_id, scale)]
                    for s in seats
                    if (s.member_id, scale) in ratings
                },
            )
        )
    return tables


def online_members(now: datetime) -> tuple[int, list[str]]:
    """How many members have a page open now, and some of their names. 2 queries."""
    horizon = now - timedelta(seconds=settings.PRESENCE_EXPIRY_SECONDS)
    fresh = Presence.objects.filter(closed=False, member__isnull=False, last_seen__gt=horizon)
    count = fresh.values("member_id").distinct().count()
    names = list(
        User.objects.filter(pk__in=fresh.values("member_id"))
        .order_by("username")
        .values_list("username", flat=True)[:ONLINE_NAMES]
    )
    return count, names


@dataclass
class Followed:
    """A member the viewer follows, online now, and the match they play (None if none):
    ``watch`` is its table for a public match, None for a private table or practice."""

    username: str
    match: Match | None
    watch: Match | None


def followed_online(viewer, now: datetime) -> list[Followed]:
    """The members the viewer follows who are online now (SPEC §14), each with the match
    they are playing. 2 queries."""
    if not viewer.is_authenticated:
        return []
    horizon = now - timedelta(seconds=settings.PRESENCE_EXPIRY_SECONDS)
    fresh = Presence.objects.filter(closed=False, last_seen__gt=horizon).values("member_id")
    members = list(
        User.objects.filter(followers__follower=viewer, is_active=True)
        .filter(Q(pk__in=fresh) | Q(last_seen__gt=horizon))
        .order_by("username")
        .only("pk", "username")
    )
    playing = {
        seat.member_id: seat.match
        for seat in Seat.objects.filter(
            member__in=members,
            match__status__in=(Match.Status.PLAYING, Match.Status.BETWEEN_GAMES),
        ).select_related("match")
    }
    rows = []
    for member in members:
        match = playing.get(member.pk)
        public = match is not None and not match.private and not match.practice
        rows.append(Followed(member.username, match, match if public else None))
    return rows


def member_online(member: User, now: datetime) -> bool:
    """Whether a member is on the site now: a socket of theirs open and heard within the
    presence window, or their last socket closed within it (a member going from page to
    page is between two sockets). 1 query at most."""
    horizon = now - timedelta(seconds=settings.PRESENCE_EXPIRY_SECONDS)
    if member.last_seen is not None and member.last_seen > horizon:
        return True
    return Presence.objects.filter(member=member, closed=False, last_seen__gt=horizon).exists()


@dataclass
class GameInProgress:
    """A match the member sits at that is being played, as their lobby lists it."""

    match: Match
    opponents: list[Seat]
    seats: list[Seat]


def games_in_progress(member) -> list[GameInProgress]:
    """The matches the member sits at that are being played or between games (public,
    private and practice alike: they are the member's own), newest first. 2 queries."""
    if not member.is_authenticated:
        return []
    matches = (
        Match.objects.filter(
            seats__member=member,
            status__in=(Match.Status.PLAYING, Match.Status.BETWEEN_GAMES),
        )
        .defer("board", "state")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("member").order_by("seat"))
        )
        .order_by("-started_at", "-pk")
    )
    rows = []
    for match in matches:
        seats = list(match.seats.all())
        opponents = [seat for seat in seats if seat.member_id != member.pk]
        rows.append(GameInProgress(match, opponents, seats))
    return rows


def challenges_of(member: User, now: datetime) -> tuple[list[Challenge], list[Challenge]]:
    """The member's challenges waiting for an answer: received, sent. 2 queries."""
    pending = Challenge.objects.filter(
        status=Challenge.Status.PENDING, expires_at__gt=now
    ).select_related("challenger", "challenged")
    received = list(pending.filter(challenged=member).order_by("created_at"))
    sent = list(pending.filter(challenger=member).order_by("created_at"))
    return received, sent


def challenge_waiting(challenger: User, challenged: User, now: datetime) -> Challenge | None:
    """The challenge of one member's to another that waits for an answer (at most one)."""
    return Challenge.objects.filter(
        challenger=challenger,
        challenged=challenged,
        status=Challenge.Status.PENDING,
        expires_at__gt=now,
    ).first()


def unrated_for(
    viewer, tables: list[WaitingTable], received: list[Challenge], now: datetime
) -> set[int]:
    """Which rated tables and challenges the lobby lists would start unrated if the member
    looking joined or accepted: the decision ``match_create`` makes when they start
    (``games.access.rated_pairs_full``: a pair of them has played its rated matches of
    the day). Marks those tables (``unrated_for_viewer``) and returns those challenges'
    ids. One query, none for a visitor or when nothing rated is listed."""
    if not viewer.is_authenticated:
        return set()
    tables = [t for t in tables if t.match.rated and not t.seated(viewer)]
    received = [c for c in received if c.rated]
    if not tables and not received:
        return set()
    people = {viewer.pk, *(c.challenger_id for c in received)}
    people.update(s.member_id for t in tables for s in t.seats if s.member_id)
    at_limit = rated_pairs_at_limit(people, now=now)
    for table in tables:
        members = [viewer.pk, *(s.member_id for s in table.seats)]
        table.unrated_for_viewer = rated_pairs_full(members, now=now, at_limit=at_limit)
    return {
        c.pk
        for c in received
        if rated_pairs_full([viewer.pk, c.challenger_id], now=now, at_limit=at_limit)
    }


def lobby(viewer, now: datetime) -> dict:
    """Everything the lobby page lists, as the member looking sees it."""
    received, sent = challenges_of(viewer, now) if viewer.is_authenticated else ([], [])
    count, names = online_members(now)
    top = top_players_by_scale(5)
    waiting = waiting_tables(viewer=viewer)
    return {
        "waiting": waiting,
        "unrated_challenges": unrated_for(viewer, waiting, received, now),
        "live": live_matches(),
        "online_count": count,
        "online_names": names,
        "top": top,
        "top_has_players": any(top.values()),
        "received": received,
        "sent": sent,
        "followed": followed_online(viewer, now),
        "in_progress": games_in_progress(viewer),
    }


@dataclass
class MatchRow:
    """One of a member's matches as their page shows it, from their side."""

    match: Match
    opponents: list[Seat]  # the other side's seats (computers' too: ``seat_link``)
    seats: list[Seat]
    outcome: str | None  # "won", "lost", "drawn", or None while not finished
    points: str
    totals: str
    rating_change: int | None


def member_matches(
    member: User, page_number, *, viewer=None, opponent: User | None = None
) -> tuple[Page, list[MatchRow]]:
    """The member's matches, newest first, a page at a time (private ones only for the
    member themselves); with ``opponent``, only those the two played together. 4 queries."""
    matches = Match.objects.filter(seats__member=member).exclude(status=Match.Status.WAITING)
    if opponent is not None:
        matches = matches.filter(seats__member=opponent)
    if viewer is None or viewer.pk != member.pk:
        matches = matches.exclude(private=True)
    matches = matches.prefetch_related(_seats()).order_by("-created_at", "-pk")
    page = Paginator(matches, MATCHES_PER_PAGE).get_page(page_number)
    changes = member_changes(member.pk, [m.pk for m in page.object_list])
    rows = []
    for match in page.object_list:
        seats = list(match.seats.all())
        mine = next(s.seat for s in seats if s.member_id == member.pk)
        state = MatchState.from_dict(match.state)
        sides = state.board.sides
        my_side = next(side for side in sides if mine in side)
        opponents = [s for s in seats if s.seat not in my_side]
        outcome = match_outcome(state, mine) if match.status == Match.Status.FINISHED else None
        others = [s for s in range(state.seats) if s not in my_side]
        best = max(others, key=lambda s: (state.points[s], state.totals[s])) if others else mine
        rows.append(
            MatchRow(
                match=match,
                opponents=opponents,
                seats=seats,
                outcome=outcome,
                points=f"{halves(state.points[mine])}–{halves(state.points[best])}",
                totals=f"{state.totals[mine]}–{state.totals[best]}",
                rating_change=changes.get(match.pk),
            )
        )
    return page, rows


def waiting_count(member: User) -> int:
    """Waiting tables the member sits at and challenges they sent that wait."""
    tables = Seat.objects.filter(member=member, match__status=Match.Status.WAITING).count()
    return (
        tables
        + Challenge.objects.filter(challenger=member, status=Challenge.Status.PENDING).count()
    )


def members_waiting(member_ids: list[int]) -> set[int]:
    """Which of these members host or sit at a waiting table (a host sits in seat A until
    the table goes, as ``waiting_count`` counts), or sent a challenge that waits: one
    statement, so a match's start costs one read when nothing of theirs waits."""
    # Unordered: SQLite takes no ORDER BY inside the parts of a UNION.
    seated = (
        Seat.objects.filter(member_id__in=member_ids, match__status=Match.Status.WAITING)
        .order_by()
        .values_list("member_id", flat=True)
    )
    challenging = (
        Challenge.objects.filter(challenger_id__in=member_ids, status=Challenge.Status.PENDING)
        .order_by()
        .values_list("challenger_id", flat=True)
    )
    return set(seated.union(challenging))


# --- bot accounts (SPEC §15) ---------------------------------------------------------------

BOTS_PER_PAGE = 50
#: the scales of two-player variants: what a member may challenge a bot to and be rated on
BOT_SCALES = [v.rated_scale for v in VARIANTS.values() if v.rated_scale and v.seats == 2]


@dataclass
class BotLine:
    """A bot account as the Bots page lists it: online when one of its program's streams
    is open now, and its rating on each two-player scale, as (the scale's name, the rating
    or None before its first match)."""

    member: User
    online: bool
    ratings: list


def bots_listed(page_number, now: datetime) -> tuple[Page, list[BotLine]]:
    """The bot accounts, those online first, then by name, a page at a time. 4 queries."""
    horizon = now - timedelta(seconds=settings.PRESENCE_EXPIRY_SECONDS)
    streaming = Presence.objects.filter(
        member=OuterRef("pk"), api=True, closed=False, last_seen__gt=horizon
    )
    banned = Q(banned_at__isnull=False) & (Q(banned_until=None) | Q(banned_until__gt=now))
    bots = (
        User.objects.filter(is_bot=True, is_active=True)
        .exclude(banned)
        .annotate(online=Exists(streaming))
        .order_by("-online", "username")
    )
    page = Paginator(bots, BOTS_PER_PAGE).get_page(page_number)
    members = list(page.object_list)
    ratings = ratings_by_scale([m.pk for m in members]) if members else {}
    lines = [
        BotLine(
            member=member,
            online=member.online,
            ratings=[(Scale(scale).label, ratings.get((member.pk, scale))) for scale in BOT_SCALES],
        )
        for member in members
    ]
    return page, lines


@dataclass(frozen=True)
class BotEvents:
    """What a bot's event stream compares with what it has told (SPEC §15): its matches
    in play, the challenges to it waiting for an answer (as the stream shows them), and
    how the challenges it sent ended: declined, cancelled or expired (by id; accepted ones
    start a match, told as such)."""

    in_play: frozenset[int]
    received: dict[int, dict]
    sent_ended: dict[int, str]


def bot_events(member_id: int, now: datetime, *, since: datetime | None = None) -> BotEvents:
    """The bot's matches in play, the challenges to it still open, and the challenges it
    sent that ended at ``since`` or later (however soon after they were sent: the stream
    need not have seen them open). 2 queries."""
    in_play = Match.objects.filter(
        seats__member_id=member_id,
        status__in=[Match.Status.PLAYING, Match.Status.BETWEEN_GAMES],
    ).values_list("pk", flat=True)
    open_to_it = Q(challenged_id=member_id, status=Challenge.Status.PENDING, expires_at__gt=now)
    wanted = open_to_it
    if since is not None:
        answered = Q(
            status__in=[Challenge.Status.DECLINED, Challenge.Status.CANCELLED],
            answered_at__gte=since,
        )
        lapsed = Q(
            status__in=[Challenge.Status.EXPIRED, Challenge.Status.PENDING],
            expires_at__gte=since,
            expires_at__lte=now,
        )
        wanted |= Q(challenger_id=member_id) & (answered | lapsed)
    challenges = (
        Challenge.objects.filter(wanted)
        .select_related("challenger", "challenged")
        .order_by("created_at", "pk")
    )
    received, sent_ended = {}, {}
    for challenge in challenges:
        if challenge.challenged_id == member_id and challenge.status == Challenge.Status.PENDING:
            received[challenge.pk] = challenge_public(challenge)
        else:
            sent_ended[challenge.pk] = challenge.status
    return BotEvents(frozenset(in_play), received, sent_ended)


def challenge_statuses(ids) -> dict[int, str]:
    """The status of each of these challenges (one that no longer exists is left out).
    1 query."""
    return dict(Challenge.objects.filter(pk__in=list(ids)).values_list("pk", "status"))


def challenge_public(challenge: Challenge) -> dict:
    """A challenge as the API and the bot's event stream show it."""
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger.username,
        "challenged": challenge.challenged.username,
        "variant": challenge.variant,
        "clock": challenge.clock or None,
        "format": challenge.format,
        "rated": challenge.rated,
        "expires_at": int(challenge.expires_at.timestamp() * 1000),
        # A rematch offered at this finished match: accepting it starts the rematch.
        "rematch_of": challenge.rematch_of_id,
    }
