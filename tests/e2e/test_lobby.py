"""The lobby in Chromium: a table opened by one member appears on another's lobby without a
reload, they join and both land on the table; a challenge sent from a member's page
reaches the challenged member on another page, who accepts, and both land on the table."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def member_page(browser, site, login, user, path="/"):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, user)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(site.url + path)
    return page, errors


def test_a_table_opened_in_the_lobby_fills_and_both_land_on_it(
    browser, site, login, make_member, screenshot
):
    alice, bob = make_member("alice"), make_member("bob")
    a, a_errors = member_page(browser, site, login, alice)
    b, b_errors = member_page(browser, site, login, bob)
    expect(b.locator("#waiting-empty")).to_be_visible()

    form = a.locator("#new-table")
    form.locator("summary").click()
    form.get_by_label("Variant").select_option("fast")
    form.get_by_label("Clock").select_option("3+2")
    form.get_by_role("button", name="Open the table").click()
    expect(a.locator(".waiting-room")).to_be_visible()
    expect(a).to_have_url(re.compile(r"/match/\d+/$"))

    # Bob's lobby shows it without a reload.
    row = b.locator("#waiting-list tr", has_text="alice")
    expect(row).to_be_visible()
    screenshot(b, "lobby-waiting-table")
    row.get_by_role("button", name="Join").click()
    table_url = a.url
    expect(b).to_have_url(table_url)
    expect(a.locator("#table")).to_be_visible()  # alice's waiting room became the table
    expect(b.locator("#table")).to_be_visible()
    expect(a.locator("#table")).to_have_attribute("data-status", "playing")
    assert not a_errors and not b_errors


def test_a_challenge_reaches_the_member_on_another_page(
    browser, site, login, make_member, screenshot
):
    carol, dave = make_member("carol"), make_member("dave")
    d, d_errors = member_page(browser, site, login, dave, "/rules/")
    c, c_errors = member_page(browser, site, login, carol, "/@/dave/")
    c.locator("#challenge summary").click()
    c.get_by_label("Variant").select_option("fast")
    c.get_by_role("button", name="Send the challenge").click()
    expect(c.locator("#challenge-waiting")).to_contain_text("You challenged dave: Fast 8×7")

    toast = d.locator(".toast", has_text="carol challenges you")
    expect(toast).to_be_visible()
    expect(d).to_have_title(re.compile(r"^\(1\) "))
    screenshot(d, "challenge-notice")
    toast.get_by_role("button", name="Accept").click()
    expect(d).to_have_url(re.compile(r"/match/\d+/$"))
    expect(c).to_have_url(d.url)  # carol is taken there too, at once
    expect(c.locator("#table")).to_have_attribute("data-status", "playing")
    assert not c_errors and not d_errors


def test_a_declined_challenge_gives_the_profile_its_form_back(
    browser, site, login, make_member, screenshot
):
    """The challenger's profile page shows the challenge while it waits; declined on
    another page, the page says so and offers the form again, without a reload."""
    erin, finn = make_member("erin"), make_member("finn")
    f, f_errors = member_page(browser, site, login, finn, "/rules/")
    e, e_errors = member_page(browser, site, login, erin, "/@/finn/")
    e.locator("#challenge summary").click()
    e.get_by_label("Variant").select_option("fast")
    e.get_by_role("button", name="Send the challenge").click()
    waiting = e.locator("#challenge-waiting")
    expect(waiting).to_contain_text("Waiting for an answer")
    expect(e.locator(".message")).to_have_count(0)
    screenshot(e, "challenge-waiting")

    f.locator(".toast", has_text="erin challenges you").get_by_role(
        "button", name="Decline"
    ).click()
    expect(e.locator(".toast", has_text="finn declined")).to_be_visible()
    expect(waiting).to_have_count(0)
    expect(e.locator("#challenge summary")).to_be_visible()
    assert e.url.endswith("/@/finn/")  # no reload took erin elsewhere
    assert not e_errors and not f_errors


def test_the_lobby_drops_an_ended_match_and_tells_of_an_expired_challenge(
    browser, site, login, make_member, beat, screenshot
):
    """carol's lobby lists the match being played and drops it once it ends, without a
    reload; her challenge that nobody answers expires, and she is told at once."""
    from games import services
    from lobby import services as lobby_services
    from tests import timeshift
    from tests.e2e.conftest import off_the_loop
    from tests.e2e.playing import play_greedy

    carol, alice, bob, dave = (make_member(n) for n in ("carol", "alice", "bob", "dave"))
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timeshift.now()
    )
    c, errors = member_page(browser, site, login, carol)
    row = c.locator(f'.live-tables tr[data-match="{match.pk}"]')
    expect(row).to_be_visible()
    play_greedy(match, [alice, bob], moves=2)
    off_the_loop(services.match_resign, match_id=match.pk, user=alice, now=timeshift.now())
    expect(row).to_have_count(0)  # gone without a reload

    off_the_loop(
        lobby_services.challenge_send,
        challenger=carol,
        challenged=dave,
        variant="fast",
        clock="3+2",
        single_game=False,
        rated=False,
        now=timeshift.now(),
    )
    sent = c.locator(".challenge.sent", has_text="dave")
    expect(sent).to_be_visible()
    timeshift.advance(121)  # nobody answers; beat's sweep ends it
    toast = c.locator(".toast", has_text="Your challenge to dave expired")
    expect(toast).to_be_visible(timeout=20000)
    expect(sent).to_have_count(0)  # and it leaves her lobby
    screenshot(c, "challenge-expired-notice")
    assert not errors


def test_the_lobby_lists_your_games_in_progress(browser, site, login, make_member, screenshot):
    """alice's lobby lists the matches she sits at that are being played (a public one
    and a private one), each with a link that takes her to her seat; others' matches are
    not hers."""
    from games.models import Match
    from tests.e2e.playing import new_match

    alice, bob, carol, dave = (make_member(n) for n in ("alice", "bob", "carol", "dave"))
    public = new_match("fast", [alice, bob], clock="3+2")
    private = new_match("classic", [carol, alice], private=True)
    others = new_match("fast", [carol, dave])
    finished = new_match("fast", [bob, alice])
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)

    a, errors = member_page(browser, site, login, alice)
    mine = a.locator("#my-games")
    expect(mine.locator("tr[data-match]")).to_have_count(2)
    expect(mine.locator(f'tr[data-match="{others.pk}"]')).to_have_count(0)
    expect(mine.locator(f'tr[data-match="{finished.pk}"]')).to_have_count(0)
    expect(mine.locator(f'tr[data-match="{public.pk}"]')).to_contain_text("bob")
    expect(mine.locator(f'tr[data-match="{private.pk}"]')).to_contain_text("carol")
    screenshot(a, "lobby-games-in-progress")

    mine.locator(f'tr[data-match="{private.pk}"] a.table-link').click()
    expect(a).to_have_url(f"{site.url}/t/{private.token}/")
    expect(a.locator("#table")).to_have_attribute("data-match", str(private.pk))
    expect(a.locator("#table")).not_to_have_class(re.compile(r"\bwatching\b"))
    a.go_back()
    a.locator(f'#my-games tr[data-match="{public.pk}"] a.table-link').click()
    expect(a).to_have_url(f"{site.url}/match/{public.pk}/")
    expect(a.locator("#table")).not_to_have_class(re.compile(r"\bwatching\b"))
    assert not errors


def test_a_table_with_a_clock_of_ones_own(browser, site, login, make_member, screenshot):
    """alice opens a table with her own clock, 7 minutes + 4 seconds a move (SPEC §3, §10):
    bob's lobby lists it as 7+4, and once he joins both clocks start from 7:00."""
    alice, bob = make_member("alice"), make_member("bob")
    a, a_errors = member_page(browser, site, login, alice)
    b, b_errors = member_page(browser, site, login, bob)

    form = a.locator("#new-table")
    form.locator("summary").click()
    form.get_by_label("Variant").select_option("fast")
    form.get_by_label("Clock").select_option(label="your own clock")
    form.get_by_label("Minutes").fill("7")
    form.get_by_label("Seconds added per move").fill("4")
    screenshot(a, "lobby-own-clock")
    form.get_by_role("button", name="Open the table").click()
    expect(a.locator(".waiting-room")).to_contain_text("7+4")

    row = b.locator("#waiting-list tr", has_text="alice")
    expect(row).to_contain_text("7+4")
    row.get_by_role("button", name="Join").click()
    expect(b.locator("#table")).to_have_attribute("data-status", "playing")
    expect(b.locator(".table-meta")).to_contain_text("7+4")
    for letter in ("A", "B"):
        expect(b.locator(f'.clock[data-clock-seat="{letter}"]')).to_have_text("7:00")
    assert not a_errors and not b_errors


