from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from ratings.models import Scale
from ratings.selectors import leaderboard as leaderboard_of
from ratings.selectors import top_players_by_scale

INDEX_SIZE = 5


def leaderboards(request: HttpRequest) -> HttpResponse:
    """The top of every scale, each linking to its whole leaderboard."""
    boards = top_players_by_scale(INDEX_SIZE)
    return render(
        request,
        "ratings/leaderboards.html",
        {"boards": [(Scale(scale), players) for scale, players in boards.items()]},
    )


def leaderboard(request: HttpRequest, scale: str) -> HttpResponse:
    """One scale's leaderboard: established ratings, best first."""
    if scale not in Scale.values:
        raise Http404(_("There is no rated scale of that name."))
    return render(
        request,
        "ratings/leaderboard.html",
        {"scale": Scale(scale), "scales": Scale, "players": leaderboard_of(scale)},
    )
