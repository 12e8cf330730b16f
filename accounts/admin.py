from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts import services
from accounts.models import AuditEntry, User
from accounts.selectors import may_sanction


class ReasonForm(forms.Form):
    """Why a moderator acts: every sanction keeps its reason in the audit log."""

    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000
    )


class BanForm(ReasonForm):
    until = forms.DateTimeField(
        label=_("Until"),
        required=False,
        help_text=_("Leave empty to ban until lifted. Format: 2026-12-31 18:00"),
    )

    def clean_until(self):
        until = self.cleaned_data["until"]
        if until is not None and until <= timezone.now():
            raise forms.ValidationError(_("The end of a ban must be in the future."))
        return until


class MuteForm(ReasonForm):
    until = forms.DateTimeField(
        label=_("Until"),
        required=False,
        help_text=_("Leave empty to mute until lifted. Format: 2026-12-31 18:00"),
    )


class BannedFilter(admin.SimpleListFilter):
    title = _("banned")
    parameter_name = "banned"

    def lookups(self, request, model_admin):
        return [("yes", _("Banned now")), ("no", _("Not banned"))]

    def queryset(self, request, queryset):
        now = timezone.now()
        banned = Q(banned_at__isnull=False) & (
            Q(banned_until__isnull=True) | Q(banned_until__gt=now)
        )
        if self.value() == "yes":
            return queryset.filter(banned)
        if self.value() == "no":
            return queryset.exclude(banned)
        return queryset


class MutedFilter(admin.SimpleListFilter):
    title = _("chat muted")
    parameter_name = "muted"

    def lookups(self, request, model_admin):
        return [("yes", _("Muted now")), ("no", _("Not muted"))]

    def queryset(self, request, queryset):
        now = timezone.now()
        muted = Q(chat_muted_at__isnull=False) & (
            Q(chat_muted_until__isnull=True) | Q(chat_muted_until__gt=now)
        )
        if self.value() == "yes":
            return queryset.filter(muted)
        if self.value() == "no":
            return queryset.exclude(muted)
        return queryset


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "email", "date_joined", "last_login", "is_staff", "banned", "muted")
    list_filter = (
        BannedFilter,
        MutedFilter,
        "is_staff",
        "is_superuser",
        "is_active",
        "groups",
        "language",
    )
    search_fields = ("username", "email", "ban_reason")
    ordering = ("-date_joined",)
    actions = ["ban_members", "unban_members", "mute_members", "unmute_members"]
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Preferences"), {"fields": ("language", "theme", "color_symbols", "sound")}),
        (
            _("Sanctions"),
            {
                "fields": (
                    "banned_at",
                    "banned_until",
                    "ban_reason",
                    "banned_by",
                    "chat_muted_at",
                    "chat_muted_until",
                )
            },
        ),
    )
    # Sanctions change through the actions only, so each one is in the audit log.
    readonly_fields = (
        "banned_at",
        "banned_until",
        "ban_reason",
        "banned_by",
        "chat_muted_at",
        "chat_muted_until",
        "last_login",
        "date_joined",
    )

    def delete_model(self, request: HttpRequest, obj: User) -> None:
        """Deleting a member in admin is the member's own deletion (``member_delete``):
        their matches in play end, their tables and challenges go, their sockets close;
        the audit log keeps who deleted whom."""
        services.member_delete(member=obj, by=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        """The bulk "delete selected" action: each member through ``member_delete``."""
        for member in queryset:
            services.member_delete(member=member, by=request.user)

    @admin.display(boolean=True, description=_("banned"))
    def banned(self, obj: User) -> bool:
        return obj.is_banned()

    @admin.display(boolean=True, description=_("chat muted"))
    def muted(self, obj: User) -> bool:
        return obj.is_chat_muted()

    def has_ban_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.ban_member")

    def has_mute_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.mute_member")

    def _sanctionable(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        """Only the members this moderator may sanction; says how many were left out."""
        allowed = [m.pk for m in queryset if may_sanction(request.user, m)]
        skipped = queryset.count() - len(allowed)
        if skipped and "apply" not in request.POST:
            self.message_user(
                request,
                ngettext(
                    "%(count)d selected member is a moderator or an administrator and was "
                    "left out.",
                    "%(count)d selected members are moderators or administrators and were "
                    "left out.",
                    skipped,
                )
                % {"count": skipped},
                messages.WARNING,
            )
        return queryset.filter(pk__in=allowed)

    def _form_action(self, request, queryset, form_class, title, apply):
        form = form_class(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            for member in queryset:
                apply(member, form.cleaned_data)
            return None
        return TemplateResponse(
            request,
            "admin/accounts/sanction_form.html",
            {
                **self.admin_site.each_context(request),
                "title": title,
                "form": form,
                "members": queryset,
                "action": request.POST.get("action"),
                "opts": self.model._meta,
            },
        )

    def _sanction_action(self, request, queryset, form_class, title, apply, done):
        """Ask for the form (a reason, maybe an end), then ``apply(member, data)`` to each
        member this moderator may sanction and say how many with ``done`` (ngettext)."""
        queryset = self._sanctionable(request, queryset)
        response = self._form_action(request, queryset, form_class, title, apply)
        if response is None:
            count = queryset.count()
            self.message_user(request, done(count) % {"count": count}, messages.SUCCESS)
        return response

    @admin.action(description=_("Ban selected members"), permissions=["ban"])
    def ban_members(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        def apply(member, data):
            services.member_ban(
                member=member, by=request.user, reason=data["reason"], until=data["until"]
            )

        return self._sanction_action(
            request,
            queryset,
            BanForm,
            _("Ban members"),
            apply,
            lambda n: ngettext("%(count)d member banned.", "%(count)d members banned.", n),
        )

    @admin.action(description=_("Lift the ban of selected members"), permissions=["ban"])
    def unban_members(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        def apply(member, data):
            services.member_unban(member=member, by=request.user, reason=data["reason"])

        return self._sanction_action(
            request,
            queryset,
            ReasonForm,
            _("Lift bans"),
            apply,
            lambda n: ngettext("%(count)d ban lifted.", "%(count)d bans lifted.", n),
        )

    @admin.action(description=_("Mute selected members in chat"), permissions=["mute"])
    def mute_members(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        def apply(member, data):
            services.member_mute(
                member=member, until=data["until"], by=request.user, reason=data["reason"]
            )

        return self._sanction_action(
            request,
            queryset,
            MuteForm,
            _("Mute members"),
            apply,
            lambda n: ngettext("%(count)d member muted.", "%(count)d members muted.", n),
        )

    @admin.action(description=_("Unmute selected members"), permissions=["mute"])
    def unmute_members(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        def apply(member, data):
            services.member_unmute(member=member, by=request.user, reason=data["reason"])

        return self._sanction_action(
            request,
            queryset,
            ReasonForm,
            _("Unmute members"),
            apply,
            lambda n: ngettext("%(count)d member unmuted.", "%(count)d members unmuted.", n),
        )


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The audit log (SPEC §14): superusers read it; nobody adds, changes or deletes a row
    here, and moderators do not see it."""

    list_display = ("at", "by_name", "action", "member_name", "reference", "reason")
    list_filter = ("action",)
    search_fields = ("by_name", "member_name", "reference", "reason")
    date_hierarchy = "at"

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.is_active and request.user.is_superuser

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
