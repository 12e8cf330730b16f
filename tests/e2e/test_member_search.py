"""Finding members in Chromium: ``/members/?q=`` finds members by the start of their
name whatever the case and the look-alike letters, each a link to their page; the site
header's search box leads there from every page."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def results(page):
    return page.locator("#member-results a.member")


@pytest.mark.parametrize("typed", ["al1", "ALI", "Alice"])
def test_members_are_found_by_the_start_of_their_name(browser, site, make_member, typed):
    make_member("Alice")
    make_member("bob")
    make_member("malik")  # "ali" inside the name, not at its start
    page = browser.new_context().new_page()  # a visitor
    page.goto(f"{site.url}/members/?q={typed}")
    expect(results(page)).to_have_count(1)
    expect(results(page)).to_have_text("Alice")
    expect(page.locator("#members-q")).to_have_value(typed)
    results(page).click()
    expect(page).to_have_url(f"{site.url}/@/Alice/")


def test_nobody_found_says_so(browser, site, make_member):
    make_member("Alice")
    page = browser.new_context().new_page()
    page.goto(f"{site.url}/members/?q=zz")
    expect(results(page)).to_have_count(0)
    expect(page.locator("#member-results-empty")).to_be_visible()


def test_the_header_search_box_leads_to_the_members_found(
    browser, site, login, make_member, screenshot
):
    alice = make_member("Alice")
    make_member("alfred")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    page.goto(f"{site.url}/rules/")
    box = page.locator("header").get_by_role("searchbox", name="Find a member")
    box.fill("al")
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"/members/\?q=al$"))
    expect(results(page)).to_have_text(["alfred", "Alice"])
    screenshot(page, "members-found")
    page.get_by_role("link", name="alfred", exact=True).click()
    expect(page).to_have_url(f"{site.url}/@/alfred/")
