"""The words on the account pages (issue 32.9): the e-mail field's label in the site's own
catalogue, every error under its own field (errors of no field at the top), and a link
wherever a page asks the member to contact us."""

import gettext
import re
from pathlib import Path

import allauth
import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES]
CONTACT = "help@filler.example.org"


def prefix(language: str) -> str:
    return "" if language == "en" else f"/{language}"


def errors_under(html: str) -> dict[str, list[str]]:
    """Every error of the page's form, by the field whose input it follows on the page ("" for
    errors above every field). Read from the page's order alone, whatever its markup."""
    form = html[html.index("<main") :]
    found: dict[str, list[str]] = {}
    for errors in re.finditer(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', form, re.S):
        before = re.findall(
            r'<(?:input|select|textarea)[^>]*\bname="([^"]+)"', form[: errors.start()]
        )
        field = next((name for name in reversed(before) if name != "csrfmiddlewaretoken"), "")
        found.setdefault(field, []).extend(re.findall(r"<li>(.*?)</li>", errors.group(1), re.S))
    return found


def own_translation(language: str, msgid: str) -> str:
    """The site's own catalogue's translation (locale/), whatever other catalogues say."""
    path = ROOT / "locale" / language / "LC_MESSAGES" / "django.mo"
    with path.open("rb") as catalogue:
        return gettext.GNUTranslations(catalogue).gettext(msgid)


# --- 1. The e-mail field's label --------------------------------------------------------


def label_of(html: str, name: str) -> str:
    return re.search(rf'<label for="id_{name}">([^<]*)</label>', html).group(1)


@pytest.mark.parametrize("language", ["el", "bg"])
@pytest.mark.parametrize("name", ["account_signup", "account_reset_password"])
def test_the_email_label_is_translated(client, language, name):
    """allauth's "Email" reached Greek pages in English: Django reads contrib.auth's
    catalogue before allauth's, and auth's Greek keeps the English word. Greek passes once
    the site's translators have translated the msgid "Email"."""
    html = client.get(prefix(language) + reverse(name)).content.decode()
    assert label_of(html, "email") != "Email:"


@pytest.mark.parametrize("language", ["el", "bg"])
@pytest.mark.parametrize("name", ["account_signup", "account_reset_password"])
def test_the_email_label_is_the_sites_own(client, language, name):
    """The label is the site's catalogue's (it comes before every app's), whatever auth's or
    allauth's catalogue says. Passes once the msgid "Email" is in the site's catalogues."""
    html = client.get(prefix(language) + reverse(name)).content.decode()
    translated = own_translation(language, "Email")
    assert translated != "Email", f"{language}: the site's catalogue has no translation"
    assert label_of(html, "email") == f"{translated}:"


def test_the_email_label_is_marked_for_the_sites_catalogue():
    from accounts import adapter

    assert "Email" in adapter.ALLAUTH_TEXTS


# --- 3. Errors under their own field ----------------------------------------------------


def sign_up(client, **data):
    form = {"username": "zoe", "email": "zoe@example.com", "password1": "", "password2": ""}
    return client.post(reverse("account_signup"), {**form, **data}).content.decode()


def test_a_short_password_is_refused_under_the_password(client):
    errors = errors_under(sign_up(client, password1="abc", password2="abc"))
    assert list(errors) == ["password1"]
    assert any("too short" in error for error in errors["password1"])


def test_a_password_like_the_name_is_refused_under_the_password(client):
    similar = "horsefeathers1"
    errors = errors_under(
        sign_up(client, username="horsefeathers", password1=similar, password2=similar)
    )
    assert list(errors) == ["password1"]
    assert any("similar" in error for error in errors["password1"])


def test_two_different_passwords_are_refused_under_the_second(client, password):
    errors = errors_under(sign_up(client, password1=password, password2=password + "x"))
    assert errors == {"password2": ["You must type the same password each time."]}


def test_a_taken_name_and_a_wrong_address_are_refused_under_their_fields(
    client, make_member, password
):
    make_member("alice")
    html = sign_up(
        client, username="alice", email="not-an-address", password1=password, password2=password
    )
    assert sorted(errors_under(html)) == ["email", "username"]


def test_a_failed_log_in_is_said_above_the_fields(client, make_member):
    make_member("alice")
    response = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})
    errors = errors_under(response.content.decode())
    assert list(errors) == [""]
    assert "not correct" in errors[""][0]


def test_password_change_errors_are_under_their_fields(client, make_member):
    client.force_login(make_member("alice"))
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": "wrong", "password1": "abc", "password2": "abc"},
    )
    errors = errors_under(response.content.decode())
    assert sorted(errors) == ["oldpassword", "password1"]
    assert errors["oldpassword"] == ["Please type your current password."]
    assert any("too short" in error for error in errors["password1"])


def test_password_reset_errors_are_under_their_fields(client, make_member, password):
    make_member("alice")
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    link = re.search(r"https?://testserver(/\S+)", mail.outbox[0].body).group(1)
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    response = client.post(form_url, {"password1": password, "password2": password + "x"})
    errors = errors_under(response.content.decode())
    assert errors == {"password2": ["You must type the same password each time."]}


def test_a_wrong_address_for_a_reset_is_refused_under_the_address(client):
    response = client.post(reverse("account_reset_password"), {"email": "not-an-address"})
    assert list(errors_under(response.content.decode())) == ["email"]


def test_an_email_change_error_is_under_the_address(client, make_member):
    client.force_login(make_member("alice"))
    response = client.post(
        reverse("account_email"), {"email": "alice@example.com", "action_add": ""}
    )
    errors = errors_under(response.content.decode())
    assert list(errors) == ["email"] and errors["email"]


# --- 6. "Please contact us" links the site's address ------------------------------------

CONTACT_PAGES = [
    "account_email_verification_sent",
    "account_reset_password",
    "account_reset_password_done",
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", CONTACT_PAGES)
def test_contact_us_links_the_sites_address(client, settings, language, name):
    settings.CONTACT_EMAIL = CONTACT
    html = client.get(prefix(language) + reverse(name)).content.decode()
    assert f'<a class="contact" href="mailto:{CONTACT}">{CONTACT}</a>' in html


@pytest.mark.parametrize("name", CONTACT_PAGES)
def test_the_link_is_in_the_sentence_that_asks(client, settings, name):
    settings.CONTACT_EMAIL = CONTACT
    html = client.get(reverse(name)).content.decode()
    assert f'contact us at <a class="contact" href="mailto:{CONTACT}">' in html


def test_every_contact_sentence_of_allauth_is_the_sites(client):
    """Each allauth page that asks the member to contact us is replaced by one of the
    site's that links the address; allauth's ``verified_email_required`` page is shown only
    by its decorator of that name, which no view of the site uses."""
    theirs = Path(allauth.__file__).parent / "templates"
    asking = {
        path.relative_to(theirs).as_posix()
        for path in theirs.rglob("*.html")
        if "contact us" in re.sub(r"\s+", " ", path.read_text()).lower()
    }
    unused = "account/verified_email_required.html"
    assert len(asking) >= 3 and unused in asking
    for name in asking - {unused}:
        assert "{% contact_link as address %}" in (ROOT / "templates" / name).read_text(), name
    sources = [
        path
        for app in ("accounts", "games", "lobby", "ratings", "config")
        for path in (ROOT / app).rglob("*.py")
    ]
    assert not [path for path in sources if "verified_email_required" in path.read_text()]
