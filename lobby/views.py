"""The lobby: its page and the forms of SPEC §10 (open, join, leave, cancel, Play now,
challenge, accept, decline), and the members' pages. Each form calls one service; a
refusal is shown in the member's language and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import ReportForm
from accounts.selectors import (
    block_sides,
    follow_counts,
    followed_names,
    follower_names,
    follows,
    member_by_username,
    members_named,
)
from accounts.views import members_back_to
from games import selectors as table_selectors
from games import services as table_services
from games import timing
from games.access import rated_pairs_full
from games.engine import VARIANTS
from games.errors import TableError
from games.services import match_url
from lobby import selectors, services
from lobby.forms import BotsForm, ChallengeForm, PlayNowForm, PracticeForm, TableForm
from lobby.standings import arenas_listed, member_arenas
from ratings.selectors import member_rating_panel

RATED_VARIANTS = [key for key, v in VARIANTS.items() if v.rated_scale]
MEMBER_QUERY_LENGTH = 150  # no name is longer


def home(request: HttpRequest) -> HttpResponse:
    """The lobby: the match on VOG TV drawn live, tables waiting for players, the member's
    own games and challenges, tables being played, members online, the best players."""
    now = timing.now()
    context = selectors.lobby(request.user, now)
    context.update(
        tv=table_selectors.tv_board(now=now),
        tv_next_ms=int(settings.TV_NEXT_SECONDS * 1000),
        arenas=arenas_listed(finished=False),
        table_form=TableForm(),
        practice_form=PracticeForm(auto_id="id_practice_%s"),
        play_forms=_play_forms(),
        rated_variants=RATED_VARIANTS,
    )
    return render(request, "lobby/home.html", context)


def lists(request: HttpRequest) -> HttpResponse:
    """The lobby's lists alone: what the page fetches again when the lobby changes."""
    return render(request, "lobby/_lists.html", selectors.lobby(request.user, timing.now()))


def _play_forms() -> list[tuple[str, PlayNowForm]]:
    return [
        (key, PlayNowForm(initial={"clock": "3+2"}, auto_id=f"id_play_{key}_%s"))
        for key in RATED_VARIANTS
    ]


def _back_url(request: HttpRequest, default: str = "") -> str:
    """Where a form's ``next`` says to go back to (on this site only), else ``default``."""
    target = request.POST.get("next") or default or reverse("home")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = reverse("home")
    return target


def _back(request: HttpRequest, default: str = "") -> HttpResponseRedirect:
    return HttpResponseRedirect(_back_url(request, default))


def _refused(request: HttpRequest, form=None, failure: TableError | None = None):
    if failure is not None:
        messages.error(request, failure.message)
    if form is not None:
        for field, errors in form.errors.items():
            for error in errors:
                label = form.fields[field].label if field in form.fields else None
                messages.error(request, f"{label}: {error}" if label else error)
    return _back(request)


def _attempt(request: HttpRequest, action: Callable[[], object], done: Callable[[object], str]):
    """Run a service; on success go where ``done`` says, else back with the refusal."""
    try:
        result = action()
    except TableError as failure:
        return _refused(request, failure=failure)
    return HttpResponseRedirect(done(result))


def _login_to_play(request: HttpRequest) -> HttpResponseRedirect:
    messages.error(request, _("Log in to take a seat."))
    return HttpResponseRedirect(f"{reverse('account_login')}?next={reverse('home')}")


@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return _login_to_play(request)
    form = TableForm(request.POST)
    if not form.is_valid():
        return _refused(request, form)
    return _attempt(
        request,
        lambda: services.table_open(
            host=request.user,
            private=form.cleaned_data["private"],
            now=timing.now(),
            **form.settings,
        ),
        match_url,
    )


def _table_action(service, *, by_token: bool = False):
    @require_POST
    def view(request: HttpRequest, match_id: int | None = None, token: str | None = None):
        if not request.user.is_authenticated:
            return _login_to_play(request)
        where = {"token": token} if by_token else {"match_id": match_id}
        return _attempt(
            request,
            lambda: service(member=request.user, now=timing.now(), **where),
            lambda match: match_url(match) if match is not None else reverse("home"),
        )

    return view


table_join = _table_action(services.table_join)
table_leave = _table_action(services.table_leave)
table_cancel = _table_action(services.table_cancel)
private_join = _table_action(services.table_join, by_token=True)
private_leave = _table_action(services.table_leave, by_token=True)
private_cancel = _table_action(services.table_cancel, by_token=True)


