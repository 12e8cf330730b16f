"""The public JSON API (SPEC §8, docs/api.md): read-only, no login, open to any browser
tool (CORS for GET). Lists are paginated with a stable order; a match carries an ETag from
its version and rating changes, so clients revalidate cheaply; nothing is cached long (a
finished match's ratings can still change when a moderator annuls another match)."""

from __future__ import annotations

import hashlib

from django.core.paginator import Paginator
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from accounts.selectors import member_by_username
from games.engine import VARIANTS
from games.engine.match import MatchState
from games.models import SEAT_LETTERS, Match
from games.selectors import api_match, member_recent_matches
from games.topics import variant_name
from lobby import selectors
from ratings.selectors import match_rating_changes, member_ratings

PAGE_SIZE = 50


def _json(data, status: int = 200, etag: str | None = None) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"  # any browser tool may read it
    response["Cache-Control"] = "no-cache"  # revalidate every time (ETag)
    if etag:
        response["ETag"] = etag
    return response


def _not_found(detail: str) -> JsonResponse:
    return _json({"error": "not_found", "detail": detail}, status=404)


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


@require_GET
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


@require_GET
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
                        "rating": _rating(table.ratings.get(seat.member_id)),
                    }
                    for seat in table.seats
                ],
                "free_seats": table.free,
                "created": match.created_at.isoformat(),
            }
        )
    return _json(_page(request, rows, "tables", request.path))


def _letters(seats) -> list[str]:
    return [SEAT_LETTERS[s] for s in seats]


def match_record(match: Match, seats: list, changes: list[dict]) -> dict:
    """A match as the API gives it: settings, seats, every game's start, moves and end,
    the result and the rating changes."""
    state = MatchState.from_dict(match.state)
    member_seat = {seat.member_id: seat.letter for seat in seats if seat.member_id}
    clock = None
    if match.clock:
        minutes, seconds = match.clock.split("+")
        clock = {
            "preset": match.clock,
            "bank_ms": int(minutes) * 60_000,
            "increment_ms": int(seconds) * 1000,
        }
    result = None
    if state.reason is not None:
        result = {"winners": _letters(state.winners), "reason": state.reason}
    return {
        "id": match.pk,
        "variant": match.variant,
        "rated": match.rated,
        "practice": match.practice,
        "status": match.status,
        "format": match.format,
        "clock": clock,
        "created": match.created_at.isoformat(),
        "started": match.started_at.isoformat() if match.started_at else None,
        "finished": match.finished_at.isoformat() if match.finished_at else None,
        "seats": [
            {
                "seat": seat.letter,
                "username": seat.member.username if seat.member else None,
                "bot_level": seat.bot_level,
                "rating": seat.rating,
            }
            for seat in seats
        ],
        "games": [
            {
                "number": game.number,
                "start": game.start.to_text(),
                "moves": list(game.moves),
                "final": game.position.to_text(),
                "scores": list(game.position.scores),
                "winners": _letters(game.winners),
                "reason": game.reason,
            }
            for game in state.games
        ],
        "points": list(state.points),
        "totals": list(state.totals),
        "result": result,
        "rating_changes": [
            {
                "seat": member_seat.get(change["member_id"]),
                "username": change["username"],
                "scale": change["scale"],
                "before": round(change["rating_before"], 1),
                "after": round(change["rating_after"], 1),
                "rd_after": round(change["rd_after"], 1),
                "change": change["change"],
            }
            for change in changes
        ],
    }


@require_GET
def match(request: HttpRequest, key: str) -> JsonResponse:
    """``GET /api/matches/<id>/`` (a public match) or ``/api/matches/<token>/`` (any)."""
    found = api_match(match_id=int(key)) if key.isdigit() else api_match(token=key)
    if found is None or found.status == Match.Status.WAITING:
        return _not_found("No match has that id.")
    seats = list(found.seats.all())
    changes = match_rating_changes(found.pk) if found.rated else []
    fingerprint = f"{found.version}:" + ",".join(
        f"{c['member_id']}:{c['rating_after']:.4f}" for c in changes
    )
    etag = '"' + hashlib.sha256(fingerprint.encode()).hexdigest()[:20] + '"'
    if request.headers.get("If-None-Match") == etag:
        response = _json({}, etag=etag)
        response.status_code = 304
        response.content = b""
        return response
    return _json(match_record(found, seats, changes), etag=etag)


@require_GET
def user(request: HttpRequest, username: str) -> JsonResponse:
    """``GET /api/users/<username>/``: ratings per scale and recent matches."""
    member = member_by_username(username)
    if member is None:
        return _not_found("No member has that name.")
    recent = member_recent_matches(member, limit=20)
    return _json(
        {
            "username": member.username,
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
            "recent_matches": [
                {
                    "id": m.pk,
                    "variant": m.variant,
                    "rated": m.rated,
                    "status": m.status,
                    "finished": m.finished_at.isoformat() if m.finished_at else None,
                    "players": [s.member.username if s.member else None for s in m.seats.all()],
                    "result": {
                        "winners": _letters(m.state.get("winners", [])),
                        "reason": m.result_reason,
                    }
                    if m.status == Match.Status.FINISHED
                    else None,
                }
                for m in recent
            ],
        }
    )
