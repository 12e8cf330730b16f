"""Moderation of ratings: rated results are read-only; moderators may annul one with a reason."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ratings import services
from ratings.models import PlayerRating, RatedMatch, RatingChange


class AnnulForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000
    )


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class RatingChangeInline(ReadOnlyMixin, admin.TabularInline):
    model = RatingChange
    extra = 0
    fields = (
        "player",
        "outcome",
        "score",
        "rating_before",
        "rating_after",
        "rd_before",
        "rd_after",
        "volatility_before",
        "volatility_after",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player__member")


class AnnulledFilter(admin.SimpleListFilter):
    title = _("annulled")
    parameter_name = "annulled"

    def lookups(self, request, model_admin):
        return [("yes", _("Annulled")), ("no", _("Counting"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(annulled_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(annulled_at=None)
        return queryset


@admin.register(RatedMatch)
class RatedMatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match_id", "scale", "players", "finished_at", "applied", "annulled")
    list_filter = ("scale", "applied", AnnulledFilter)
    search_fields = ("=match_id", "pairings__player__member__username")
    date_hierarchy = "finished_at"
    ordering = ("-finished_at", "-match_id")
    readonly_fields = (
        "match_id",
        "scale",
        "finished_at",
        "recorded_at",
        "applied",
        "annulled_at",
        "annulled_by",
        "annul_reason",
    )
    inlines = [RatingChangeInline]
    actions = ["annul_matches"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .prefetch_related("pairings__player__member", "pairings__opponent__member")
        )

    @admin.display(description=_("players"))
    def players(self, rated_match: RatedMatch) -> str:
        names: dict[int, str] = {}
        for pairing in rated_match.pairings.all():
            for player in (pairing.player, pairing.opponent):
                names.setdefault(player.pk, str(player.member or _("deleted member")))
        return ", ".join(names.values())

    @admin.display(boolean=True, description=_("annulled"))
    def annulled(self, rated_match: RatedMatch) -> bool:
        return rated_match.annulled_at is not None

    def has_annul_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("ratings.annul_ratedmatch")

    @admin.action(description=_("Annul selected matches"), permissions=["annul"])
    def annul_matches(
        self, request: HttpRequest, queryset: QuerySet[RatedMatch]
    ) -> HttpResponse | None:
        queryset = queryset.filter(annulled_at=None)
        form = AnnulForm(request.POST if "apply" in request.POST else None)
        if not ("apply" in request.POST and form.is_valid()):
            return TemplateResponse(
                request,
                "admin/ratings/annul_form.html",
                {
                    **self.admin_site.each_context(request),
                    "title": _("Annul rated matches"),
                    "form": form,
                    "matches": queryset,
                    "action": request.POST.get("action"),
                    "opts": self.model._meta,
                },
            )
        reason = form.cleaned_data["reason"]
        annulled = 0
        for rated_match in queryset:
            try:
                services.match_annul(match_id=rated_match.pk, by=request.user, reason=reason)
            except services.AlreadyAnnulled:
                continue
            self.log_change(
                request, rated_match, gettext("Annulled: %(reason)s") % {"reason": reason}
            )
            annulled += 1
        self.message_user(
            request,
            ngettext(
                "%(count)d match annulled; its scale is being recalculated.",
                "%(count)d matches annulled; their scales are being recalculated.",
                annulled,
            )
            % {"count": annulled},
            messages.SUCCESS,
        )
        return None


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("member", "scale", "rating", "rd", "volatility", "matches", "last_played_at")
    list_filter = ("scale",)
    search_fields = ("member__username",)
    list_select_related = ("member",)
    ordering = ("scale", "-rating")
