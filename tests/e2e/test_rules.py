import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_bulgarian_basics_page(page, site, screenshot):
    page.goto(site.url + "/bg/rules/basics/")
    expect(page.locator("html")).to_have_attribute("lang", "bg")
    article = page.locator("article")
    expect(article).to_contain_text("екватор")
    expect(article.locator("figure.diagram svg.board").first).to_be_visible()
    screenshot(page, "rules-bg-basics")


def test_greek_hexagons_page_and_switching_language_keeps_the_topic(page, site, screenshot):
    page.goto(site.url + "/el/rules/hex/")
    expect(page.locator("html")).to_have_attribute("lang", "el")
    board = page.locator("figure.diagram svg.board-hex").first
    expect(board).to_be_visible()
    assert board.locator("polygon").count() == 13 * 11
    expect(page.locator("table.variant-facts .fact-colors")).to_have_text("7")
    screenshot(page, "rules-el-hex")
    page.locator(".language-menu summary").click()
    page.get_by_role("button", name="Español").click()
    expect(page).to_have_url(re.compile(r"/es/rules/hex/$"))


def test_rules_index_on_a_phone(browser, site, screenshot):
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    page.goto(site.url + "/rules/")
    cards = page.locator(".topic-card")
    expect(cards).to_have_count(13)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "rules-index-phone")
    context.close()
