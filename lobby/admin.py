"""Arenas for moderators (SPEC §12): create, change before the start, cancel with a
reason; schedules of recurring arenas. Every write goes through ``lobby.services``. And
the queue of members' reports (SPEC §14, ``lobby.report_admin``)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import Report
from games import timing
from games.errors import TableError
from lobby import services
from lobby.models import Arena, ArenaEntry, ArenaSchedule
from lobby.report_admin import ReportAdmin

SETTINGS = ("name", "variant", "clock", "starts_at", "minutes")


@admin.display(description=_("name"), ordering="name")
def _title(arena: Arena | ArenaSchedule) -> str:
    """An arena's or a schedule's name as its pages show it (``Arena.title``)."""
    return arena.title


class CancelForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=300
    )


class ArenaForm(forms.ModelForm):
    class Meta:
        model = Arena
        fields = SETTINGS

    def clean(self):
        data = super().clean()
        try:
            services.arena_settings_check(
                data.get("variant", ""), data.get("clock", ""), data.get("minutes") or 0
            )
        except TableError as failure:
            raise ValidationError(failure.message) from failure
        if self.instance.pk and (
            self.instance.status != Arena.Status.UPCOMING or self.instance.starts_at <= timing.now()
        ):
            raise ValidationError(_("An arena that has started keeps its settings."))
        return data


class EntryInline(admin.TabularInline):
    model = ArenaEntry
    fields = ("member", "joined_at", "active", "withdrawn_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    form = ArenaForm
    list_display = (_title, "variant", "clock", "starts_at", "minutes", "status", "entrants")
    list_filter = ("status", "variant")
    search_fields = ("name",)
    inlines = [EntryInline]
    actions = ["cancel_arenas"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Arena]:
        return (
            super()
            .get_queryset(request)
            .annotate(entrant_count=Count("entries", filter=Q(entries__active=True)))
        )

    @admin.display(description=_("entrants"), ordering="entrant_count")
    def entrants(self, arena: Arena) -> int:
        return arena.entrant_count

    def get_readonly_fields(self, request: HttpRequest, obj: Arena | None = None):
        started = obj is not None and (
            obj.status != Arena.Status.UPCOMING or obj.starts_at <= timing.now()
        )
        shown = ("status", "cancel_reason", "schedule", "created_by", "version")
        return (*SETTINGS, *shown) if started else shown

    def save_model(self, request: HttpRequest, obj: Arena, form, change: bool) -> None:
        values = {f: form.cleaned_data[f] for f in SETTINGS if f in form.cleaned_data}
        try:
            if change:
                saved = services.arena_update(arena_id=obj.pk, now=timing.now(), **values)
            else:
                saved = services.arena_create(created_by=request.user, **values)
        except TableError as failure:
            self.message_user(request, failure.message, messages.ERROR)
            return
        obj.pk = saved.pk

    def has_delete_permission(self, request: HttpRequest, obj: Arena | None = None) -> bool:
        return False  # an arena's table is kept; cancel it instead

    @admin.action(description=_("Cancel selected arenas"), permissions=["change"])
    def cancel_arenas(self, request: HttpRequest, queryset: QuerySet[Arena]) -> HttpResponse | None:
        form = CancelForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return TemplateResponse(
                request,
                "admin/lobby/arena_cancel.html",
                {
                    **self.admin_site.each_context(request),
                    "title": _("Cancel arenas"),
                    "form": form,
                    "arenas": queryset,
                    "action": request.POST.get("action"),
                    "opts": self.model._meta,
                },
            )
        cancelled = 0
        for arena in queryset:
            try:
                services.arena_cancel(
                    arena_id=arena.pk,
                    reason=form.cleaned_data["reason"],
                    by=request.user,
                    now=timing.now(),
                )
                cancelled += 1
            except TableError as failure:
                self.message_user(request, f"{arena}: {failure.message}", messages.WARNING)
        self.message_user(
            request,
            ngettext("%(count)d arena cancelled.", "%(count)d arenas cancelled.", cancelled)
            % {"count": cancelled},
            messages.SUCCESS,
        )
        return None


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    list_display = (_title, "variant", "clock", "minutes", "first_start", "every_hours", "active")
    list_filter = ("active", "variant")


admin.site.register(Report, ReportAdmin)
