"""When a member was last on the site, on their page (issue 32.9): "online now" while they
are, otherwise the time since, all of it in the page's language ("πριν από 1 minute",
"преди 0 минути" and "Last seen 0 minutes ago" were seen)."""

import re
from datetime import timedelta

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext

from accounts.models import User
from accounts.templatetags.members import seen_ago
from games.models import Presence
from tests.timeshift import T0

pytestmark = pytest.mark.django_db

ENGLISH_UNITS = re.compile(r"\b(?:minute|hour|day|month|year)s?\b")


@pytest.fixture
def viewer(client, make_member):
    client.force_login(make_member("viewer"))
    return client


def last_seen_on(client, username: str, language: str = "en") -> str | None:
    prefix = "" if language == "en" else f"/{language}"
    page = client.get(f"{prefix}/@/{username}/").content.decode()
    found = re.search(r'<dd class="last-seen[^"]*">([^<]*)</dd>', page)
    return found.group(1) if found else None


def member_seen(make_member, name: str, at, *, socket_heard_at=None):
    member = make_member(name)
    User.objects.filter(pk=member.pk).update(last_seen=at)
    if socket_heard_at is not None:
        Presence.objects.create(
            channel_name=f"socket-{name}",
            member=member,
            opened_at=at,
            last_seen=socket_heard_at,
        )
    return member


def test_a_member_with_a_page_open_is_online_now(viewer, make_member):
    # The socket opened hours ago and is still heard: the member is here.
    member_seen(make_member, "zed", T0 - timedelta(hours=3), socket_heard_at=T0)
    assert last_seen_on(viewer, "zed") == "online now"


def test_a_member_between_two_pages_is_online_now(viewer, make_member):
    member_seen(make_member, "zed", T0 - timedelta(seconds=20))
    assert last_seen_on(viewer, "zed") == "online now"


def test_a_member_gone_a_while_was_seen_minutes_ago(viewer, make_member):
    member_seen(make_member, "zed", T0 - timedelta(minutes=5))
    assert last_seen_on(viewer, "zed") == "5 minutes ago"


def test_a_socket_no_longer_heard_does_not_count(viewer, make_member, settings):
    gone = T0 - timedelta(seconds=settings.PRESENCE_EXPIRY_SECONDS + 75)
    member_seen(make_member, "zed", gone - timedelta(hours=2), socket_heard_at=gone)
    assert last_seen_on(viewer, "zed") == "2 hours ago"


def test_a_member_who_just_left_is_never_seen_0_minutes_ago(viewer, make_member, settings):
    member_seen(make_member, "zed", T0 - timedelta(seconds=settings.PRESENCE_EXPIRY_SECONDS + 1))
    assert last_seen_on(viewer, "zed") == "1 minute ago"


def test_visitors_see_neither(client, make_member):
    member_seen(make_member, "zed", T0, socket_heard_at=T0)
    member_seen(make_member, "ann", T0 - timedelta(days=2))
    assert last_seen_on(client, "zed") is None and last_seen_on(client, "ann") is None


@pytest.mark.parametrize(
    ("ago", "text"),
    [
        (timedelta(seconds=0), "1 minute ago"),
        (timedelta(seconds=119), "1 minute ago"),
        (timedelta(minutes=59, seconds=59), "59 minutes ago"),
        (timedelta(hours=1), "1 hour ago"),
        (timedelta(hours=23), "23 hours ago"),
        (timedelta(days=1), "1 day ago"),
        (timedelta(days=29), "29 days ago"),
        (timedelta(days=45), "1 month ago"),
        (timedelta(days=364), "12 months ago"),
        (timedelta(days=800), "2 years ago"),
        (-timedelta(seconds=5), "1 minute ago"),  # clocks a little apart
    ],
)
def test_the_time_since_in_one_unit(ago, text):
    assert seen_ago(T0 - ago, T0) == text


# In Greek and Bulgarian: the sentences are the site's own (new msgids), so these pass
# once they are translated.


@pytest.mark.parametrize("language", ["el", "bg"])
def test_online_now_in_the_pages_language(viewer, make_member, language):
    member_seen(make_member, "zed", T0, socket_heard_at=T0)
    shown = last_seen_on(viewer, "zed", language)
    with translation.override(language):
        assert shown == gettext("online now")
    assert shown != "online now"


@pytest.mark.parametrize("language", ["el", "bg"])
@pytest.mark.parametrize("minutes", [1, 5])
def test_the_time_since_in_the_pages_language(viewer, make_member, language, minutes):
    member_seen(make_member, "zed", T0 - timedelta(minutes=minutes, seconds=30))
    shown = last_seen_on(viewer, "zed", language)
    with translation.override(language):
        expected = ngettext("%(count)d minute ago", "%(count)d minutes ago", minutes)
    assert shown == expected % {"count": minutes}
    assert not ENGLISH_UNITS.search(shown), shown
