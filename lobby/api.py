"""The public JSON API (SPEC §8, docs/api.md): read-only, no login, open to any browser
tool (CORS for GET). Lists are paginated with a stable order; a match carries an ETag from
its version and rating changes, so clients revalidate cheaply; nothing is cached long (a
finished match's ratings can still change when a moderator annuls another match)."""

from __future__ import annotations

from functools import wraps

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import condition

from accounts.errors import Refusal
from accounts.selectors import member_by_username
from games import selectors as matches
from games.engine import VARIANTS
from games.models import SEAT_LETTERS, Match
from games.selectors import api_match, member_recent_matches
from games.topics import variant_name
from lobby import selectors
from lobby.api_access import api_error, authenticate, member_language, refusal_response
from lobby.models import Arena
from lobby.standings import arena_table_shown, arenas_listed
from ratings.selectors import member_ratings

PAGE_SIZE = 50


def _json(data, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})


def _read(view):
    """A read endpoint: GET (and HEAD) only, a JSON 405 otherwise; no CSRF check, since it
    changes nothing (a program's POST here is told the method, not refused as a form).
    Every answer, a 304 included: any browser tool may read it, and revalidates each time
    (ETag). Open without a token; a token that is sent must be valid (SPEC §15: 401
    otherwise, as on every API call)."""

    @csrf_exempt
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = _read_refusal(request)
        if response is None:
            response = view(request, *args, **kwargs)
            response["Cache-Control"] = "no-cache"
        response["Access-Control-Allow-Origin"] = "*"
        return response

    return wrapped


def _read_refusal(request: HttpRequest) -> HttpResponse | None:
    """Why a read is refused before its view runs (another method, a bad token), or None."""
    if request.method not in ("GET", "HEAD"):
        with translation.override(member_language(request)):
            response = api_error("method", _("Use %(methods)s here.") % {"methods": "GET"})
        response["Allow"] = "GET, HEAD"
        return response
    if "Authorization" in request.headers:
        try:
            authenticate(request, scope=None)
        except Refusal as refusal:
            return refusal_response(request, refusal)
    return None


def _not_found(request: HttpRequest, detail) -> JsonResponse:
    """404, its ``message`` in the request's language (``member_language``), as every
    error of the API has it; ``detail`` repeats it for the clients written before."""
    with translation.override(member_language(request)):
        text = str(detail)
        return _json({"error": "not_found", "message": text, "detail": text}, status=404)


def _page(request: HttpRequest, items: list, key: str, path: str) -> dict:
    """A page of ``items`` (already in their stable order) with links to its neighbours."""
    page = Paginator(items, PAGE_SIZE).get_page(request.GET.get("page"))
    return {
        "count": page.paginator.count,
        "page": page.number,
        "next": f"{path}?page={page.next_page_number()}" if page.has_next() else None,
        "previous": f"{path}?page={page.previous_page_number()}" if page.has_previous() else None,
        key: list(page.object_list),
    }


def _rating(rating) -> float | None:
    return None if rating is None or rating.provisional else round(rating.rating)


@_read
def variants(request: HttpRequest) -> JsonResponse:
    """``GET /api/variants/``: every variant of SPEC §2."""
    return _json(
        {
            "variants": [
                {
                    "key": key,
                    "name": str(variant_name(key)),
                    "shape": v.shape,
                    "width": v.width,
                    "height": v.height,
                    "colors": v.colors,
                    "seats": v.seats,
                    "teams": [[SEAT_LETTERS[s] for s in team] for team in v.teams]
                    if v.teams
                    else None,
                    "format": v.format,
                    "rated_scale": v.rated_scale,
                }
                for key, v in VARIANTS.items()
            ]
        }
    )


@_read
def tables(request: HttpRequest) -> JsonResponse:
    """``GET /api/tables/``: the public tables waiting for players, oldest first."""
    rows = []
    for table in selectors.waiting_tables(limit=None):
        match = table.match
        rows.append(
            {
                "id": match.pk,
                "variant": match.variant,
                "clock": match.clock or None,
                "format": match.format,
                "rated": match.rated,
                "host": match.created_by.username if match.created_by else None,
                "seats": [
                    {
                        "seat": seat.letter,
                        "username": seat.member.username if seat.member else None,
                        "title": "BOT" if seat.member and seat.member.is_bot else None,
                        "bot": seat.bot_level,
                        "rating": _rating(table.ratings.get(seat.member_id)),
                    }
                    for seat in table.seats
                ],
                "free_seats": table.free,
                "created": match.created_at.isoformat(),
            }
        )
    return _json(_page(request, rows, "tables", request.path))


def _match_etag(request: HttpRequest, key: str) -> str | None:
    """The match's version and its rating changes (annulling another match can change
    them): what a client revalidates against. None for no such match."""
    found = _find(key)
    return None if found is None else matches.match_etag(found)


