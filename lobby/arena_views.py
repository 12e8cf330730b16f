"""Arena pages (SPEC §12): the list, an arena's page with its standings (a fragment the
page fetches again on each ``{"type": "arena"}`` from ``/ws/arena/<id>/``), and entering
and withdrawing (forms with CSRF)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.views import refused_json, wants_json
from games import timing
from games.errors import TableError
from games.topics import variant_name
from lobby import services
from lobby.availability import availability
from lobby.models import Arena, ArenaEntry
from lobby.standings import arena_table_shown, arenas_listed

SHOWN = 10  # the top of the table; the member's own line is added below it


def arenas(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/arenas.html", {"listed": arenas_listed()})


def _found(arena_id: int) -> Arena:
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        raise Http404(_("This arena does not exist."))
    return arena


def _context(request: HttpRequest, arena: Arena) -> dict:
    table = arena_table_shown(arena)
    me = request.user.pk if request.user.is_authenticated else None
    mine = next((line for line in table if line.standing.member == me), None)
    entry = ArenaEntry.objects.filter(arena=arena, member_id=me).first() if me is not None else None
    # What the pairing round sees of the member (one function for both): their tables in
    # play, this arena's pairing among them, or why they wait.
    waiting = availability([me], now=timing.now())[me] if me is not None else None
    pairing = next((t for t in waiting.tables if t.arena_id == arena.pk), None) if waiting else None
    return {
        "arena": arena,
        "variant": variant_name(arena.variant),
        "table": table[:SHOWN],
        "mine": mine if mine is not None and mine.rank > SHOWN else None,
        "me": me,
        "entry": entry,
        "waiting": waiting,
        "pairing": pairing,
        # Paired while between two pages (the notice found no page to send there): the
        # page goes to the table as it loads or looks again.
        "go": pairing if pairing is not None and pairing.shown_at is None else None,
        "open": arena.status in (Arena.Status.UPCOMING, Arena.Status.RUNNING)
        and timing.now() < arena.ends_at,
    }


def arena(request: HttpRequest, arena_id: int) -> HttpResponse:
    found = _found(arena_id)
    return render(request, "lobby/arena.html", _context(request, found))


def standings(request: HttpRequest, arena_id: int) -> HttpResponse:
    """The part of the arena's page that changes: fetched again on each change."""
    found = _found(arena_id)
    return render(request, "lobby/_arena_live.html", _context(request, found))


def _act(request: HttpRequest, arena_id: int, service) -> HttpResponse:
    back = reverse("arena", args=[arena_id])
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse('account_login')}?next={back}")
    try:
        service(arena_id=arena_id, member=request.user, now=timing.now())
    except TableError as failure:
        if failure.code == "rate_limited":  # 429, as every limit of the site answers
            if wants_json(request):
                return refused_json(failure.code, failure.message)
            messages.error(request, failure.message)
            found = _found(arena_id)
            return render(request, "lobby/arena.html", _context(request, found), status=429)
        messages.error(request, failure.message)
    return HttpResponseRedirect(back)


@require_POST
def join(request: HttpRequest, arena_id: int) -> HttpResponse:
    return _act(request, arena_id, services.arena_join)


@require_POST
def withdraw(request: HttpRequest, arena_id: int) -> HttpResponse:
    return _act(request, arena_id, services.arena_withdraw)
