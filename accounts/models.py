from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Theme(models.TextChoices):
    """The site's colours: the device's light or dark setting, or one of them always."""

    DEVICE = "device", _("Follow the device")
    LIGHT = "light", _("Light")
    DARK = "dark", _("Dark")


class User(AbstractUser):
    """A member of the site. Preferences and sanctions live on the member row."""

    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)
    color_symbols = models.BooleanField(
        _("colour symbols"),
        default=False,
        help_text=_(
            "Draw a symbol on every colour, so colours can be told apart without seeing them."
        ),
    )
    sound = models.BooleanField(
        _("sound"),
        default=False,
        help_text=_("Play a short sound when it becomes your turn or someone challenges you."),
    )
    accepts_challenges = models.BooleanField(
        _("accept challenges"),
        default=True,
        help_text=_("Let other members challenge you to a match."),
    )
    theme = models.CharField(
        _("theme"),
        max_length=8,
        choices=Theme.choices,
        default=Theme.DEVICE,
        help_text=_("Light or dark colours for the site and the board."),
    )

    #: what the name looks like (accounts/names.py): no two members share one
    name_skeleton = models.CharField(max_length=300, blank=True, db_index=True, editable=False)
    #: what the name looks like letter by letter, before case is folded (accounts/names.py)
    name_look = models.CharField(max_length=300, blank=True, db_index=True, editable=False)

    #: the last moment one of the member's pages was open (kept by the games' sockets)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)

    banned_at = models.DateTimeField(_("banned at"), null=True, blank=True)
    banned_until = models.DateTimeField(
        _("banned until"), null=True, blank=True, help_text=_("Empty means until lifted.")
    )
    ban_reason = models.TextField(_("ban reason"), blank=True)
    banned_by = models.ForeignKey(
        "self",
        verbose_name=_("banned by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    chat_muted_at = models.DateTimeField(_("chat muted at"), null=True, blank=True)
    chat_muted_until = models.DateTimeField(
        _("chat muted until"), null=True, blank=True, help_text=_("Empty means until lifted.")
    )

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        permissions = [
            ("ban_member", _("Can ban and unban members")),
            ("mute_member", _("Can mute and unmute members in chat")),
        ]

    def __str__(self) -> str:
        return self.username

    def is_banned(self, now: datetime | None = None) -> bool:
        if self.banned_at is None:
            return False
        return self.banned_until is None or self.banned_until > (now or timezone.now())

    def is_chat_muted(self, now: datetime | None = None) -> bool:
        if self.chat_muted_at is None:
            return False
        return self.chat_muted_until is None or self.chat_muted_until > (now or timezone.now())

    def save(self, *args, **kwargs) -> None:
        from accounts.names import look, skeleton

        self.name_skeleton, self.name_look = skeleton(self.username), look(self.username)
        if kwargs.get("update_fields") is not None and "username" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_skeleton", "name_look"}
        super().save(*args, **kwargs)


class Follow(models.Model):
    """A member follows another (SPEC §14): the lobby shows whom they follow when online;
    only the member sees their lists, others see counts."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("follower"),
        on_delete=models.CASCADE,
        related_name="following",
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("followed member"),
        on_delete=models.CASCADE,
        related_name="followers",
    )
    created_at = models.DateTimeField(_("since"), default=timezone.now)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} → {self.followed_id}"


class Block(models.Model):
    """A member blocks another (SPEC §14): the blocked member cannot challenge the blocker,
    join their waiting tables, follow them or be seen in their chat, and the two are
    never paired. Silent: nothing tells the blocked member."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("blocker"),
        on_delete=models.CASCADE,
        related_name="blocks",
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("blocked member"),
        on_delete=models.CASCADE,
        related_name="blocked_by",
    )
    created_at = models.DateTimeField(_("since"), default=timezone.now)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} ⊘ {self.blocked_id}"
