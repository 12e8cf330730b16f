"""The moderators' queue of reports (SPEC §14), registered by ``lobby.admin``: open reports
newest first; a report's page shows what the reporter said, each reported chat line among
the lines around it, the member's standing, warnings, audit rows and latest tables. A
moderator closes reports with an action (dismiss, warn, mute, ban) and a reason, through
``accounts.services.report_close``. It lives in ``lobby`` because it reads the tables."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts import services
from accounts.admin import BanForm, MuteForm, ReasonForm
from accounts.errors import Refusal
from accounts.models import Report, ReportEntry
from accounts.selectors import audit_about, may_sanction, member_warnings, reports_for
from games import timing
from games.models import Match
from games.selectors import chat_around, member_latest_matches
from games.services import match_url

#: each closing action: its outcome, its form, and its button on a report's page
CLOSINGS = {
    "dismiss_reports": (Report.Outcome.DISMISSED, ReasonForm, _("Dismiss")),
    "warn_members": (Report.Outcome.WARNED, ReasonForm, _("Warn")),
    "mute_members": (Report.Outcome.MUTED, MuteForm, _("Mute")),
    "ban_members": (Report.Outcome.BANNED, BanForm, _("Ban")),
}


class StatusFilter(admin.SimpleListFilter):
    """Open reports unless asked for the closed ones (or all)."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("closed", _("Closed")), ("all", _("All"))]

    def choices(self, changelist):
        choices = list(super().choices(changelist))
        choices[0]["display"] = _("Open")  # the choice without a value
        return choices

    def queryset(self, request, queryset):
        if self.value() == "closed":
            return queryset.filter(closed_at__isnull=False)
        if self.value() == "all":
            return queryset
        return queryset.filter(closed_at=None)


class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "opened_at", "member", "reporter", "reasons", "filings", "outcome")
    list_filter = (StatusFilter, "outcome")
    list_select_related = ("member", "reporter")
    search_fields = ("member__username", "reporter__username", "entries__text")
    ordering = ("-opened_at", "-pk")
    fields = (
        "member",
        "reporter",
        "opened_at",
        "closed_at",
        "closed_by",
        "outcome",
        "close_reason",
    )
    readonly_fields = fields
    actions = list(CLOSINGS)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        return reports_for(request.user).prefetch_related("entries")

    @admin.display(description=_("reasons"))
    def reasons(self, report: Report) -> str:
        shown = dict.fromkeys(entry.get_reason_display() for entry in report.entries.all())
        return ", ".join(shown)

    @admin.display(description=_("reports"))
    def filings(self, report: Report) -> int:
        return len(report.entries.all())

    # Reports are kept as filed; they change by being closed, through the actions.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_close_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.close_report")

    def has_close_and_mute_permission(self, request: HttpRequest) -> bool:
        return self.has_close_permission(request) and request.user.has_perm("accounts.mute_member")

    def has_close_and_ban_permission(self, request: HttpRequest) -> bool:
        return self.has_close_permission(request) and request.user.has_perm("accounts.ban_member")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        report = self.get_object(request, object_id)
        if report is not None:
            extra_context = {**(extra_context or {}), **self._case(request, report)}
        return super().change_view(request, object_id, form_url, extra_context)

    def _case(self, request: HttpRequest, report: Report) -> dict:
        """What the report's page shows beside its fields."""
        entries = list(report.entries.all())
        tables = Match.objects.in_bulk([e.match_id for e in entries if e.match_id is not None])
        member, now = report.member, timing.now()
        closable = report.closed_at is None and may_sanction(request.user, member)
        actions = self.get_actions(request) if closable else {}
        return {
            "entries": [_entry(entry, tables.get(entry.match_id)) for entry in entries],
            "member_banned": member.is_banned(now),
            "member_muted": member.is_chat_muted(now),
            "warnings": member_warnings(member.pk),
            "audit": audit_about(member.pk),
            "matches": [(match, match_url(match)) for match in member_latest_matches(member.pk)],
            "closings": [(name, CLOSINGS[name][2]) for name in CLOSINGS if name in actions],
        }

    def _close(self, request: HttpRequest, queryset: QuerySet[Report]) -> HttpResponse | None:
        """Ask for the reason (and the end of a mute or ban), then close each report."""
        action = request.POST.get("action", "")
        outcome, form_class, _label = CLOSINGS[action]
        form = form_class(request.POST if "apply" in request.POST else None)
        if not ("apply" in request.POST and form.is_valid()):
            return TemplateResponse(
                request,
                "admin/accounts/report_close.html",
                {
                    **self.admin_site.each_context(request),
                    "title": self.get_actions(request)[action][2],
                    "form": form,
                    "reports": queryset,
                    "action": action,
                    "opts": self.model._meta,
                },
            )
        closed = 0
        for report in queryset:
            try:
                services.report_close(
                    report_id=report.pk,
                    by=request.user,
                    outcome=outcome,
                    reason=form.cleaned_data["reason"],
                    until=form.cleaned_data.get("until"),
                    now=timing.now(),
                )
            except services.NotAllowed:
                self.message_user(
                    request,
                    _("Report #%(id)d is about a moderator or an administrator: it stays open.")
                    % {"id": report.pk},
                    messages.WARNING,
                )
                continue
            except Refusal as refusal:
                self.message_user(request, f"#{report.pk}: {refusal.message}", messages.WARNING)
                continue
            closed += 1
        self.message_user(
            request,
            ngettext("%(count)d report closed.", "%(count)d reports closed.", closed)
            % {"count": closed},
            messages.SUCCESS,
        )
        return None

    @admin.action(description=_("Dismiss selected reports"), permissions=["close"])
    def dismiss_reports(self, request, queryset):
        return self._close(request, queryset)

    @admin.action(description=_("Close selected reports with a warning"), permissions=["close"])
    def warn_members(self, request, queryset):
        return self._close(request, queryset)

    @admin.action(
        description=_("Close selected reports by muting the member"),
        permissions=["close_and_mute"],
    )
    def mute_members(self, request, queryset):
        return self._close(request, queryset)

    @admin.action(
        description=_("Close selected reports by banning the member"),
        permissions=["close_and_ban"],
    )
    def ban_members(self, request, queryset):
        return self._close(request, queryset)


def _entry(entry: ReportEntry, table: Match | None) -> dict:
    """One thing the reporter said, with the chat line it names among its neighbours."""
    if entry.chat_message_id is None or table is None:
        return {"entry": entry, "table_url": None, "chat": []}
    return {
        "entry": entry,
        "table_url": match_url(table),
        "chat": chat_around(table.pk, entry.chat_message_id),
    }
