from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse, translate_url
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts import services
from accounts.errors import Refusal
from accounts.forms import AccountDeleteForm, LanguageForm, PreferencesForm, ThemeForm, TokenForm
from accounts.models import ApiToken, User
from accounts.selectors import THEME_COOKIE_NAME, blocked_names, member_tokens


def admin_login(request: HttpRequest, extra_context=None) -> HttpResponse:
    """The admin's login goes through the site's own, with its rate limit on failed
    attempts; a member without staff rights is told so instead of being asked again."""
    target = request.GET.get("next") or reverse("admin:index")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = reverse("admin:index")
    if request.user.is_authenticated:
        if request.user.is_staff:
            return HttpResponseRedirect(target)
        return render(request, "accounts/staff_only.html", status=403)
    return HttpResponseRedirect(f"{reverse('account_login')}?{urlencode({'next': target})}")


def banned_response(request: HttpRequest, member: User) -> HttpResponse:
    return render(request, "accounts/banned.html", {"member": member}, status=403)


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        services.member_preferences_update(
            member=request.user,
            language=form.cleaned_data["language"],
            color_symbols=form.cleaned_data["color_symbols"],
            sound=form.cleaned_data["sound"],
            accepts_challenges=form.cleaned_data["accepts_challenges"],
            theme=form.cleaned_data["theme"],
        )
        messages.success(request, _("Your preferences are saved."))
        target = reverse("account_preferences")
        language = form.cleaned_data["language"]
        return HttpResponseRedirect(translate_url(target, language) if language else target)
    return render(
        request,
        "accounts/preferences.html",
        {"form": form, "blocked": blocked_names(request.user.pk)},
    )


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    """The member's personal API tokens (SPEC §15): each with its description, scopes,
    first characters and last use; a form makes a new one, shown once on the page that
    answers the form (never again: only its digest is kept)."""
    form = TokenForm(request.POST or None)
    made = None
    if request.method == "POST" and form.is_valid():
        try:
            token, raw = services.token_create(
                member=request.user,
                description=form.cleaned_data["description"],
                scopes=form.cleaned_data["scopes"],
                now=timezone.now(),
            )
        except Refusal as refusal:
            form.add_error(None, refusal.message)
        else:
            made = {"token": token, "raw": raw}
            form = TokenForm()
    response = render(
        request,
        "accounts/tokens.html",
        {
            "form": form,
            "made": made,
            "tokens": member_tokens(request.user.pk),
        },
    )
    response["Cache-Control"] = "no-store"  # the page may hold a token
    return response


def members_back_to(page: Callable[..., str], *, refusal=None):
    """A button's view (a POST) for members only. A visitor is sent to log in and then
    back to the page the button was on, ``page(**the view's kwargs)``: not to the
    button's own address, which is no page. ``refusal``: what a page's script
    (``wants_json``) is told instead, as ``not_allowed``."""

    def decorate(view):
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if not request.user.is_authenticated:
                if refusal is not None and wants_json(request):
                    return refused_json("not_allowed", refusal)
                return redirect_to_login(page(**kwargs))
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def profile_url(username: str) -> str:
    return reverse("profile", args=[username])


@require_POST
@members_back_to(lambda token_id: reverse("account_tokens"))
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the member's tokens: calls with it answer 401, its streams end."""
    token = ApiToken.objects.filter(pk=token_id, member=request.user).first()
    if token is None:
        raise Http404(_("There is no such token."))
    services.token_revoke(token=token, member=request.user, now=timezone.now())
    messages.success(request, _("The token %(prefix)s… is revoked.") % {"prefix": token.prefix})
    return HttpResponseRedirect(reverse("account_tokens"))


REFUSAL_STATUS = {
    "invalid": 400,
    "not_allowed": 403,
    "not_found": 404,
    "rate_limited": 429,
    "busy": 429,
}


def wants_json(request: HttpRequest) -> bool:
    """A page's script asking (``Accept: application/json``), not a form."""
    return "application/json" in request.headers.get("Accept", "")


def refused_json(code: str, message) -> JsonResponse:
    """A refusal for a page's script: its code and its message in the person's language."""
    return JsonResponse(
        {"error": code, "message": str(message)},
        status=REFUSAL_STATUS.get(code, 400),
    )


