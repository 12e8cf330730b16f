from datetime import UTC, datetime

import pytest
from django.urls import reverse

from lobby import services as lobby

pytestmark = pytest.mark.django_db

# The header's "Lobby" link and the log-in page's heading in each language.
LOBBY = {"en": "Lobby", "bg": "Лоби", "el": "Λόμπι", "pt": "Sala", "nl": "Lobby", "es": "Sala"}
LOGIN_HEADING = {
    "en": "Sign In",
    "bg": "Вход",
    "el": "Σύνδεση",
    "pt": "Iniciar sessão",
    "nl": "Aanmelden",
    "es": "Iniciar sesión",
}


@pytest.mark.parametrize("language", sorted(LOBBY))
def test_home_page_in_each_language(client, language):
    url = "/" if language == "en" else f"/{language}/"
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert f">{LOBBY[language]}</a>" in html


@pytest.mark.parametrize("language", sorted(LOGIN_HEADING))
def test_allauth_pages_render_in_each_language(client, language):
    prefix = "" if language == "en" else f"/{language}"
    html = client.get(f"{prefix}/accounts/login/").content.decode()
    assert LOGIN_HEADING[language] in html


def test_switcher_saves_a_members_language(client, make_member):
    alice = make_member("alice")
    client.force_login(alice)
    response = client.post(reverse("language_set"), {"language": "el", "next": "/leaderboards/"})
    assert response.status_code == 302
    assert response["Location"] == "/el/leaderboards/"
    alice.refresh_from_db()
    assert alice.language == "el"
    # Back on an English URL, the member is sent to their language.
    response = client.get("/leaderboards/")
    assert response.status_code == 302 and response["Location"] == "/el/leaderboards/"


def test_switcher_goes_back_to_english_from_a_prefixed_page(client, make_member):
    alice = make_member("alice", language="bg")
    client.force_login(alice)
    response = client.post(reverse("language_set"), {"language": "en", "next": "/bg/leaderboards/"})
    assert response["Location"] == "/leaderboards/"
    alice.refresh_from_db()
    assert alice.language == "en"
    assert client.get("/leaderboards/").status_code == 200


def test_switcher_for_visitors_uses_a_cookie(client):
    response = client.post(reverse("language_set"), {"language": "nl", "next": "/"})
    assert response["Location"] == "/nl/"
    assert response.cookies["django_language"].value == "nl"
    assert client.get("/")["Location"] == "/nl/"


def test_switcher_rejects_nonsense(client):
    response = client.post(reverse("language_set"), {"language": "klingon", "next": "/"})
    assert response.status_code == 400
    response = client.post(
        reverse("language_set"), {"language": "es", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/es/"


def test_log_in_sends_a_member_to_their_language(client, make_member, password):
    make_member("alice", language="pt")
    response = client.post(reverse("account_login"), {"login": "alice", "password": password})
    assert response["Location"] == "/pt/"


def test_every_page_links_its_translations(client):
    html = client.get("/bg/leaderboards/").content.decode()
    for code in ("en", "bg", "el", "pt", "nl", "es"):
        assert f'hreflang="{code}"' in html
    assert 'href="http://testserver/leaderboards/"' in html


# A member who joined on 7 December 2026 at 18:05 UTC, as their profile says it, and an
# arena starting then (in 2030), as its page's short date says it: the day first where the language
# puts it, months lowercase where it writes them so, a 24-hour clock in every language. English
# is read across Europe: the day first and the month in words, never "12/07".
MEMBER_SINCE = {
    "en": "7 December 2026",
    "bg": "7 декември 2026 г.",
    "pt": "7 de dezembro de 2026",
    "es": "7 de diciembre de 2026",
    "nl": "7 december 2026",
    "el": "07/12/2026",
}
ARENA_STARTS = {
    "en": "7 Dec 2030, 18:05",
    "bg": "07.12.2030 18:05",
    "pt": "07/12/2030 18:05",
    "nl": "7-12-2030 18:05",
    "el": "07/12/2030 18:05",
    "es": "07/12/2030 18:05",
}


def prefixed(language: str, path: str) -> str:
    return path if language == "en" else f"/{language}{path}"


@pytest.mark.parametrize("language", sorted(MEMBER_SINCE))
def test_a_profile_writes_the_day_a_member_joined_as_the_language_does(
    client, make_member, language
):
    alice = make_member("alice")
    alice.date_joined = datetime(2026, 12, 7, 18, 5, tzinfo=UTC)
    alice.save(update_fields=["date_joined"])
    html = client.get(prefixed(language, "/@/alice/")).content.decode()
    assert f"<dd>{MEMBER_SINCE[language]}</dd>" in html


@pytest.mark.parametrize("language", sorted(ARENA_STARTS))
def test_an_upcoming_arena_gives_its_start_as_the_language_writes_a_date(client, language):
    arena = lobby.arena_create(
        name="Evening arena",
        variant="fast",
        clock="1+1",
        starts_at=datetime(2030, 12, 7, 18, 5, tzinfo=UTC),
        minutes=30,
    )
    html = client.get(prefixed(language, reverse("arena", args=[arena.pk]))).content.decode()
    assert f">{ARENA_STARTS[language]} UTC</time>" in html
    assert "12/07/2030" not in html
