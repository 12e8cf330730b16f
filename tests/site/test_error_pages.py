"""The error pages a person can meet are in their language and say what happened: a page
that is not there (with the view's own reason), a form's address opened as a page, a form
sent with an expired security token, and the server's own failure."""

import pytest
from django.test import Client
from django.utils import translation

pytestmark = pytest.mark.django_db


def translated(language: str, text: str) -> str:
    with translation.override(language):
        shown = translation.gettext(text)
    assert shown != text, f"{text!r} is not translated into {language}"
    return shown


def test_a_missing_page_is_the_sites_page_in_the_persons_language(client):
    page = client.get("/es/nothing/")
    assert page.status_code == 404
    body = page.content.decode()
    assert translated("es", "Page not found") in body
    assert translated("es", "There is no page at this address.") in body
    assert 'class="site-header"' in body and '<html lang="es"' in body


def test_a_missing_page_says_the_views_own_reason(client):
    body = client.get("/el/@/nobody/").content.decode()
    assert translated("el", "No member has that name.") in body
    assert translated("el", "There is no page at this address.") not in body


def test_a_forms_address_opened_as_a_page_says_what_happened(client, make_member):
    client.force_login(make_member("ann"))
    for path in ("/nl/practice/", "/nl/@/ann/follow/", "/nl/tables/"):
        page = client.get(path)
        assert page.status_code == 405 and page["Allow"] == "POST", path
        body = page.content.decode()
        assert translated("nl", "Nothing to show here") in body, path
    # The API's own 405 stays JSON.
    assert client.post("/api/variants/").json()["error"] == "method"


def test_a_visitor_sent_to_log_in_from_a_forms_button_comes_back_to_its_page(client):
    follow = client.post("/@/bob/follow/")
    assert follow.status_code == 302 and follow["Location"].endswith("?next=/%40/bob/")
    accept = client.post("/challenges/1/accept/")
    assert accept.status_code == 302 and accept["Location"].endswith("?next=/")
    script = client.post("/@/bob/follow/", HTTP_ACCEPT="application/json")
    assert (script.status_code, script.json()["error"]) == (403, "not_allowed")


def test_an_expired_form_is_explained(make_member):
    strict = Client(enforce_csrf_checks=True)
    page = strict.post("/pt/accounts/login/", {"login": "ann", "password": "x"})
    assert page.status_code == 403
    assert translated("pt", "The form has expired") in page.content.decode()


def test_the_servers_failure_is_a_page_in_the_persons_language(monkeypatch):
    def failing(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("ratings.views.top_players_by_scale", failing)
    visitor = Client(raise_request_exception=False)
    page = visitor.get("/bg/leaderboards/")
    assert page.status_code == 500
    body = page.content.decode()
    assert translated("bg", "Something went wrong") in body
    assert "the database went away" not in body and '<html lang="bg">' in body
