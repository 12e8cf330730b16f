"""The site's error pages, in the person's language: a page that is not there (404), an
address that takes a form's button and was opened as a page (405), a form sent with an
expired security token (403), and the server's own failure (500). The first three are
drawn in the site's layout; the 500 page is drawn without it (it reads nothing, since
what failed may be the database).

API paths answer JSON of their own (``lobby.api``): these pages are for people."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: the view's own reason (``Http404(_("No member has that name."))``)
    when it gave one, else that there is no page here."""
    reason = exception.args[0] if exception.args else None
    if not isinstance(reason, str | Promise):
        reason = _("There is no page at this address.")
    return _page(request, 404, _("Page not found"), reason)


def _page(request: HttpRequest, status: int, title, reason) -> HttpResponse:
    return render(request, "error.html", {"title": title, "reason": reason}, status=status)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the page is drawn from its template alone."""
    return HttpResponse(loader.get_template("500.html").render(), status=500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form sent from a page opened too long ago (or from another
    tab of an earlier session) is refused; the person is told to load the page again."""
    return _page(
        request,
        403,
        _("The form has expired"),
        _(
            "Nothing was done: the page was opened too long ago, or before you logged in or "
            "out in another tab. Go back, load the page again and send the form once more."
        ),
    )


class ButtonAddressPage:
    """A form's address opened as a page (a bookmark, a reload, a log-in that went back to
    it) answers 405 with an empty body from ``require_POST``: show a page that says what
    happened instead of the browser's blank error. The status and ``Allow`` stay."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.method != "GET":
            return response
        page = _page(
            request,
            405,
            _("Nothing to show here"),
            _(
                "This address is a button's, not a page, and opening it did nothing. Go back "
                "to the page with the button and press it again."
            ),
        )
        page["Allow"] = response.get("Allow", "POST")
        return page
