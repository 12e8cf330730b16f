"""People in Chromium (SPEC §14, issue 35): dave follows carol from her page and sees her
start a match in his lobby without a reload; carol reports erin's chat line and blocks
her from its menu, the line disappears from carol's table, and the report is in the
moderators' queue with the line in context; the browser's notifications, once turned on,
show a challenge, the member's turn in a hidden tab and an arena pairing (the browser's
Notification is stubbed to record what was shown, with the permission granted)."""

import json
import random
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games import services, timing
from lobby import services as lobby
from tests.e2e.conftest import off_the_loop
from tests.e2e.playing import caught_up, play_greedy
from tests.moves import play_out

pytestmark = pytest.mark.django_db(transaction=True)

# What the page shows, kept across the pages of the context (a pairing goes to the table).
RECORD_NOTIFICATIONS = """
(() => {
  const Real = window.Notification;
  class Recorded {
    constructor(title, options) {
      const shown = JSON.parse(localStorage.getItem("shown") || "[]");
      shown.push({ title: title, body: options.body, tag: options.tag });
      localStorage.setItem("shown", JSON.stringify(shown));
    }
    static get permission() { return Real.permission; }
    static requestPermission() { return Real.requestPermission(); }
  }
  window.Notification = Recorded;
  // The test hides the tab: document.hidden follows window.tabHidden.
  Object.defineProperty(document, "hidden", { get: () => !!window.tabHidden });
})();
"""


def member_page(browser, site, login, user, path="/"):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, user)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(site.url + path)
    return page, errors


def test_dave_follows_carol_and_sees_her_start_a_match(browser, site, login, make_member):
    carol, dave, bob = make_member("carol"), make_member("dave"), make_member("bob")
    _c, c_errors = member_page(browser, site, login, carol)  # carol is on the site
    d, d_errors = member_page(browser, site, login, dave, "/@/carol/")
    d.get_by_role("button", name="Follow", exact=True).click()
    expect(d.locator(".message.success")).to_contain_text("You follow carol.")
    expect(d.locator("#followers-count")).to_have_text("1")
    d.goto(site.url + "/")
    line = d.locator('#followed li[data-member="carol"]')
    expect(line).to_be_visible()
    expect(line.locator("a.watch")).to_have_count(0)  # online, not playing
    d.evaluate("window.sameDocument = true")

    match = off_the_loop(
        services.match_create, variant="fast", members=[carol, bob], now=timing.now()
    )
    expect(line.locator("a.watch")).to_have_attribute("href", f"/match/{match.pk}/")
    assert d.evaluate("window.sameDocument") is True  # no reload
    assert not c_errors and not d_errors


def shown(page) -> list[dict]:
    return json.loads(page.evaluate("localStorage.getItem('shown') || '[]'"))


def test_notifications_of_a_challenge_a_turn_and_an_arena_pairing(
    browser, site, login, make_member
):
    carol, dave = make_member("carol"), make_member("dave")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["notifications"], origin=site.url)
    context.add_init_script(RECORD_NOTIFICATIONS)
    login(context, dave)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(site.url + "/account/preferences/")
    box = page.locator("#browser-notifications")
    expect(box).to_be_visible()
    box.get_by_label("Show notifications in this browser").check()
    expect(box.locator(".notifications-status")).to_have_text("On in this browser.")

    # A challenge, while dave reads the rules.
    page.goto(site.url + "/rules/")
    expect(page.locator("body[data-site-socket=open]")).to_have_count(1)
    off_the_loop(
        lobby.challenge_send,
        challenger=carol,
        challenged=dave,
        variant="fast",
        clock="",
        single_game=False,
        rated=False,
        now=timing.now(),
    )
    expect(page.locator(".toast", has_text="carol challenges you")).to_be_visible()
    assert [n["body"] for n in shown(page)] == ["carol challenges you"]

    # His turn at a table, while the tab is hidden (and only then).
    match = off_the_loop(
        services.match_create, variant="fast", members=[dave, carol], now=timing.now(), seed=5
    )
    page.goto(f"{site.url}/match/{match.pk}/")
    caught_up(page, match)
    play_greedy(match, [dave, carol], moves=1)  # dave moves: carol's turn
    caught_up(page, match)
    page.evaluate("window.tabHidden = true")
    play_greedy(match, [dave, carol], moves=1)  # carol moves: dave's turn, hidden tab
    caught_up(page, match)
    expect(page.locator("#table")).to_have_attribute("data-to-move", "A")
    page.wait_for_function("JSON.parse(localStorage.getItem('shown')).length === 2")
    assert shown(page)[1]["body"] == "It is your turn."
    page.evaluate("window.tabHidden = false")
    off_the_loop(services.match_abort, match_id=match.pk, now=timing.now())

    # An arena pairs him: the notification, and the page goes to the table.
    arena = off_the_loop(
        lobby.arena_create,
        name="Notified",
        variant="fast",
        clock="3+2",
        starts_at=timing.now() - timedelta(minutes=1),
        minutes=30,
    )
    paired = off_the_loop(
        services.match_create,
        variant="fast",
        members=[dave, carol],
        now=timing.now(),
        clock="3+2",
        rated=True,
        arena=arena.pk,
    )
    expect(page).to_have_url(f"{site.url}/match/{paired.pk}/")
    assert shown(page)[-1]["body"] == "You were paired in the arena: your match starts now."
    assert len(shown(page)) == 3
    assert not errors


