"""The public JSON API (SPEC §8), read-only, no login: what other tools may read."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from lobby import selectors


def _json(data, status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"  # any browser tool may read it
    response["Cache-Control"] = "no-cache"
    return response


def _rating(rating) -> float | None:
    return None if rating is None or rating.provisional else round(rating.rating)


@require_GET
def tables(request: HttpRequest) -> JsonResponse:
    """``GET /api/tables/``: the public tables waiting for players, oldest first."""
    rows = []
    for table in selectors.waiting_tables():
        match = table.match
        host = next((s for s in table.seats if s.member_id == match.created_by_id), None)
        rows.append(
            {
                "id": match.pk,
                "variant": match.variant,
                "clock": match.clock or None,
                "format": match.format,
                "rated": match.rated,
                "host": host.member.username if host and host.member else None,
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
    return _json({"tables": rows})
