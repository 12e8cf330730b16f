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
    #: a bot account (SPEC §15), for good: it plays only through the API and is marked BOT
    #: wherever its name is shown
    is_bot = models.BooleanField(
        _("bot account"),
        default=False,
        help_text=_("A program that plays through the API; marked BOT wherever its name shows."),
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


class MemberWarning(models.Model):
    """A moderator's warning (SPEC §14): the member reads it once, at the top of their next
    page (``seen_at`` is set then); moderators read the earlier ones beside a report."""

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        on_delete=models.CASCADE,
        related_name="warnings",
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(_("time"))
    seen_at = models.DateTimeField(_("seen"), null=True, blank=True)

    class Meta:
        verbose_name = _("warning")
        verbose_name_plural = _("warnings")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["member", "seen_at"], name="warning_unseen")]

    def __str__(self) -> str:
        return self.reason[:60]


class AuditEntry(models.Model):
    """One sanction by a moderator (SPEC §14), written in the sanction's own transaction.
    Names are kept beside the links, so a row still says who and whom after either
    account is deleted. Nobody changes a row; superusers read them in admin."""

    class Action(models.TextChoices):
        BAN = "ban", _("ban")
        UNBAN = "unban", _("unban")
        MUTE = "mute", _("mute")
        UNMUTE = "unmute", _("unmute")
        WARN = "warn", _("warn")
        ABORT = "abort", _("abort a match")
        ANNUL = "annul", _("annul a rated match")
        ARENA_CANCEL = "arena_cancel", _("cancel an arena")
        MEMBER_DELETE = "member_delete", _("delete a member")
        REPORT_CLOSE = "report_close", _("close a report")

    at = models.DateTimeField(_("time"), db_index=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("moderator"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    by_name = models.CharField(_("moderator's name"), max_length=150)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    member_name = models.CharField(_("member's name"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    reason = models.TextField(_("reason"), blank=True)
    #: what it was about beyond the member, as text: "match 12", "arena 3", "report 5"
    reference = models.CharField(_("reference"), max_length=100, blank=True)

    class Meta:
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.by_name} {self.action} {self.member_name or self.reference}"


#: the longest text a report may carry (SPEC §14)
REPORT_TEXT_LIMIT = 1000


class Report(models.Model):
    """A member's report of another (SPEC §14): one case in the moderators' queue, open
    until a moderator closes it with an outcome and a reason. What the reporter said is in
    its entries: a reporter's further reports of the same member within a day of opening
    it are entries of the same open report."""

    class Reason(models.TextChoices):
        CHEATING = "cheating", _("Cheating")
        CHAT_ABUSE = "chat_abuse", _("Abuse in chat")
        SANDBAGGING = "sandbagging", _("Sandbagging or boosting")
        OTHER = "other", _("Other")

    class Outcome(models.TextChoices):
        DISMISSED = "dismissed", _("dismissed")
        WARNED = "warned", _("warned")
        MUTED = "muted", _("muted")
        BANNED = "banned", _("banned")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reporter"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="reports_filed",
    )
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported member"),
        on_delete=models.CASCADE,
        related_name="reports_received",
    )
    opened_at = models.DateTimeField(_("opened"), db_index=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("closed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    outcome = models.CharField(_("outcome"), max_length=16, blank=True, choices=Outcome.choices)
    close_reason = models.TextField(_("moderator's reason"), blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-opened_at", "-pk"]
        default_permissions = ("view",)
        permissions = [("close_report", _("Can close reports"))]

    def __str__(self) -> str:
        return f"#{self.pk} {self.member}"


class ReportEntry(models.Model):
    """What a reporter said once: a reason, a text, and the chat line they pointed at, if
    any (its id and its table's, plain numbers: ``accounts`` knows nothing of tables)."""

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="entries")
    reason = models.CharField(_("reason"), max_length=16, choices=Report.Reason.choices)
    text = models.TextField(_("text"), max_length=REPORT_TEXT_LIMIT, blank=True)
    match_id = models.PositiveBigIntegerField(_("table"), null=True, blank=True)
    chat_message_id = models.PositiveBigIntegerField(_("chat line"), null=True, blank=True)
    filed_at = models.DateTimeField(_("filed"), db_index=True)

    class Meta:
        verbose_name = _("report entry")
        verbose_name_plural = _("report entries")
        ordering = ["filed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_reason_display()}: {self.text[:60]}"


class ApiToken(models.Model):
    """A member's personal API token (SPEC §15). The token itself is shown once, when it is
    made; only its SHA-256 digest is kept (a token is a long random secret, so a plain
    digest is enough), with its first characters to tell it apart in the list."""

    class Scope(models.TextChoices):
        BOT_PLAY = "bot:play", _("Play as a bot: the event stream, the bot's matches, the upgrade")
        CHALLENGE_WRITE = "challenge:write", _("Send, accept, decline and cancel challenges")

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    description = models.CharField(_("description"), max_length=100)
    #: the ``Scope`` values the token carries
    scopes = models.JSONField(_("scopes"), default=list)
    #: the token's first characters, shown in the list
    prefix = models.CharField(_("prefix"), max_length=16)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created"))
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.prefix}… {self.description}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
