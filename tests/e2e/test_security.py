"""The pages work under the Content-Security-Policy: Chromium reports no violation on the
lobby, the rules and a table being played (its script, socket and styles all allowed)."""

import pytest
from playwright.sync_api import expect

from games import services, timing
from tests.e2e.conftest import off_the_loop

pytestmark = pytest.mark.django_db(transaction=True)

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


def test_no_content_security_policy_violation(page, site, login, make_member):
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now()
    )
    login(page.context, alice)
    console = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(RECORD_VIOLATIONS)
    for path in ("/", "/rules/", f"/match/{match.pk}/"):
        response = page.goto(site.url + path)
        assert "script-src 'self'" in response.headers["content-security-policy"]
        if path.startswith("/match/"):
            # The script ran and its socket connected: the colour buttons are live.
            expect(page.locator("#colours .colour[aria-disabled='false']").first).to_be_visible()
        assert page.evaluate("window.__violations") == [], path
    assert not [text for text in console if "Content Security Policy" in text]
