import pytest
from django.urls import reverse

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
