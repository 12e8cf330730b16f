from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import access, selectors, services, timing
from games import state as public
from games.board_svg import render_board
from games.colors import palette_for
from games.engine import VARIANTS, Position
from games.engine.match import MatchState
from games.errors import TableError
from games.forms import TableForm
from games.topics import TOPICS, VARIANT_TOPICS


def table(request: HttpRequest, match_id: int) -> HttpResponse:
    """The table page: the board, the colour buttons, the match panel and chat."""
    match = selectors.match_for_table(match_id)
    if match is None:
        raise Http404(_("No such table."))
    seats = access.seats_for(match.pk)
    state = public.build(match, MatchState.from_dict(match.state), seats, now=timing.now())
    seat = access.seat_of(seats, request.user)
    position = Position.from_text(state["game"]["position"])
    state["you"] = public.you(state, seat)
    return render(
        request,
        "games/table.html",
        {
            "match": match,
            "state": state,
            "seat": seat,
            "board_svg": render_board(position, interactive=True, css_class="table-board"),
            "palette": palette_for(position.colors),
            "topic": TOPICS[match.variant],
            "variant": VARIANTS[match.variant],
        },
    )


@login_required
def table_new(request: HttpRequest) -> HttpResponse:
    """Until the lobby exists: seat given members at a new table and start the match."""
    form = TableForm(request.POST or None, host=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_create(
                variant=form.cleaned_data["variant"],
                members=form.members,
                now=timezone.now(),
                rated=form.cleaned_data["rated"],
                single_game=form.cleaned_data["single_game"],
                clock=form.cleaned_data["clock"],
                created_by=request.user,
            )
        except TableError as failure:
            form.add_error(None, failure.message)
        else:
            return HttpResponseRedirect(reverse("table", args=[match.pk]))
    return render(request, "games/table_new.html", {"form": form})


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