def _people_action(service, done):
    """A member's page's Follow, Unfollow, Block or Unblock button (SPEC §14): POST
    ``/@/<username>/…/``, then back to that page (or to ``next``) with what happened;
    a script (a chat line's menu) gets JSON instead."""

    @require_POST
    @members_back_to(profile_url, refusal=gettext_lazy("Log in to follow or block members."))
    def view(request: HttpRequest, username: str) -> HttpResponse:
        profile = profile_url(username)
        try:
            other = service(member=request.user, username=username)
        except Refusal as refusal:
            if wants_json(request):
                return refused_json(refusal.code, refusal.message)
            if refusal.code == "not_found":
                raise Http404(refusal.message) from None
            messages.error(request, refusal.message)
        else:
            if wants_json(request):
                return JsonResponse({"ok": True, "message": done % {"name": other.username}})
            messages.success(request, done % {"name": other.username})
        return HttpResponseRedirect(back_to(request, request.POST.get("next", ""), profile))

    return view


follow = _people_action(services.follow, gettext_lazy("You follow %(name)s."))
unfollow = _people_action(services.unfollow, gettext_lazy("You no longer follow %(name)s."))
block = _people_action(services.block, gettext_lazy("You blocked %(name)s."))
unblock = _people_action(services.unblock, gettext_lazy("You unblocked %(name)s."))


@require_POST
def preference_set(request: HttpRequest) -> HttpResponse:
    """Save one on/off preference from a page's settings (the table's colour symbols and
    sound): POST ``name`` (``color_symbols`` or ``sound``) and ``value`` (``on``/``off``).
    Visitors get 204 too; their choice lives in the page only."""
    name, value = request.POST.get("name"), request.POST.get("value")
    if name not in ("color_symbols", "sound") or value not in ("on", "off"):
        return HttpResponse(_("Unknown preference."), status=400)
    if request.user.is_authenticated:
        services.member_preferences_update(member=request.user, **{name: value == "on"})
    return HttpResponse(status=204)


@login_required
def account_delete(request: HttpRequest) -> HttpResponse:
    form = AccountDeleteForm(request.POST or None, member=request.user)
    if request.method == "POST" and form.is_valid():
        member = request.user
        logout(request)
        services.member_delete(member=member)
        messages.success(request, _("Your account has been deleted."))
        return HttpResponseRedirect(reverse("home"))
    return render(request, "accounts/delete.html", {"form": form})


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The header's language switcher: go to this page in that language and remember it."""
    form = LanguageForm(request.POST)
    if not form.is_valid():
        return HttpResponse(_("Unknown language."), status=400)
    language = form.cleaned_data["language"]
    target = back_to(request, form.cleaned_data["next"])
    if request.user.is_authenticated:
        services.member_preferences_update(member=request.user, language=language)
    # Resolve the page in the language it was shown in, then reverse it in the new one.
    with translation.override(translation.get_language_from_path(target) or settings.LANGUAGE_CODE):
        response = HttpResponseRedirect(translate_url(target, language))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


@require_POST
def theme_set(request: HttpRequest) -> HttpResponse:
    """The footer's theme switcher: back to the page, now in that theme. A member's choice is
    saved on the member; the cookie keeps it for a visitor (and after logging out)."""
    form = ThemeForm(request.POST)
    if not form.is_valid():
        return HttpResponse(_("Unknown theme."), status=400)
    theme = form.cleaned_data["theme"]
    if request.user.is_authenticated:
        services.member_preferences_update(member=request.user, theme=theme)
    response = HttpResponseRedirect(back_to(request, form.cleaned_data["next"]))
    response.set_cookie(
        THEME_COOKIE_NAME,
        theme,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=request.is_secure(),
        httponly=True,
    )
    return response


def back_to(request: HttpRequest, target: str, default: str = "/") -> str:
    """A page of this site to go back to after a POST, else ``default`` (the home page)."""
    if target and url_has_allowed_host_and_scheme(
        target, {request.get_host()}, request.is_secure()
    ):
        return target
    return default


def _loopback(request: HttpRequest) -> bool:
    """Whether the request comes from this machine (the client as config/edge.py finds it)."""
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


def local_mailbox(request: HttpRequest) -> HttpResponse:
    """The mails a local run (DEBUG, no SMTP) wrote to its folder, newest first, so a
    newcomer can follow the sign-up's confirmation link; to this machine's browsers only.
    Not there in production."""
    if not settings.LOCAL_MAILBOX or not _loopback(request):
        raise Http404
    folder = Path(settings.EMAIL_FILE_PATH)
    files = sorted(folder.glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True)
    mails = [path.read_text(errors="replace") for path in files[:20]]
    return render(request, "accounts/mailbox.html", {"mails": mails})
