"""A match at a table, its seats, games, moves and chat.

The engine's :class:`~games.engine.match.MatchState` is stored whole in ``Match.state``
(JSON); ``Game`` and ``Move`` rows are the readable record kept next to it for the move
list, the API and admin. Every change goes through ``games.services``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine.match import MatchState
from games.topics import variant_choices

SEAT_LETTERS = "ABCD"


class Reason(models.TextChoices):
    """Why a game or a match ended (the engine's codes), as moderators read them."""

    DECIDED = "decided", _("decided")
    FILLED = "filled", _("the board is full")
    LAST_SIDE = "last_side", _("the others are out")
    STALLED = "stalled", _("20 moves without a capture")
    POINTS = "points", _("on points")
    TOTALS = "totals", _("1–1, on total score")
    DRAWN = "drawn", _("drawn")
    RESIGNED = "resigned", _("by resignation")
    FLAGGED = "flagged", _("on time")
    ABANDONED = "abandoned", _("by abandonment")
    ABORTED = "aborted", _("aborted")


def _token() -> str:
    return secrets.token_urlsafe(12)


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for players")
        PLAYING = "playing", _("playing")
        BETWEEN_GAMES = "between_games", _("between games")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    class Format(models.TextChoices):
        MATCH = "match", _("match of two games")
        SINGLE = "single", _("single game")

    class House(models.TextChoices):
        """What the site keeps going by itself, with nobody's action (``games.services.house``,
        ``lobby.services.house``)."""

        NONE = "", "—"
        #: VOG TV's match of two computers when no member's match is on: never deserted
        TV = "tv", _("VOG TV")
        #: the demo's table hosted by the computer, waiting for a member (``make run``)
        TABLE = "table", _("a table the computer hosts")

    variant = models.CharField(_("variant"), max_length=16, choices=variant_choices())
    rated = models.BooleanField(_("rated"), default=False)
    format = models.CharField(_("format"), max_length=8, choices=Format.choices)
    clock = models.CharField(
        _("clock"), max_length=8, blank=True, help_text=_("minutes+seconds, empty for no clock")
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    seed = models.BigIntegerField(_("seed"))
    board = models.TextField(_("board"), help_text=_("game 1's start position (FPN)"))
    state = models.JSONField(_("state"), default=dict, blank=True)
    clock_state = models.JSONField(_("clock state"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    #: when the seat to move got the turn (abort, idle no-clock tables)
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    #: the next moment something happens by itself (a flag, an abort, game 2): the sweep's index
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    #: when the ``match_tick`` task that answers for this match comes; not before
    #: ``deadline``'s moment, so a move that moves the deadline later queues no task: that
    #: task, finding the deadline later, queues the next one (``services.match_tick``)
    tick_due = models.DateTimeField(_("clock check due"), null=True, blank=True)
    current_game = models.ForeignKey(
        "Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    token = models.CharField(_("token"), max_length=32, unique=True, default=_token)
    #: reached only by its token (``/t/<token>/``), never listed, never rated
    private = models.BooleanField(_("private"), default=False)
    #: a member against the computer, with hints and takebacks (SPEC §2 Practice); unrated
    practice = models.BooleanField(_("practice"), default=False)
    result_reason = models.CharField(_("result"), max_length=16, blank=True, choices=Reason.choices)
    #: sockets open by non-players (kept by ``services.presence_refresh``)
    spectators = models.PositiveIntegerField(_("spectators"), default=0)
    # The arena that paired the two members (``lobby.models.Arena``; an id, since the
    # lobby sits above games), or None.
    arena_id = models.PositiveIntegerField(_("arena"), null=True, blank=True, db_index=True)
    #: kept by the site itself (VOG TV's computers, the demo's computer-hosted table)
    house = models.CharField(
        _("kept by the site"), max_length=8, blank=True, default="", choices=House.choices
    )
    rematch = models.OneToOneField(
        "self",
        verbose_name=_("rematch"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_of",
    )
    rematch_offered_at = models.DateTimeField(null=True, blank=True)
    rematch_accepted = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The service's ``now`` (a match that starts as it is made has ``started_at`` the same).
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        permissions = [("abort_match", _("Can abort a stuck match"))]
        constraints = [
            # Never two matches on VOG TV at once, however many beats and pages ask.
            models.UniqueConstraint(
                fields=["house"],
                condition=models.Q(house="tv", status__in=["waiting", "playing", "between_games"]),
                name="one_tv_match_in_play",
            ),
            # The computer hosts one waiting table at a time.
            models.UniqueConstraint(
                fields=["house"],
                condition=models.Q(house="table", status="waiting"),
                name="one_house_table_waiting",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.variant}"

    def engine_state(self) -> MatchState:
        """The engine's state of the match as stored (``state``), parsed."""
        return MatchState.from_dict(self.state)


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    team = models.PositiveSmallIntegerField(_("team"), default=0)
    #: a seat the computer plays, at this level (1-4); no member then
    bot_level = models.PositiveSmallIntegerField(_("computer level"), null=True, blank=True)
    rating = models.FloatField(_("rating"), null=True, blank=True)
    #: a present socket now (kept by ``services.presence_refresh``)
    connected = models.BooleanField(_("connected"), default=False)
    joined_at = models.DateTimeField(_("joined"), null=True, blank=True)
    #: since when the seat has had no present socket (abandonment)
    absent_since = models.DateTimeField(_("absent since"), null=True, blank=True)
    #: when the member was first shown the table (its page loaded for them, or a socket
    #: of theirs opened there): an arena withdraws only a member who was told of it
    shown_at = models.DateTimeField(_("shown the table"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="one_member_per_seat"),
            models.UniqueConstraint(
                fields=["match", "member"],
                condition=models.Q(member__isnull=False),
                name="one_seat_per_member",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.letter} {self.display_name}"

    @property
    def letter(self) -> str:
        return SEAT_LETTERS[self.seat]

    @property
    def display_name(self) -> str:
        if self.bot_level:
            return str(_("Computer (level %(level)d)") % {"level": self.bot_level})
        return self.member.username if self.member_id else str(_("deleted member"))


class Game(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    start = models.TextField(_("start position"))
    final = models.TextField(_("final position"), blank=True)
    first_seat = models.PositiveSmallIntegerField(_("first seat"))
    corners = models.JSONField(_("corners"), default=list)
    scores = models.JSONField(_("scores"), default=list)
    winners = models.JSONField(_("winners"), default=list)
    reason = models.CharField(_("result"), max_length=16, blank=True, choices=Reason.choices)
    started_at = models.DateTimeField(_("started"))
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="one_game_number")]

    def __str__(self) -> str:
        return f"#{self.match_id} game {self.number}"


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveSmallIntegerField(_("ply"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    color = models.PositiveSmallIntegerField(
        _("colour"), null=True, blank=True, help_text=_("empty for the Vinco swap")
    )
    gained = models.PositiveSmallIntegerField(_("cells gained"), default=0)
    clock_ms = models.IntegerField(_("clock left (ms)"), null=True, blank=True)
    played_at = models.DateTimeField(_("time"))

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "ply"]
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="one_move_per_ply")]

    def __str__(self) -> str:
        return f"{self.ply}. {SEAT_LETTERS[self.seat]} {self.notation}"

    @property
    def notation(self) -> str:
        return "swap" if self.color is None else str(self.color)


class ChatMessage(models.Model):
    class Audience(models.TextChoices):
        EVERYONE = "all", _("everyone at the table")
        SPECTATORS = "spectators", _("spectators only")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_messages",
    )
    text = models.CharField(_("text"), max_length=500)
    audience = models.CharField(
        _("audience"), max_length=16, choices=Audience.choices, default=Audience.EVERYONE
    )
    created_at = models.DateTimeField(_("time"), db_index=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.text[:60]


class Challenge(models.Model):
    """A member asks another to play a table with these settings (SPEC §10)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("challenger"),
        on_delete=models.CASCADE,
        related_name="challenges_sent",
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("challenged member"),
        on_delete=models.CASCADE,
        related_name="challenges_received",
    )
    variant = models.CharField(_("variant"), max_length=16, choices=variant_choices())
    clock = models.CharField(_("clock"), max_length=8, blank=True)
    format = models.CharField(_("format"), max_length=8, choices=Match.Format.choices)
    rated = models.BooleanField(_("rated"), default=False)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    created_at = models.DateTimeField(_("sent"))
    expires_at = models.DateTimeField(_("expires"), db_index=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    match = models.ForeignKey(
        Match,
        verbose_name=_("match"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # A rematch offered at a finished match to a bot account reaches its program as a
    # challenge (SPEC §15): accepting it accepts the rematch.
    rematch_of = models.ForeignKey(
        Match,
        verbose_name=_("rematch of"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.challenger_id} → {self.challenged_id} {self.variant}"


class Presence(models.Model):
    """One open socket (or a program's API stream), known by its channel name. It counts
    while it has sent something in the last ``PRESENCE_EXPIRY_SECONDS``, whether or not
    the process holding it lives."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="presences",
    )
    #: the table the socket watches or plays at; empty for a socket of the lobby
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="presences"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: a visitor's address (config/edge.py): their sockets are counted by it
    client = models.GenericIPAddressField(null=True, blank=True)
    opened_at = models.DateTimeField()
    last_seen = models.DateTimeField(db_index=True)
    #: closed cleanly; kept until the next refresh reads when the seat was left
    closed = models.BooleanField(default=False)
    #: a program's stream of the API (SPEC §15), not a page's socket: only these make a
    #: bot account's seat present
    api = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("open socket")
        verbose_name_plural = _("open sockets")
        indexes = [models.Index(fields=["match", "last_seen"], name="presence_match_seen")]

    def __str__(self) -> str:
        return self.channel_name


class Analysis(models.Model):
    """The computer's review of a finished match (SPEC §13), worked out on the ``analysis``
    queue (``games.services.analysis``): per move the best colour and the mover's win
    chances before and after, per seat the accuracy and the judged moves."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")
        BUSY = "busy", _("not queued: the computer was busy")

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.CASCADE, related_name="analysis"
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    done = models.PositiveIntegerField(_("moves analysed"), default=0)
    total = models.PositiveIntegerField(_("moves"), default=0)
    #: ``{"games": [[entry per move]], "seats": [summary per seat]}`` once done
    result = models.JSONField(_("result"), null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(_("requested"))
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")

    def __str__(self) -> str:
        return f"#{self.match_id} {self.status}"


class WorkUnderWay(models.Model):
    """Work that must not run twice at once (the computer's move at a table, a hint, a
    member's tried colour; ``games.services.underway``): one row per ``name``, taken by
    inserting it (the primary key refuses a second) and given back by deleting it. A row
    past ``expires_at`` was left by a worker that died: it may be taken over."""

    name = models.CharField(_("name"), primary_key=True, max_length=200)
    #: what the work is on (a ply, a version, a tried position's key)
    value = models.CharField(_("value"), max_length=200, blank=True)
    expires_at = models.DateTimeField(_("expires"))

    class Meta:
        verbose_name = _("work under way")
        verbose_name_plural = _("work under way")

    def __str__(self) -> str:
        return self.name
