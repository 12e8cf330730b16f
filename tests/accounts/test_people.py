"""Follow and block (SPEC §14), the accounts' part: the services' rules, the selectors,
the endpoints (members only, POST with CSRF) and the blocked members in preferences. What
a block keeps apart in the lobby and at the tables is in tests/lobby/test_blocks.py."""

import pytest
from django.test import Client

from accounts import services
from accounts.errors import Refusal
from accounts.models import Block, Follow
from accounts.selectors import (
    block_sides,
    blocked_ids,
    blocked_names,
    blocks_between,
    follow_counts,
    followed_names,
    follower_names,
    follows,
)
from games.services import match_create
from tests.timeshift import T0

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(make_member):
    return make_member("ann")


@pytest.fixture
def ben(make_member):
    return make_member("ben")


@pytest.fixture
def cat(make_member):
    return make_member("cat")


def refused(service, member, username) -> Refusal:
    with pytest.raises(Refusal) as caught:
        service(member=member, username=username)
    return caught.value


def test_follow_and_unfollow_and_following_twice_is_harmless(ann, ben, cat):
    assert services.follow(member=ann, username="BEN") == ben  # names as the page gives them
    services.follow(member=ann, username="ben")
    services.follow(member=cat, username="ben")
    services.follow(member=ben, username="ann")
    assert Follow.objects.filter(follower=ann, followed=ben).count() == 1
    assert follows(ann.pk, ben.pk) and not follows(ben.pk, cat.pk)
    assert follow_counts(ben.pk) == (2, 1)  # followers, following
    assert follower_names(ben.pk) == ["ann", "cat"] and followed_names(ann.pk) == ["ben"]
    services.unfollow(member=ann, username="ben")
    services.unfollow(member=ann, username="ben")  # twice: harmless too
    assert not follows(ann.pk, ben.pk) and follow_counts(ben.pk) == (1, 1)


def test_nobody_follows_or_blocks_themselves_a_computer_or_nobody(ann, bob_and_computer):
    for service, message in (
        (services.follow, "You cannot follow yourself."),
        (services.block, "You cannot block yourself."),
    ):
        assert str(refused(service, ann, "ANN").message) == message
        # A computer seat is shown by a name no member has: there is nobody to follow.
        failure = refused(service, ann, bob_and_computer.display_name)
        assert failure.code == "not_found" and str(failure.message) == "No member has that name."
        assert refused(service, ann, "nobody").code == "not_found"
    assert not Follow.objects.exists() and not Block.objects.exists()


@pytest.fixture
def bob_and_computer(make_member):
    """The computer's seat at a table with a member."""
    match = match_create(
        variant="three", members=[make_member("bob")], bots={1: 2, 2: 3}, now=T0, seed=1
    )
    seat = match.seats.get(seat=1)
    assert seat.member_id is None and seat.display_name == "Computer (level 2)"
    return seat


def test_blocking_ends_follows_both_ways_and_unblocking_brings_none_back(ann, ben, cat):
    services.follow(member=ann, username="ben")
    services.follow(member=ben, username="ann")
    services.follow(member=cat, username="ben")
    services.block(member=ben, username="ann")
    services.block(member=ben, username="ann")  # twice: harmless
    assert Block.objects.filter(blocker=ben, blocked=ann).count() == 1
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [
        ("cat", "ben")
    ]
    assert blocked_ids(ben.pk) == {ann.pk} and blocked_ids(ann.pk) == set()
    assert blocked_names(ben.pk) == ["ann"]
    services.unblock(member=ben, username="ann")
    services.unblock(member=ben, username="ann")
    assert not Block.objects.exists() and not follows(ann.pk, ben.pk)


def test_a_blocked_member_cannot_follow_the_blocker_and_is_told_so(ann, ben):
    services.block(member=ben, username="ann")
    # A refusal, not a follow's answer while nothing happened (issue 43.4).
    assert str(refused(services.follow, ann, "ben").message) == "You cannot follow ben."
    assert not Follow.objects.exists()
    assert follow_counts(ben.pk) == (0, 0)
    # The blocker is told why they cannot follow the member they blocked.
    assert str(refused(services.follow, ben, "ann").message) == "You have blocked this member."
    services.unblock(member=ben, username="ann")
    services.follow(member=ann, username="ben")
    assert follows(ann.pk, ben.pk)


def test_blocks_between_members_in_one_query(ann, ben, cat, django_assert_num_queries):
    services.block(member=ann, username="ben")
    services.block(member=cat, username="ann")
    with django_assert_num_queries(1):
        assert blocks_between([ann.pk, ben.pk, cat.pk, None]) == {
            (ann.pk, ben.pk),
            (cat.pk, ann.pk),
        }
    with django_assert_num_queries(1):
        assert block_sides(ben.pk, [ann.pk]) == (False, True)
    assert block_sides(ann.pk, [ben.pk]) == (True, False)
    assert block_sides(ann.pk, [ben.pk, cat.pk]) == (True, True)
    assert block_sides(ben.pk, [cat.pk]) == (False, False)  # neither blocked the other
    with django_assert_num_queries(0):
        assert blocks_between([ann.pk]) == set()


# --- the endpoints ---------------------------------------------------------------------


@pytest.mark.parametrize("action", ["follow", "unfollow", "block", "unblock"])
def test_the_endpoints_want_a_member_and_a_post(client, ann, ben, action):
    response = client.post(f"/@/ben/{action}/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(ann)
    assert client.get(f"/@/ben/{action}/").status_code == 405
    assert client.post(f"/@/nobody/{action}/").status_code == 404
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_the_endpoints_check_csrf(ann, ben):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    assert browser.post("/@/ben/follow/").status_code == 403
    assert browser.post("/@/ben/block/").status_code == 403
    browser.get("/@/ben/")
    token = browser.cookies["csrftoken"].value
    response = browser.post("/@/ben/follow/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/@/ben/"
    assert follows(ann.pk, ben.pk)


def test_each_answer_goes_back_to_the_page_with_what_happened(client, ann, ben):
    client.force_login(ann)
    for action, told in (
        ("follow", "You follow ben."),
        ("unfollow", "You no longer follow ben."),
        ("block", "You blocked ben."),
        ("unblock", "You unblocked ben."),
    ):
        response = client.post(f"/@/ben/{action}/", follow=True)
        assert response.redirect_chain == [("/@/ben/", 302)]
        assert [str(m) for m in response.context["messages"]] == [told]
    response = client.post("/@/ann/block/", follow=True)
    assert [str(m) for m in response.context["messages"]] == ["You cannot block yourself."]
    assert not Block.objects.exists()


def test_preferences_list_the_blocked_members_with_an_unblock_button(client, ann, ben, cat):
    services.block(member=ann, username="ben")
    services.block(member=ben, username="cat")  # not ann's
    client.force_login(ann)
    page = client.get("/account/preferences/").content.decode()
    assert "Blocked members" in page
    assert 'action="/@/ben/unblock/"' in page and "/@/cat/" not in page
    response = client.post("/@/ben/unblock/", {"next": "/account/preferences/"}, follow=True)
    assert response.redirect_chain == [("/account/preferences/", 302)]
    assert "You have blocked nobody." in response.content.decode()
    assert Block.objects.filter(blocker=ann).count() == 0
    # A page of another site is never where the answer goes.
    services.block(member=ann, username="ben")
    response = client.post("/@/ben/unblock/", {"next": "https://elsewhere.example/"})
    assert response["Location"] == "/@/ben/"
