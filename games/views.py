from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import ReportForm
from accounts.views import refused_json
from games import access, protocol, selectors, services, timing
from games import state as public
from games.board_svg import render_board
from games.colors import palette_for
from games.engine import VARIANTS, Position
from games.engine.clock import PRESETS
from games.errors import TableError
from games.topics import TOPICS, VARIANT_TOPICS


def table(request: HttpRequest, match_id: int) -> HttpResponse:
    """The table page of a public match: the board, the colour buttons, the match panel and
    chat; a waiting room while the table waits for players. A private match is never
    shown by id."""
    match = selectors.table_match(match_id=match_id)
    if match is None:
        raise Http404(_("No such table."))
    return _table_page(request, match)


def table_private(request: HttpRequest, token: str) -> HttpResponse:
    """A private table, reached by its invitation link only."""
    match = selectors.table_match(token=token)
    if match is None:
        raise Http404(_("No such table."))
    return _table_page(request, match)


def steps(request: HttpRequest, match_id: int | None = None, token: str | None = None):
    """Every position of every game so far (JSON), for replays and stepping back."""
    match = selectors.table_match(match_id=match_id, token=token)
    if match is None or not match.state:
        raise Http404(_("No such table."))
    return JsonResponse(selectors.match_steps(match))


def record(request: HttpRequest, match_id: int | None = None, token: str | None = None):
    """The match as a text file to keep and replay (docs/record.md)."""
    match = selectors.table_match(match_id=match_id, token=token)
    if match is None or not match.state:
        raise Http404(_("No such table."))
    response = HttpResponse(
        selectors.match_record_text(match), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="vog-filler-{match.pk}.txt"'
    return response


@require_http_methods(["GET", "POST"])
def analysis(request: HttpRequest, match_id: int | None = None, token: str | None = None):
    """The computer's review of a finished match (SPEC §13): GET reads it (``null`` when
    never asked), POST asks for it (asking again is harmless)."""
    found = selectors.table_id(match_id=match_id, token=token)
    if found is None:
        raise Http404(_("No such table."))
    if request.method == "POST":
        try:
            services.analysis_request(match_id=found, member=request.user, now=timing.now())
        except TableError as error:
            return refused_json(error.code, error.message)
    return JsonResponse({"analysis": selectors.match_analysis(found)})


@require_POST
def analysis_try(request: HttpRequest, match_id: int | None = None, token: str | None = None):
    """Another colour tried in a position of the replay (``game``, ``ply``, ``colour``):
    the computer's answer and the evaluation, or ``{"pending": true}`` while it is worked
    out (the page asks again)."""
    found = selectors.table_id(match_id=match_id, token=token)
    if found is None:
        raise Http404(_("No such table."))
    try:
        game, ply = int(request.POST.get("game", "")), int(request.POST.get("ply", ""))
    except ValueError:
        return refused_json("invalid", _("There is no such move in this game."))
    try:
        answer = services.analysis_try(
            match_id=found,
            member=request.user,
            game=game,
            ply=ply,
            colour=request.POST.get("colour", ""),
            now=timing.now(),
        )
    except TableError as error:
        return refused_json(error.code, error.message)
    return JsonResponse(answer if answer is not None else {"pending": True})


def tv(request: HttpRequest) -> HttpResponse:
    """VOG TV, open to visitors: the table page of the match on TV (``selectors.tv_match``)
    as a spectator sees it, live over the table's socket; when that match ends, the page
    moves on to the next (``static/js/tv.js``). With no match in play, the site's match of
    two computers is started here as beat would (``services.tv_match_keep``; one at most)."""
    match = selectors.tv_match()
    if match is None and settings.TV_HOUSE_MATCH:
        match = services.tv_match_keep(now=timing.now())
    if match is None:
        return render(request, "games/tv_empty.html")
    next_ms = int(settings.TV_NEXT_SECONDS * 1000)
    return _table_page(request, match, template="games/tv.html", extra={"tv_next_ms": next_ms})


def tv_board(request: HttpRequest) -> HttpResponse:
    """The home page's live board alone (the match on TV drawn small): what the page
    fetches in its place when the match it shows has ended."""
    return render(
        request,
        "games/_live_board.html",
        {"tv": selectors.tv_board(), "tv_next_ms": int(settings.TV_NEXT_SECONDS * 1000)},
    )


def _table_page(
    request: HttpRequest,
    match,
    *,
    template: str = "games/table.html",
    extra: dict | None = None,
) -> HttpResponse:
    ws_path = f"/ws/t/{match.token}/" if match.private else f"/ws/table/{match.pk}/"
    if match.status == match.Status.WAITING:
        seats = selectors.waiting_seats(match)
        seated = request.user.is_authenticated and any(
            s.member_id == request.user.pk for s in seats
        )
        # Joining would make a pair that has played its rated matches for the day.
        unrated_if_joined = (
            match.rated
            and request.user.is_authenticated
            and not seated
            and access.rated_pairs_full(
                [s.member_id for s in seats] + [request.user.pk], now=timing.now()
            )
        )
        return render(
            request,
            "games/waiting.html",
            {
                "match": match,
                "seats": seats,
                "free": VARIANTS[match.variant].seats - len(seats),
                "seated": seated,
                "unrated_if_joined": unrated_if_joined,
                "host": request.user.is_authenticated and match.created_by_id == request.user.pk,
                "can_fill": not match.rated and VARIANTS[match.variant].seats >= 3,
                "topic": TOPICS[match.variant],
                "ws_path": ws_path,
                "invite_url": request.build_absolute_uri(
                    reverse("table_private", args=[match.token])
                )
                if match.private
                else None,
            },
        )
    engine_state, seats, state = selectors.table_message(match)
    # A bot account plays through the API only (SPEC §15): its table page is a spectator's.
    seat = None if getattr(request.user, "is_bot", False) else access.seat_of(seats, request.user)
    if seat is not None:  # the player has seen their table (an arena asks, SPEC §12)
        services.seat_shown(match_id=match.pk, seat=seat, now=timing.now())
    position = Position.from_text(state["game"]["position"])
    state["you"] = public.you(
        state,
        seat,
        position,
        can_abort=seat in public.abortable(engine_state),
        can_berserk=seat in public.berserkers(match, engine_state),
    )
    muted = request.user.is_authenticated and request.user.is_chat_muted(timing.now())
    # Once it is over, a player of a rated match may play someone new at once: Play now
    # with its variant and clock (SPEC §10). Not after an arena's, which pairs by itself.
    new_opponent = (
        seat is not None
        and match.rated
        and match.arena_id is None
        and match.clock in PRESETS
        and VARIANTS[match.variant].rated_scale is not None
    )
    # The quick messages, for a player with another member at the table to read them.
    others = any(row.member_id is not None and row.seat != seat for row in seats)
    crosstable = _crosstable(seats)
    return render(
        request,
        template,
        {
            **(extra or {}),
            "match": match,
            "state": state,
            "seat": seat,
            "ws_path": ws_path,
            "practice": match.practice,
            "board_svg": render_board(position, interactive=True, css_class="table-board"),
            "palette": palette_for(position.colors),
            "topic": TOPICS[match.variant],
            "variant": VARIANTS[match.variant],
            "chat_muted": muted,
            "report_form": ReportForm(),
            "chat_muted_until": getattr(request.user, "chat_muted_until", None),
            "new_opponent": new_opponent,
            "chat_presets": protocol.CHAT_PRESETS,
            "chat_presets_shown": seat is not None and others,
            "crosstable": crosstable,
        },
    )


def _crosstable(seats) -> dict | None:
    """Two members' score in the public matches they finished against each other, as
    lichess's crosstable gives it under a game; None at other tables or before any."""
    if len(seats) != 2 or any(row.member_id is None for row in seats):
        return None
    first, second = seats
    record = selectors.head_to_head(first.member_id, second.member_id, private=False)
    if not record.matches:
        return None
    points = [selectors.halves(value) for value in record.score]
    return {"names": [first.username, second.username], "points": points}


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "rules/index.html",
        {"basics": TOPICS["basics"], "topics": VARIANT_TOPICS},
    )


def rules_topic(request: HttpRequest, topic: str) -> HttpResponse:
    if topic not in TOPICS:
        raise Http404(_("No such topic."))
    try:
        template = get_template(f"rules/{get_language()}/{topic}.html")
    except TemplateDoesNotExist:
        raise Http404(_("No such topic.")) from None
    return HttpResponse(
        template.render(
            {"topic": TOPICS[topic], "topics": VARIANT_TOPICS, "variant": VARIANTS.get(topic)},
            request,
        )
    )