@require_POST
def play_now(request: HttpRequest, variant: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return _login_to_play(request)
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        return _refused(request, form)
    return _attempt(
        request,
        lambda: services.play_now(
            member=request.user, variant=variant, clock=form.cleaned_data["clock"], now=timing.now()
        ),
        match_url,
    )


@require_POST
def practice(request: HttpRequest) -> HttpResponse:
    """Play the computer."""
    if not request.user.is_authenticated:
        return _login_to_play(request)
    form = PracticeForm(request.POST)
    if not form.is_valid():
        return _refused(request, form)
    data = form.cleaned_data
    return _attempt(
        request,
        lambda: table_services.practice_start(
            member=request.user,
            board=data["board"],
            level=data["level"],
            member_starts=data["starts"] == "me",
            clock=data["clock"],
            now=timing.now(),
        ),
        match_url,
    )


def _bots_action(*, by_token: bool):
    @require_POST
    def view(request: HttpRequest, match_id: int | None = None, token: str | None = None):
        """The host fills the empty seats of a waiting table with the computer."""
        if not request.user.is_authenticated:
            return _login_to_play(request)
        form = BotsForm(request.POST)
        if not form.is_valid():
            return _refused(request, form)
        where = {"token": token} if by_token else {"match_id": match_id}
        return _attempt(
            request,
            lambda: services.table_fill_bots(
                member=request.user, level=form.cleaned_data["level"], now=timing.now(), **where
            ),
            match_url,
        )

    return view


table_bots = _bots_action(by_token=False)
private_bots = _bots_action(by_token=True)


@require_POST
def challenge(request: HttpRequest, username: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return _login_to_play(request)
    challenged = member_by_username(username)
    if challenged is None:
        raise Http404(_("No member has that name."))
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        return _refused(request, form)
    try:
        services.challenge_send(
            challenger=request.user, challenged=challenged, now=timing.now(), **form.settings
        )
    except TableError as failure:
        return _refused(request, failure=failure)
    # The profile shows the challenge while it waits (no message that could outlive it:
    # a bot accepts before the page loads, and the member goes straight to the table).
    return _back(request, reverse("profile", args=[challenged.username]))


def _challenge_action(service, *, goes_to_match: bool):
    @require_POST
    @members_back_to(lambda challenge_id: reverse("home"))  # the lobby shows challenges
    def view(request: HttpRequest, challenge_id: int) -> HttpResponse:
        return _attempt(
            request,
            lambda: service(challenge_id=challenge_id, member=request.user, now=timing.now()),
            # Declining or cancelling goes back where it was done (the lobby, a profile).
            (lambda match: match_url(match)) if goes_to_match else (lambda _: _back_url(request)),
        )

    return view


challenge_accept = _challenge_action(services.challenge_accept, goes_to_match=True)
challenge_decline = _challenge_action(services.challenge_decline, goes_to_match=False)
challenge_cancel = _challenge_action(services.challenge_cancel, goes_to_match=False)


def members(request: HttpRequest) -> HttpResponse:
    """Members found by the start of their name (``?q=``; open to visitors), each a link
    to their page."""
    query = request.GET.get("q", "").strip()[:MEMBER_QUERY_LENGTH]
    return render(
        request,
        "lobby/members.html",
        {"query": query, "names": members_named(query) if query else []},
    )


def developers(request: HttpRequest) -> HttpResponse:
    """The site's API for programs, in the reader's language: the read endpoints (SPEC §8)
    and the bot API (SPEC §15); docs/api.md and docs/bot-api.md have every field."""
    return render(request, "lobby/developers.html")


def developers_client(request: HttpRequest) -> FileResponse:
    """The example bot (bench/bot_client.py), to download and run."""
    client = Path(settings.BASE_DIR) / "bench" / "bot_client.py"
    if not client.is_file():
        raise Http404
    return FileResponse(
        client.open("rb"),
        as_attachment=True,
        filename="bot_client.py",
        content_type="text/x-python; charset=utf-8",
    )


def bots(request: HttpRequest) -> HttpResponse:
    """The bot accounts (SPEC §15): programs that play through the API, online ones first,
    with their ratings; each links to its page, where members challenge it."""
    from ratings.models import Scale

    page, lines = selectors.bots_listed(request.GET.get("page"), timing.now())
    return render(
        request,
        "lobby/bots.html",
        {"page": page, "lines": lines, "scales": [Scale(s) for s in selectors.BOT_SCALES]},
    )


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A member's page: their ratings, their matches (newest first, a page at a time), how
    many follow them and whom they follow (the lists for themselves only), a Challenge, a
    Follow and a Block button, and a form to report them."""
    member = member_by_username(username)
    if member is None:
        raise Http404(_("No member has that name."))
    # ``?vs=<name>``: only the matches the member played with that member.
    vs_name = request.GET.get("vs")
    vs = member_by_username(vs_name) if vs_name else None
    if vs_name and (vs is None or vs.pk == member.pk):
        raise Http404(_("No member has that name."))
    page, rows = selectors.member_matches(
        member, request.GET.get("page"), viewer=request.user, opponent=vs
    )
    now = timing.now()
    viewer = request.user
    own = viewer.pk == member.pk
    other = viewer.is_authenticated and not own
    # Whether the member blocked the viewer never shows: it only hides the challenge,
    # as turning challenges off does (SPEC §14).
    blocking, blocked = block_sides(viewer.pk, [member.pk]) if other else (False, False)
    followers, following = follow_counts(member.pk)
    return render(
        request,
        "lobby/profile.html",
        {
            "member": member,
            # Members only see when another was last on the site.
            "online": request.user.is_authenticated and selectors.member_online(member, now),
            "now": now,
            "page": page,
            "rows": rows,
            "vs": vs,
            # The viewer's record against the member, as lichess's crosstable gives it.
            "head_to_head": table_selectors.head_to_head(viewer, member) if other else None,
            "member_ratings": member_rating_panel(member.pk),
            "arenas": member_arenas(member),
            "challenge_form": ChallengeForm(initial={"variant": "fast", "clock": "3+2"}),
            "can_challenge": other and member.accepts_challenges and not blocking and not blocked,
            # The Bots page's Challenge button opens the form (SPEC §15).
            "challenge_open": "challenge" in request.GET,
            "challenge_waiting": other and selectors.challenge_waiting(viewer, member, now),
            "followers_count": followers,
            "following_count": following,
            "follower_names": follower_names(member.pk) if own else None,
            "followed_names": followed_names(member.pk) if own else None,
            "follows": other and follows(viewer.pk, member.pk),
            "blocking": blocking,
            "report_form": ReportForm() if other else None,
            # Rated matches between the two are used up for the day: a challenge is unrated.
            "rated_pair_full": request.user.is_authenticated
            and rated_pairs_full([request.user.pk, member.pk], now=now),
        },
    )
