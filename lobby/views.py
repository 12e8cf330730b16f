from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from accounts.selectors import member_by_username
from games.selectors import live_matches, recent_matches_of


def home(request: HttpRequest) -> HttpResponse:
    """The lobby: the tables being played now, to watch or to join as a player."""
    return render(request, "lobby/home.html", {"live": live_matches()})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A member's page: who they are and their latest matches."""
    member = member_by_username(username)
    if member is None:
        raise Http404(_("No member has that name."))
    return render(
        request, "lobby/profile.html", {"member": member, "matches": recent_matches_of(member)}
    )
