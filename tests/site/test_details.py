"""The smaller things a newcomer met (issue 13.7): the confirmation link of a local run,
allauth's pages in the site's style, "… ago", required fields, readable results in admin,
/favicon.ico."""

import pytest
from django.core import mail
from django.urls import reverse

from games import services
from tests.moves import play_opening
from tests.timeshift import T0

pytestmark = pytest.mark.django_db


def test_a_local_run_shows_the_confirmation_link_in_its_mailbox(
    client, settings, tmp_path, password
):
    settings.LOCAL_MAILBOX = True
    settings.EMAIL_FILE_PATH = str(tmp_path)
    response = client.post(
        reverse("account_signup"),
        {
            "username": "zoe",
            "email": "zoe@example.com",
            "password1": password,
            "password2": password,
        },
        follow=True,
    )
    assert 'href="/dev/mail/"' in response.content.decode()
    (tmp_path / "1.log").write_text(mail.outbox[0].message().as_string())
    box = client.get("/dev/mail/").content.decode()
    assert "/accounts/confirm-email/" in box and '<a href="http' in box


def test_no_mailbox_in_production(client, settings):
    settings.LOCAL_MAILBOX = False
    assert client.get("/dev/mail/").status_code == 404


@pytest.mark.parametrize("name", ["account_signup", "account_login", "account_reset_password"])
def test_allauth_pages_use_the_sites_buttons(client, name):
    page = client.get(reverse(name)).content.decode()
    assert 'class="button' in page and 'class="form card"' in page


def test_last_seen_says_ago(client, make_member):
    from datetime import timedelta

    from accounts.models import User

    member = make_member("zed")
    User.objects.filter(pk=member.pk).update(last_seen=T0 - timedelta(hours=3))
    client.force_login(make_member("viewer"))
    page = client.get("/@/zed/").content.decode()
    assert page.split('class="last-seen">')[1].startswith("3 hours ago<")


def test_an_empty_required_field_says_so(client, make_member):
    client.force_login(make_member("ann"))
    response = client.post("/tables/", {"variant": "", "format": "match"}, follow=True)
    assert "Variant: Choose a variant." in [str(m) for m in response.context["messages"]]
    response = client.post("/play/fast/", {"clock": ""}, follow=True)
    assert "Clock: Choose a clock." in [str(m) for m in response.context["messages"]]


def test_admin_shows_results_by_their_labels(client, moderator, make_member):
    alice, bob = make_member("alice"), make_member("bob")
    match = services.match_create(variant="fast", members=[alice, bob], now=T0)
    play_opening(match, [alice, bob], now=T0)
    services.match_resign(match_id=match.pk, user=bob, now=T0)
    client.force_login(moderator)
    page = client.get("/admin/games/match/").content.decode()
    assert "by resignation" in page and ">resigned<" not in page


def test_favicon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("img/favicon.svg")
