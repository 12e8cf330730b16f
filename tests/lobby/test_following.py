"""The lobby's "members you follow, online" (SPEC §14): the followed members on the site now,
each with what they play, a link to watch a public match, "playing" without a link for a
private table or practice; nobody offline, nobody one does not follow; the same queries
for 2 and 20 followed members."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import services as people
from games import services
from games.models import Presence
from games.services.practice import BOARDS
from lobby.selectors import followed_online
from tests import timeshift
from tests.moves import play_opening

pytestmark = pytest.mark.django_db


def online(member, at):
    Presence.objects.create(
        channel_name=f"socket-{member.username}", member=member, opened_at=at, last_seen=at
    )


def followed_lines(client) -> dict[str, str]:
    page = client.get("/lobby/lists/").content.decode()
    box = re.search(r'<section class="followed".*?</section>', page, re.S).group(0)
    return {
        name: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", line)).strip()
        for name, line in re.findall(r'<li data-member="([^"]+)">(.*?)</li>', box, re.S)
    }


def test_the_lobby_shows_whom_one_follows_online_and_what_they_play(client, make_member):
    now = timeshift.now()
    dave, carol, erin, _fred, gus = (
        make_member(n) for n in ("dave", "carol", "erin", "fred", "gus")
    )
    for name in ("carol", "erin", "fred"):
        people.follow(member=dave, username=name)
    for member in (carol, erin, gus):
        online(member, now)  # fred is offline; gus is online but not followed
    public = services.match_create(variant="fast", members=[carol, gus], now=now, seed=3)
    play_opening(public, [carol, gus], now=now)
    services.practice_start(
        member=erin, board=BOARDS[0], level=1, member_starts=True, clock="", now=now
    )
    client.force_login(dave)
    lines = followed_lines(client)
    assert set(lines) == {"carol", "erin"}
    assert f'href="/match/{public.pk}/"' in client.get("/lobby/lists/").content.decode()
    assert "watch" in lines["carol"]
    assert lines["erin"].endswith("playing") and "watch" not in lines["erin"]
    client.force_login(gus)
    assert followed_lines(client) == {}  # gus follows nobody


def test_the_same_queries_for_few_and_many_followed(client, make_member):
    now = timeshift.now()
    dave = make_member("dave")
    counts = []
    for batch, size in (("a", 2), ("b", 18)):
        for i in range(size):
            member = make_member(f"{batch}{i}")
            online(member, now)
            people.follow(member=dave, username=member.username)
        with CaptureQueriesContext(connection) as captured:
            followed_online(dave, now)
        counts.append(len(captured))
    assert counts[0] == counts[1] == 2