def test_carol_reports_and_blocks_erin_from_a_chat_line(
    browser, site, login, make_member, moderator
):
    carol, bob, erin, dave = (make_member(n) for n in ("carol", "bob", "erin", "dave"))
    earlier = off_the_loop(
        services.match_create, variant="fast", members=[carol, dave], now=timing.now()
    )
    off_the_loop(  # carol has finished a match: she may report
        play_out, match=earlier, members=[carol, dave], rng=random.Random(1), now=timing.now()
    )
    match = off_the_loop(
        services.match_create, variant="fast", members=[carol, bob], now=timing.now(), seed=4
    )
    for author, text in ((bob, "good luck"), (erin, "you both play like robots"), (bob, "ty")):
        off_the_loop(
            services.chat_post, match_id=match.pk, user=author, text=text, now=timing.now()
        )
    c, c_errors = member_page(browser, site, login, carol, f"/match/{match.pk}/")
    b, b_errors = member_page(browser, site, login, bob, f"/match/{match.pk}/")
    line = c.locator(".chat-message", has_text="you both play like robots")
    expect(line).to_be_visible()
    expect(c.locator(".chat-message", has_text="good luck").locator(".chat-menu")).to_have_count(1)

    # The line's menu: report it, with a reason and a word.
    line.locator(".chat-menu summary").click()
    line.get_by_role("button", name="Report").click()
    line.get_by_label("Reason").select_option("chat_abuse")
    line.get_by_label("What happened").fill("Insults at the table.")
    line.get_by_role("button", name="Send the report").click()
    expect(c.locator("#chat-note")).to_have_text(
        "Thank you: the moderators will look into your report."
    )

    # Then block erin: her line goes from carol's table, and her next one never comes.
    line.locator(".chat-menu summary").click()
    line.get_by_role("button", name="Block erin").click()
    expect(c.locator("#chat-note")).to_contain_text("You blocked erin")
    expect(line).to_be_hidden()
    off_the_loop(
        services.chat_post, match_id=match.pk, user=erin, text="still here", now=timing.now()
    )
    off_the_loop(services.chat_post, match_id=match.pk, user=bob, text="shh", now=timing.now())
    expect(c.locator(".chat-message", has_text="shh")).to_be_visible()
    expect(c.locator(".chat-message", has_text="still here")).to_have_count(0)
    expect(b.locator(".chat-message", has_text="still here")).to_be_visible()  # bob sees it

    # The moderators' queue: the report, with the line among its neighbours. (The grant of
    # migration 0011 to the group, which emptying the database after a test takes away.)
    from django.contrib.auth.models import Permission

    moderator.groups.first().permissions.add(
        *Permission.objects.filter(codename__in=["view_report", "close_report"])
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, moderator)
    m = context.new_page()
    m.goto(site.url + "/admin/accounts/report/")
    row = m.locator("#result_list tbody tr", has_text="erin")
    expect(row).to_have_count(1)
    row.locator("a").first.click()
    reported = m.locator(".chat-context tr.reported")
    expect(reported).to_contain_text("you both play like robots")
    around = m.locator(".chat-context tr")  # every line of the table, the ten around
    expect(around).to_have_count(5)
    expect(around.first).to_contain_text("good luck")
    expect(m.locator(".report-entry")).to_contain_text("Insults at the table.")
    assert not c_errors and not b_errors


def test_a_member_blocked_by_carol_is_refused_her_follow_and_never_sees_her_tables(
    browser, site, login, make_member
):
    """Issue 43.4: dave, whom carol blocked, presses Follow on her page and reads a clear
    refusal (nothing changes: no follower); in his lobby her waiting tables never show,
    on the page or live over the site's socket, while erin's do."""
    from accounts import services as people

    carol, dave, erin = make_member("carol"), make_member("dave"), make_member("erin")
    off_the_loop(people.block, member=carol, username="dave")
    earlier = off_the_loop(
        lobby.table_open,
        host=carol,
        variant="fast",
        clock="",
        single_game=False,
        rated=False,
        private=False,
        now=timing.now(),
    )
    d, d_errors = member_page(browser, site, login, dave, "/@/carol/")
    d.get_by_role("button", name="Follow", exact=True).click()
    expect(d.locator(".message.error")).to_have_text("You cannot follow carol.")
    expect(d.locator(".message.success")).to_have_count(0)
    expect(d.locator("#followers-count")).to_have_text("0")

    d.goto(site.url + "/")
    expect(d.locator("body[data-site-socket=open]")).to_have_count(1)
    expect(d.locator(f'tr[data-table="{earlier.pk}"]')).to_have_count(0)
    d.evaluate("window.sameDocument = true")
    tables = {}
    for host in (carol, erin):
        tables[host.username] = off_the_loop(
            lobby.table_open,
            host=host,
            variant="fast",
            clock="",
            single_game=False,
            rated=False,
            private=False,
            now=timing.now(),
        )
    expect(d.locator(f'tr[data-table="{tables["erin"].pk}"]')).to_be_visible()  # live
    expect(d.locator(f'tr[data-table="{tables["carol"].pk}"]')).to_have_count(0)
    expect(d.locator(f'tr[data-table="{earlier.pk}"]')).to_have_count(0)
    assert d.evaluate("window.sameDocument") is True  # no reload
    assert not d_errors