def test_new_opponent_after_a_rated_match_plays_now_with_its_variant_and_clock(
    browser, site, login, make_member
):
    """Once a rated match is over its players may play someone new at once, as on the
    lobby's Play now with the match's variant and clock; a spectator is offered nothing."""
    from games import services, timing
    from games.models import Match
    from tests.e2e.conftest import off_the_loop
    from tests.e2e.playing import caught_up, new_match, play_greedy

    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    match = new_match("fast", [alice, bob], rated=True, clock="2+1")
    a, a_errors = member_page(browser, site, login, alice, f"/match/{match.pk}/")
    v, _ = member_page(browser, site, login, carol, f"/match/{match.pk}/")
    caught_up(a, match)
    offer = a.get_by_role("button", name="New opponent")
    expect(offer).to_be_hidden()  # while the match is played
    expect(v.locator("#new-opponent")).to_have_count(0)

    play_greedy(match, [alice, bob], moves=2)
    off_the_loop(services.match_resign, match_id=match.pk, user=bob, now=timing.now())
    expect(offer).to_be_visible()  # over: shown without a reload
    offer.click()
    expect(a).not_to_have_url(re.compile(rf"/match/{match.pk}/$"))
    expect(a).to_have_url(re.compile(r"/match/\d+/$"))
    expect(a.locator(".waiting-room")).to_be_visible()
    opened = Match.objects.get(pk=int(a.url.rstrip("/").rsplit("/", 1)[1]))
    assert (opened.variant, opened.clock, opened.rated, opened.status) == (
        "fast",
        "2+1",
        True,
        Match.Status.WAITING,
    )
    assert opened.created_by_id == alice.pk
    assert not a_errors
