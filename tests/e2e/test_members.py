import re

import pytest
from playwright.sync_api import expect

from accounts.models import User

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_verify_log_in_and_switch_language(page, site, password, screenshot):
    page.goto(site.url + "/")
    page.get_by_role("link", name="Sign up").click()
    page.fill("input[name=username]", "zoe")
    page.fill("input[name=email]", "zoe@example.com")
    page.fill("input[name=password1]", password)
    page.fill("input[name=password2]", password)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("h1")).to_contain_text("Verify")

    mail = next(m for m in site.mails() if "zoe@example.com" in m)
    # The mail names the site and links to the host the browser used.
    assert "Hello from VOG Filler!" in mail
    link = re.search(r"(http://\S+/accounts/confirm-email/\S+)", mail).group(1)
    assert link.startswith(site.url + "/")
    page.goto(link)
    page.locator("main form button[type=submit]").click()
    # Confirmed in the browser that signed up: logged in, in the lobby.
    expect(page.locator(".user-menu summary")).to_have_text("zoe")
    expect(page).to_have_url(site.url + "/")

    page.locator(".user-menu summary").click()
    page.locator(".user-menu button[type=submit]").click()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    page.goto(site.url + "/accounts/login/")
    page.fill("input[name=login]", "zoe@example.com")
    page.fill("input[name=password]", password)
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".user-menu summary")).to_have_text("zoe")

    page.locator(".language-menu summary").click()
    page.get_by_role("button", name="Български").click()
    expect(page).to_have_url(re.compile(r"/bg/$"))
    expect(page.locator("html")).to_have_attribute("lang", "bg")
    expect(page.locator(".main-nav a").first).to_have_text("Лоби")
    assert User.objects.get(username="zoe").language == "bg"
    screenshot(page, "home-bg")


def test_narrow_phone_screen_keeps_the_header_usable(browser, site):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(site.url + "/")
    for name in ("Lobby", "Rules", "Leaderboards", "Log in"):
        link = page.get_by_role("link", name=name, exact=True)
        expect(link).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    context.close()
