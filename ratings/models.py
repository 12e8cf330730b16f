"""Rated match results, the rating changes they caused and each player's current rating.

``ratings`` knows nothing of ``games``: a match is a plain integer id here. Players are
``PlayerRating`` rows (one per member and scale); pairings and changes point at them, so a
deleted member's row stays, anonymous (``member`` empty), and recalculation still sees
the same players as the first time.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings import glicko2


class Scale(models.TextChoices):
    """The rated scales, keyed by the variant whose matches they rate."""

    FAST = "fast", _("Fast 8×7")
    CLASSIC = "classic", _("Classic 15×15")
    HEX = "hex", _("Hexagons 13×11")
    FOUR = "four", _("Four players")
    PAIRS = "pairs", _("Pairs")


class PlayerRating(models.Model):
    """A player's current rating on one scale, and their record on it."""

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="ratings",
    )
    scale = models.CharField(_("scale"), max_length=16, choices=Scale.choices)
    rating = models.FloatField(_("rating"), default=glicko2.START_RATING)
    rd = models.FloatField(_("rating deviation"), default=glicko2.START_RD)
    volatility = models.FloatField(_("volatility"), default=glicko2.START_VOLATILITY)
    matches = models.PositiveIntegerField(_("matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    last_played_at = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [
            models.UniqueConstraint(fields=["member", "scale"], name="ratings_one_per_scale")
        ]
        indexes = [models.Index(fields=["scale", "-rating"], name="ratings_board")]

    def __str__(self) -> str:
        return f"{self.member or _('deleted member')} {self.scale} {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        return self.rd > glicko2.PROVISIONAL_RD


#: Results whose stored changes disagree with what they should be: not yet rated, or
#: annulled with their changes still stored.
DIRTY = models.Q(applied=False, annulled_at=None) | models.Q(
    applied=True, annulled_at__isnull=False
)


class RatedMatch(models.Model):
    """A finished rated match's result as ``games`` handed it over; the match id is its key."""

    match_id = models.BigIntegerField(_("match"), primary_key=True)
    scale = models.CharField(_("scale"), max_length=16, choices=Scale.choices)
    finished_at = models.DateTimeField(_("finished at"))
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    applied = models.BooleanField(
        _("applied"), default=False, help_text=_("Its rating changes are stored.")
    )
    annulled_at = models.DateTimeField(_("annulled at"), null=True, blank=True)
    annulled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("annulled by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    annul_reason = models.TextField(_("reason for annulling"), blank=True)

    class Meta:
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")
        # Matches are rated in the order they finished, ties by id.
        ordering = ["finished_at", "match_id"]
        indexes = [
            models.Index(fields=["scale", "finished_at", "match_id"], name="ratings_order"),
            # Only the few results whose stored changes are not what they should be.
            models.Index(
                fields=["scale", "finished_at", "match_id"],
                condition=DIRTY,
                name="ratings_dirty",
            ),
        ]
        permissions = [("annul_ratedmatch", _("Can annul rated matches"))]

    def __str__(self) -> str:
        return f"{self.get_scale_display()} #{self.match_id}"


class Pairing(models.Model):
    """Two opposing players of a rated match and the score of the first (the other has 1 - it)."""

    rated_match = models.ForeignKey(
        RatedMatch, verbose_name=_("match"), on_delete=models.CASCADE, related_name="pairings"
    )
    player = models.ForeignKey(
        PlayerRating, verbose_name=_("player"), on_delete=models.PROTECT, related_name="+"
    )
    opponent = models.ForeignKey(
        PlayerRating, verbose_name=_("opponent"), on_delete=models.PROTECT, related_name="+"
    )
    score = models.FloatField(_("score"))

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")

    def __str__(self) -> str:
        return f"{self.player_id}-{self.opponent_id} {self.score}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating: before and after."""

    class Outcome(models.TextChoices):
        WIN = "win", _("win")
        DRAW = "draw", _("draw")
        LOSS = "loss", _("loss")

    # Indexed by the unique constraint and the history index, which lead with each.
    rated_match = models.ForeignKey(
        RatedMatch,
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="changes",
        db_index=False,
    )
    player = models.ForeignKey(
        PlayerRating,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="changes",
        db_index=False,
    )
    scale = models.CharField(_("scale"), max_length=16, choices=Scale.choices)
    # Copied from the match: the history is read and cut in this order without a join.
    finished_at = models.DateTimeField(_("finished at"))
    rating_before = models.FloatField(_("rating before"))
    rd_before = models.FloatField(_("RD before"))
    volatility_before = models.FloatField(_("volatility before"))
    rating_after = models.FloatField(_("rating after"))
    rd_after = models.FloatField(_("RD after"))
    volatility_after = models.FloatField(_("volatility after"))
    score = models.FloatField(_("score"))
    opponents = models.PositiveSmallIntegerField(_("opponents"))
    outcome = models.CharField(_("outcome"), max_length=4, choices=Outcome.choices)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["finished_at", "rated_match_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["rated_match", "player"], name="ratings_one_change_per_match"
            )
        ]
        indexes = [
            models.Index(fields=["player", "finished_at", "rated_match"], name="ratings_history"),
            models.Index(fields=["scale", "finished_at", "rated_match"], name="ratings_replay"),
        ]

    def __str__(self) -> str:
        before, after = round(self.rating_before), round(self.rating_after)
        return f"{self.player_id} #{self.rated_match_id} {before}→{after}"

    @property
    def change(self) -> int:
        """The change as shown: the difference of the two rounded ratings."""
        return round(self.rating_after) - round(self.rating_before)


class ScaleLock(models.Model):
    """One row per scale, written at the start of every rating transaction of that scale.

    The write holds a row lock on PostgreSQL and the database's write lock on SQLite, so the
    updates and recalculations of one scale run one after the other.
    """

    scale = models.CharField(_("scale"), max_length=16, choices=Scale.choices, primary_key=True)
    taken = models.PositiveBigIntegerField(_("times taken"), default=0)

    class Meta:
        verbose_name = _("scale lock")
        verbose_name_plural = _("scale locks")

    def __str__(self) -> str:
        return self.scale
