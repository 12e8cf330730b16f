from django import forms
from django.contrib import admin, messages
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import services, timing
from games.errors import TableError
from games.models import ChatMessage, Game, Match, Move, Seat


class AbortForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000
    )


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("seat", "member", "team", "rating", "connected", "absent_since")
    readonly_fields = fields
    can_delete = False


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ("number", "first_seat", "winners", "reason", "scores", "started_at", "finished_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "variant",
        "players",
        "rated",
        "clock",
        "status",
        "result_reason",
        "created_at",
    )
    list_filter = ("status", "variant", "rated", "format", "clock")
    search_fields = ("=id", "seats__member__username", "token")
    date_hierarchy = "created_at"
    inlines = [SeatInline, GameInline]
    readonly_fields = (
        "variant",
        "rated",
        "format",
        "clock",
        "status",
        "seed",
        "board",
        "state",
        "clock_state",
        "version",
        "token",
        "result_reason",
        "rematch",
        "spectators",
        "created_by",
        "started_at",
        "finished_at",
    )
    exclude = ("rematch_offered_at", "rematch_accepted")
    actions = ["abort_matches"]

    def has_abort_permission(self, request) -> bool:
        return request.user.has_perm("games.abort_match")

    @admin.action(
        description=_("Abort selected matches (no result, no rating)"), permissions=["abort"]
    )
    def abort_matches(self, request, queryset):
        """A stuck match ends without a result; the reason goes to the admin log and the
        audit log."""
        form = AbortForm(request.POST if "apply" in request.POST else None)
        if not ("apply" in request.POST and form.is_valid()):
            return TemplateResponse(
                request,
                "admin/games/abort_form.html",
                {
                    **self.admin_site.each_context(request),
                    "title": _("Abort matches"),
                    "form": form,
                    "matches": queryset,
                    "action": request.POST.get("action"),
                    "opts": self.model._meta,
                },
            )
        reason = form.cleaned_data["reason"].strip()
        aborted = 0
        for match in queryset:
            try:
                services.match_abort(
                    match_id=match.pk, now=timing.now(), by=request.user, reason=reason
                )
            except TableError as failure:
                self.message_user(request, f"#{match.pk}: {failure.message}", messages.WARNING)
                continue
            self.log_change(request, match, _("Aborted: %(reason)s") % {"reason": reason})
            aborted += 1
        self.message_user(
            request,
            ngettext("%(count)d match aborted.", "%(count)d matches aborted.", aborted)
            % {"count": aborted},
            messages.SUCCESS,
        )
        return None

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__member")

    @admin.display(description=_("players"))
    def players(self, match: Match) -> str:
        return ", ".join(seat.display_name for seat in match.seats.all())

    def has_add_permission(self, request) -> bool:
        return False


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("ply", "seat", "color", "gained", "clock_ms", "played_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("match", "number", "reason", "started_at", "finished_at")
    list_filter = ("reason",)
    search_fields = ("=match__id",)
    inlines = [MoveInline]
    readonly_fields = (
        "match",
        "number",
        "start",
        "final",
        "first_seat",
        "corners",
        "scores",
        "winners",
        "reason",
        "started_at",
        "finished_at",
    )

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Moderators read chat and delete what breaks the rules."""

    list_display = ("created_at", "author", "match", "audience", "text")
    list_filter = ("audience", "created_at")
    search_fields = ("text", "author__username", "=match__id")
    date_hierarchy = "created_at"
    list_select_related = ("author", "match")
    readonly_fields = ("match", "author", "text", "audience", "created_at")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
