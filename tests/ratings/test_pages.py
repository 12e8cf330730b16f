"""Leaderboards, the member's ratings panel and the history graph."""

from datetime import timedelta

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from accounts.services import member_delete
from ratings.charts import history_svg
from ratings.models import PlayerRating
from ratings.selectors import (
    HistoryPoint,
    member_rating_panel,
    member_ratings,
    rating_history,
    top_players,
)
from tests.ratings.conftest import T0, rate_recorded

pytestmark = pytest.mark.django_db


def established(make_member, scale, names_and_ratings, rd=60.0):
    made = []
    for name, rating in names_and_ratings:
        member = make_member(name)
        PlayerRating.objects.create(member=member, scale=scale, rating=rating, rd=rd, matches=20)
        made.append(member)
    return made


def queries(fn):
    with CaptureQueriesContext(connection) as context:
        fn()
    return len(context.captured_queries)


def test_leaderboard_lists_established_players_best_first_with_profile_links(client, make_member):
    established(make_member, "classic", [("ann", 1700), ("ben", 1810), ("cat", 1650)])
    established(make_member, "classic", [("newbie", 1900)], rd=200)
    established(make_member, "fast", [("fastest", 2000)])
    gone = established(make_member, "classic", [("gone", 2100)])[0]
    member_delete(member=gone)
    page = client.get(reverse("leaderboard", args=["classic"])).content.decode()
    assert page.index("ben") < page.index("ann") < page.index("cat")
    assert 'href="/@/ben/"' in page
    assert "newbie" not in page and "fastest" not in page and "2100" not in page
    assert "1810" in page


def test_unknown_scale_is_404(client):
    assert client.get("/leaderboard/vinco/").status_code == 404
    assert client.get("/leaderboard/nothing/").status_code == 404


def test_leaderboard_and_index_pages_take_a_fixed_number_of_queries(client, make_member):
    established(make_member, "hex", [("h1", 1600), ("h2", 1650)])
    small_board = queries(lambda: client.get("/leaderboard/hex/"))
    small_index = queries(lambda: client.get("/leaderboards/"))
    established(make_member, "hex", [(f"x{i}", 1500 + i) for i in range(15)])
    established(make_member, "four", [(f"y{i}", 1500 + i) for i in range(8)])
    assert queries(lambda: client.get("/leaderboard/hex/")) == small_board
    assert queries(lambda: client.get("/leaderboards/")) == small_index


def test_index_shows_the_top_five_of_each_scale(client, make_member):
    established(make_member, "pairs", [(f"p{i}", 1500 + 10 * i) for i in range(7)])
    response = client.get(reverse("leaderboards"))
    page = response.content.decode()
    assert [p.member.username for p in response.context["boards"][4][1]] == [
        "p6",
        "p5",
        "p4",
        "p3",
        "p2",
    ]
    assert 'href="/@/p2/"' in page and 'href="/@/p1/"' not in page
    assert reverse("leaderboard", args=["pairs"]) in page
    assert [p.member.username for p in top_players("pairs", 2)] == ["p6", "p5"]


def test_member_panel_shows_each_scale_with_provisional_marked(make_member):
    alice, bob, carol, dave = (make_member(n) for n in ("alice", "bob", "carol", "dave"))
    rate_recorded("fast", 1, [(alice.pk, bob.pk, 1.0)])
    rate_recorded("fast", 2, [(alice.pk, carol.pk, 0.5)])
    a, b, c, d = alice.pk, bob.pk, carol.pk, dave.pk
    four = [(a, b, 0.4), (a, c, 0.5), (a, d, 0.0), (b, c, 1.0), (b, d, 0.5), (c, d, 0.6)]
    rate_recorded("four", 3, four)
    PlayerRating.objects.filter(member=alice, scale="four").update(rd=70)
    records = member_ratings(alice.pk)
    assert [(r.scale, r.matches, r.wins, r.draws, r.losses) for r in records] == [
        ("fast", 2, 1, 1, 0),
        ("four", 1, 0, 0, 1),
    ]
    html = render_to_string(
        "ratings/_member_ratings.html", {"member_ratings": member_rating_panel(alice.pk)}
    )
    fast = round(records[0].rating)
    assert f"{fast}?" in html  # provisional on Fast
    assert f"{round(records[1].rating)}?" not in html  # established on Four
    assert html.count("<svg") == 2 and "<script" not in html
    assert "Fast 8×7" in html and "Four players" in html


def test_member_panel_takes_two_queries_however_much_was_played(make_member):
    alice, bob = make_member("alice"), make_member("bob")
    rate_recorded("fast", 1, [(alice.pk, bob.pk, 1.0)])

    def render():
        render_to_string(
            "ratings/_member_ratings.html", {"member_ratings": member_rating_panel(alice.pk)}
        )

    assert queries(render) == 2
    for match_id in range(2, 12):
        rate_recorded(["fast", "classic", "hex"][match_id % 3], match_id, [(alice.pk, bob.pk, 0.6)])
    assert queries(render) == 2


def test_history_starts_before_the_first_match_and_follows_each(make_member):
    alice, bob = make_member("alice"), make_member("bob")
    rate_recorded("classic", 1, [(alice.pk, bob.pk, 1.0)])
    rate_recorded("classic", 2, [(alice.pk, bob.pk, 0.0)])
    points = rating_history(alice.pk, "classic")
    assert [p.match_id for p in points] == [None, 1, 2]
    assert points[0].rating == 1500
    assert points[1].rating > 1500 and points[2].rating < points[1].rating
    assert rating_history(alice.pk, "fast") == []


def test_history_graph_speaks_the_pages_language():
    points = [
        HistoryPoint(T0, 1500, 350, None),
        HistoryPoint(T0, 1662, 290, 1),
        HistoryPoint(T0 + timedelta(days=40), 1610, 240, 2),
    ]
    english = history_svg(points, title="Fast", chart_id="c")
    with translation.override("nl"):
        dutch = history_svg(points, title="Fast", chart_id="c")
    assert "11 Dec 2026" in english and "11-12-2026" in dutch  # SHORT_DATE_FORMAT of each
    assert 'role="img"' in english and 'aria-labelledby="c-title c-desc"' in english
    assert "2 rated matches" in english
    assert "<script" not in english and "http://www.w3.org/2000/svg" in english


def test_history_graph_escapes_its_title_and_thins_long_histories():
    points = [HistoryPoint(T0 + timedelta(hours=i), 1500 + (i % 50), 80, i) for i in range(2000)]
    svg = history_svg(points, title="<b>x</b>", chart_id="c")
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    assert svg.count("<circle") == 0
    polyline = svg.split('points="')[1].split('"')[0]
    assert len(polyline.split()) == 400
    assert history_svg([], title="x", chart_id="c") == ""
