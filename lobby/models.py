"""Arenas (SPEC §12): tournaments of a fixed duration in which the entrants play one rated
match after another. Tables and challenges are matches waiting for players
(``games.models.Match``); only arenas have tables of their own here."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine import VARIANTS
from games.engine.clock import PRESETS
from games.topics import variant_choices

ARENA_VARIANTS = [key for key, v in VARIANTS.items() if v.rated_scale and v.seats == 2]
SHORTEST_MINUTES, LONGEST_MINUTES = 20, 180
#: what an arena (or a schedule) without a name of its own is called, in the reader's
#: language: by its variant and clock
ARENA_TITLES = {
    "fast": _("Fast %(clock)s arena"),
    "classic": _("Classic %(clock)s arena"),
    "hex": _("Hexagons %(clock)s arena"),
}


def _variant_field() -> models.CharField:
    return models.CharField(_("variant"), max_length=16, choices=variant_choices(ARENA_VARIANTS))


def _clock_field() -> models.CharField:
    return models.CharField(_("clock"), max_length=8, choices=[(p, p) for p in PRESETS])


def _name_field() -> models.CharField:
    return models.CharField(
        _("name"),
        max_length=80,
        blank=True,
        help_text=_(
            "Leave it empty to call it by its variant and clock in each reader's language."
        ),
    )


class _Titled:
    """What an arena or a schedule is called: the name a moderator gave, else its
    variant's and clock's in the reader's language (``ARENA_TITLES``)."""

    name: str
    variant: str
    clock: str

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        return self.name or ARENA_TITLES[self.variant] % {"clock": self.clock}


def _minutes_field() -> models.PositiveSmallIntegerField:
    return models.PositiveSmallIntegerField(
        _("minutes"),
        validators=[MinValueValidator(SHORTEST_MINUTES), MaxValueValidator(LONGEST_MINUTES)],
        help_text=_("How long the arena runs, 20 to 180 minutes."),
    )


class ArenaSchedule(_Titled, models.Model):
    """Arenas that come back: one every ``every_hours`` from ``first_start`` (UTC), each
    created a day ahead by the beat (``lobby.tasks.arenas_schedule``)."""

    name = _name_field()
    variant = _variant_field()
    clock = _clock_field()
    minutes = _minutes_field()
    first_start = models.DateTimeField(
        _("first start (UTC)"), help_text=_("The start of the first arena of the series.")
    )
    every_hours = models.PositiveSmallIntegerField(
        _("every (hours)"),
        default=24,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 7)],
    )
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("arena schedule")
        verbose_name_plural = _("arena schedules")

    def starts_between(self, start: datetime, end: datetime) -> list[datetime]:
        """The starts of the series in [start, end)."""
        step = timedelta(hours=self.every_hours)
        if end <= self.first_start:
            return []
        behind = max(0, -(-(start - self.first_start) // step))  # whole steps, rounded up
        at = self.first_start + behind * step
        starts = []
        while at < end:
            starts.append(at)
            at += step
        return starts


class Arena(_Titled, models.Model):
    class Status(models.TextChoices):
        UPCOMING = "upcoming", pgettext_lazy("arena status", "upcoming")
        RUNNING = "running", pgettext_lazy("arena status", "running")
        FINISHED = "finished", pgettext_lazy("arena status", "finished")
        CANCELLED = "cancelled", pgettext_lazy("arena status", "cancelled")

    name = _name_field()
    variant = _variant_field()
    clock = _clock_field()
    starts_at = models.DateTimeField(_("starts"), db_index=True)
    minutes = _minutes_field()
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.UPCOMING, db_index=True
    )
    cancel_reason = models.CharField(_("reason for cancelling"), max_length=300, blank=True)
    schedule = models.ForeignKey(
        ArenaSchedule,
        verbose_name=_("schedule"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="arenas",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Increases with every change the arena's pages show (``{"type": "arena"}``).
    version = models.PositiveIntegerField(_("version"), default=0)
    # The last pairing round: the next comes ``ARENA_PAIRING_SECONDS`` later.
    paired_at = models.DateTimeField(_("last paired"), null=True, blank=True)
    # The top three once it has finished ([{"username", "points"}]), kept with the table.
    podium = models.JSONField(_("podium"), default=list, blank=True)

    class Meta:
        verbose_name = _("arena")
        verbose_name_plural = _("arenas")
        ordering = ["-starts_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["schedule", "starts_at"], name="arena_once_per_scheduled_start"
            )
        ]

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)


class ArenaEntry(models.Model):
    """A member in an arena: from their first join; ``active`` until they withdraw (they
    keep their points and may join again)."""

    arena = models.ForeignKey(
        Arena, verbose_name=_("arena"), on_delete=models.CASCADE, related_name="entries"
    )
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        on_delete=models.CASCADE,
        related_name="arena_entries",
    )
    joined_at = models.DateTimeField(_("joined"))
    active = models.BooleanField(_("taking part"), default=True)
    withdrawn_at = models.DateTimeField(_("withdrew"), null=True, blank=True)
    # The member's place in the final table, kept once the arena has finished.
    rank = models.PositiveIntegerField(_("place"), null=True, blank=True)

    class Meta:
        verbose_name = _("arena entrant")
        verbose_name_plural = _("arena entrants")
        constraints = [models.UniqueConstraint(fields=["arena", "member"], name="arena_entry_once")]

    def __str__(self) -> str:
        return f"{self.member} · {self.arena}"


class ArenaResult(models.Model):
    """One member's side of a finished arena match, scored when it ended (SPEC §12): the
    arena's table is read from these rows, and a recomputation from the matches
    (``lobby.standings.arena_recomputed``) gives the same."""

    class Outcome(models.TextChoices):
        WIN = "win", _("win")
        DRAW = "draw", _("draw")
        LOSS = "loss", _("loss")
        ABORTED = "aborted", _("aborted")

    arena = models.ForeignKey(
        Arena, verbose_name=_("arena"), on_delete=models.CASCADE, related_name="results"
    )
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        on_delete=models.CASCADE,
        related_name="arena_results",
    )
    match = models.ForeignKey(
        "games.Match", verbose_name=_("match"), on_delete=models.CASCADE, related_name="+"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("opponent"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    opponent_rating = models.FloatField(_("opponent's rating"), null=True)
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices)
    points = models.PositiveSmallIntegerField(_("points"))
    on_fire = models.BooleanField(_("on fire"), default=False)
    berserk = models.BooleanField(_("berserk"), default=False)
    moves = models.PositiveSmallIntegerField(_("moves"), default=0)
    #: the match's ratings annulled by a moderator: it counts for nothing in the arena
    annulled = models.BooleanField(_("annulled"), default=False)
    finished_at = models.DateTimeField(_("finished"))

    class Meta:
        verbose_name = _("arena result")
        verbose_name_plural = _("arena results")
        ordering = ["finished_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "member"], name="arena_result_once")
        ]

    def __str__(self) -> str:
        return f"{self.member} · {self.outcome} · {self.points}"