def _find(key: str) -> Match | None:
    """A public match by id, any by its token; None for a table still waiting."""
    by_id = key.isascii() and key.isdigit() and len(key) <= 18
    found = api_match(match_id=int(key)) if by_id else api_match(token=key)
    return None if found is None or found.status == Match.Status.WAITING else found


@_read
@condition(etag_func=_match_etag)
def match(request: HttpRequest, key: str) -> JsonResponse:
    """``GET /api/matches/<id>/`` (a public match) or ``/api/matches/<token>/`` (any);
    ``If-None-Match`` with the current ETag answers 304 (Django's ``condition``)."""
    found = _find(key)
    if found is None:
        return _not_found(request, _("No match has that id."))
    return _json(matches.match_record(found))


@_read
def user(request: HttpRequest, username: str) -> JsonResponse:
    """``GET /api/users/<username>/``: ratings per scale and recent matches."""
    member = member_by_username(username)
    if member is None:
        return _not_found(request, _("No member has that name."))
    recent = member_recent_matches(member, limit=20)
    return _json(
        {
            "username": member.username,
            "title": "BOT" if member.is_bot else None,
            "joined": member.date_joined.date().isoformat(),
            "ratings": {
                record.scale: {
                    "rating": round(record.rating, 1),
                    "rd": round(record.rd, 1),
                    "volatility": round(record.volatility, 6),
                    "provisional": record.provisional,
                    "matches": record.matches,
                    "wins": record.wins,
                    "draws": record.draws,
                    "losses": record.losses,
                }
                for record in member_ratings(member.pk)
            },
            "recent_matches": [matches.match_summary(m) for m in recent],
        }
    )


@_read
def crosstable(request: HttpRequest, username: str, opponent: str) -> JsonResponse:
    """``GET /api/users/<username>/vs/<opponent>/``: the two members' public matches
    finished against each other, counted from the first's side, and each one's score."""
    member, other = member_by_username(username), member_by_username(opponent)
    if member is None or other is None:
        return _not_found(request, _("No member has that name."))
    if member.pk == other.pk:
        return _not_found(request, _("Name two different members."))
    record = matches.head_to_head(member, other, private=False)
    first, second = record.score
    return _json(
        {
            "users": {member.username: first, other.username: second},
            "matches": record.matches,
            "won": record.won,
            "drawn": record.drawn,
            "lost": record.lost,
        }
    )


def _arena(arena: Arena, entrants: int) -> dict:
    return {
        "id": arena.pk,
        "name": arena.title,
        "variant": arena.variant,
        "clock": arena.clock,
        "starts": arena.starts_at.isoformat(),
        "minutes": arena.minutes,
        "status": arena.status,
        "entrants": entrants,
    }


@_read
def arenas(request: HttpRequest) -> JsonResponse:
    """``GET /api/arenas/``: running, upcoming and recently finished arenas (SPEC §12)."""
    listed = arenas_listed()
    return _json(
        {
            key: [_arena(arena, arena.entrant_count) for arena in listed[key]]
            for key in ("running", "upcoming", "finished")
        }
    )


@_read
def arena(request: HttpRequest, arena_id: int) -> JsonResponse:
    """``GET /api/arenas/<id>/``: an arena with its standings, each member's results."""
    found = Arena.objects.filter(pk=arena_id).first()
    if found is None:
        return _not_found(request, _("No arena has that id."))
    table = arena_table_shown(found)
    data = _arena(found, found.entries.filter(active=True).count())
    data["standings"] = [
        {
            "rank": line.rank,
            "username": line.username,
            "points": line.standing.points,
            "rating": line.rating,
            "performance": None
            if line.standing.performance is None
            else round(line.standing.performance),
            "fire": line.standing.fire,
            "results": [
                {
                    "match": match_id,
                    "opponent": opponent,
                    "outcome": scored.played.outcome,
                    "points": scored.points,
                    "berserk": scored.played.berserk,
                    "annulled": scored.played.annulled,
                }
                for scored, opponent, match_id in zip(
                    line.standing.results, line.opponents, line.matches, strict=True
                )
            ],
        }
        for line in table
    ]
    return _json(data)


@csrf_exempt
def unknown(request: HttpRequest) -> HttpResponse:
    """Any other path under ``/api/``: a JSON 404 that a program can read (not the site's
    page), naming the endpoint meant when only a trailing slash is off; a read asked
    without its slash is redirected, as Django does for pages (``APPEND_SLASH``)."""
    path = request.path_info
    other = path[:-1] if path.endswith("/") else path + "/"
    try:
        meant = resolve(other).url_name != "api_unknown"
    except Resolver404:
        meant = False
    if meant and other.endswith("/") and request.method in ("GET", "HEAD"):
        return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
    with translation.override(member_language(request)):
        if meant:
            message = _("There is no such API endpoint: did you mean %(path)s?") % {"path": other}
        else:
            message = _("There is no such API endpoint.")
        response = api_error("not_found", message, status=404)
    response["Access-Control-Allow-Origin"] = "*"
    return response
