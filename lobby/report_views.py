"""Reporting a member (SPEC §14): ``POST /@/<username>/report/`` from the member's page or
from one of their chat lines at a table. A page's form goes back where it came from with
a message; a request that accepts JSON (the table's chat menu) gets JSON instead. The
fields and answers are in docs/protocol.md, "Reporting a chat line". Every refusal to a
member, a form with nonsense included, counts towards their reports of the day
(``lobby.services.reports``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.errors import Refusal
from accounts.forms import ReportForm
from accounts.services import report_attempt
from accounts.views import back_to, members_back_to, profile_url, refused_json, wants_json
from games import timing
from lobby import services


@require_POST
@members_back_to(profile_url, refusal=gettext_lazy("Log in to report a member."))
def report(request: HttpRequest, username: str) -> HttpResponse:
    as_json = wants_json(request)
    profile = profile_url(username)
    back = HttpResponseRedirect(back_to(request, request.POST.get("next", ""), profile))
    form = ReportForm(request.POST)
    try:
        if not form.is_valid():
            # A refusal like any other: it counts towards the day's reports.
            report_attempt(reporter=request.user, now=timing.now())
            problem = " ".join(message for errors in form.errors.values() for message in errors)
            if as_json:
                return refused_json("invalid", problem)
            messages.error(request, problem)
            return back
        services.member_report(
            reporter=request.user,
            username=username,
            reason=form.cleaned_data["reason"],
            text=form.cleaned_data["text"],
            match_id=form.cleaned_data["match"],
            chat_message_id=form.cleaned_data["message"],
            token=form.cleaned_data["token"],
            now=timing.now(),
        )
    except Refusal as refusal:
        if as_json:
            return refused_json(refusal.code, refusal.message)
        if refusal.code == "not_found":
            raise Http404(refusal.message) from None
        messages.error(request, refusal.message)
        return back
    done = _("Thank you: the moderators will look into your report.")
    if as_json:
        return JsonResponse({"ok": True, "message": done})
    messages.success(request, done)
    return back
