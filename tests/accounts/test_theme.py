"""The theme (issue 32.8): a member's choice in the preferences, a visitor's in a cookie, both
set from the footer, and drawn by the server on ``<html>`` so no page flashes in the other."""

import re

import pytest
from django.urls import reverse

from accounts.models import Theme
from accounts.selectors import THEME_COOKIE_NAME

pytestmark = pytest.mark.django_db


def html_tag(response) -> str:
    return re.search(rb"<html[^>]*>", response.content).group().decode()


def colour_scheme(response) -> str:
    return re.search(rb'<meta name="color-scheme" content="([^"]*)">', response.content)[1].decode()


def test_a_page_follows_the_device_until_someone_chooses(client):
    response = client.get(reverse("home"))
    assert "data-theme" not in html_tag(response)
    assert colour_scheme(response) == "light dark"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_members_theme_is_drawn_on_the_page(client, make_member, theme):
    client.force_login(make_member("alice", theme=theme))
    # A visitor's cookie from before logging in does not win over the member's choice.
    client.cookies[THEME_COOKIE_NAME] = "light" if theme == "dark" else "dark"
    response = client.get(reverse("home"))
    assert f'data-theme="{theme}"' in html_tag(response)
    assert colour_scheme(response) == theme


def test_a_visitors_cookie_is_drawn_on_the_page(client):
    client.cookies[THEME_COOKIE_NAME] = "dark"
    assert 'data-theme="dark"' in html_tag(client.get(reverse("home")))


@pytest.mark.parametrize("cookie", ['dark" onload="alert(1)', "purple", ""])
def test_a_cookie_that_names_no_theme_is_ignored(client, cookie):
    client.cookies[THEME_COOKIE_NAME] = cookie
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "data-theme" not in html_tag(response)


def test_the_preferences_save_the_theme(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    page = client.get(reverse("account_preferences"))
    assert b'name="theme" value="dark"' in page.content
    response = client.post(reverse("account_preferences"), {"language": "", "theme": "dark"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.theme == Theme.DARK
    assert 'data-theme="dark"' in html_tag(client.get(response.url))


@pytest.mark.parametrize("theme", ["purple", "", "DARK", "dark "])
def test_the_preferences_refuse_a_theme_that_is_none(client, make_member, theme):
    alice = make_member("alice", theme="light")
    client.force_login(alice)
    response = client.post(reverse("account_preferences"), {"language": "", "theme": theme})
    assert response.status_code == 200
    errors = response.context["form"].errors["theme"]
    assert errors == (
        ["This field is required."]
        if not theme.strip()
        else [f"Select a valid choice. {theme} is not one of the available choices."]
    )
    assert b'class="errorlist' in response.content
    alice.refresh_from_db()
    assert alice.theme == Theme.LIGHT


def test_a_visitor_chooses_a_theme_in_the_footer(client):
    page = client.get(reverse("rules_index"))
    assert f'action="{reverse("theme_set")}"' in page.content.decode()
    response = client.post(reverse("theme_set"), {"theme": "dark", "next": "/rules/"})
    assert response.status_code == 302
    assert response.url == "/rules/"
    cookie = response.cookies[THEME_COOKIE_NAME]
    assert cookie.value == "dark" and cookie["httponly"] and cookie["samesite"] == "Lax"
    for name in ("home", "rules_index", "leaderboards"):
        assert 'data-theme="dark"' in html_tag(client.get(reverse(name)))
    client.post(reverse("theme_set"), {"theme": "device", "next": "/"})
    assert "data-theme" not in html_tag(client.get(reverse("home")))


def test_a_member_who_chooses_in_the_footer_keeps_it(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    response = client.post(reverse("theme_set"), {"theme": "light", "next": "/leaderboards/"})
    assert response.url == "/leaderboards/"
    alice.refresh_from_db()
    assert alice.theme == Theme.LIGHT


@pytest.mark.parametrize(
    "data", [{"theme": "purple", "next": "/"}, {"theme": ""}, {}, {"theme": ["dark", "x" * 9]}]
)
def test_the_footer_refuses_a_theme_that_is_none(client, make_member, data):
    alice = make_member("alice", theme="light")
    client.force_login(alice)
    response = client.post(reverse("theme_set"), data)
    assert response.status_code == 400
    assert response.content == b"Unknown theme."
    assert THEME_COOKIE_NAME not in response.cookies
    alice.refresh_from_db()
    assert alice.theme == Theme.LIGHT


@pytest.mark.parametrize("target", ["https://elsewhere.example/", "//elsewhere.example/", ""])
def test_the_footer_goes_back_to_this_site_only(client, target):
    response = client.post(reverse("theme_set"), {"theme": "dark", "next": target})
    assert response.status_code == 302
    assert response.url == "/"


def test_the_footer_needs_a_post_with_its_csrf_token(make_member):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.get(reverse("theme_set")).status_code == 405
    assert strict.post(reverse("theme_set"), {"theme": "dark"}).status_code == 403
