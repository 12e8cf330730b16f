"""Personal API tokens in Chromium (SPEC §15): a member makes one at /account/tokens/,
sees it once, a program calls the API with it, the page shows when it was last used, and
once revoked it answers 401."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def api_get(site, path: str, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(site.url + path, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_token_is_made_shown_once_used_and_revoked(page, site, login, make_member):
    alice = make_member("alice")
    login(page.context, alice)
    page.goto(site.url + "/account/preferences/")
    page.get_by_role("link", name="API tokens").click()
    expect(page.locator("h1")).to_have_text("API tokens")
    expect(page.locator("#tokens")).to_have_count(0)

    page.get_by_label("Description").fill("my program")
    page.get_by_label("Play as a bot", exact=False).check()
    page.get_by_role("button", name="Make the token").click()
    shown = page.locator("#token-value")
    expect(shown).to_be_visible()
    token = shown.input_value()
    assert token.startswith("vog_")
    row = page.locator("#tokens tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("my program")
    expect(row).to_contain_text("bot:play")
    expect(row).to_contain_text(token[:10])
    expect(row.locator(".token-used")).to_have_text("never")

    # Never shown again: only its first characters.
    page.goto(site.url + "/account/tokens/")
    expect(page.locator("#token-value")).to_have_count(0)
    assert token not in page.content()

    # A program uses it; the page shows the use.
    status, data = api_get(site, "/api/users/alice/", token)
    assert (status, data["username"]) == (200, "alice")
    page.reload()
    expect(page.locator("#tokens tbody tr .token-used")).not_to_have_text("never")

    page.get_by_role("button", name="Revoke").click()
    expect(page.locator("#tokens tbody tr")).to_have_class("revoked")
    expect(page.get_by_role("button", name="Revoke")).to_have_count(0)
    status, data = api_get(site, "/api/users/alice/", token)
    assert status == 401 and data["error"] == "unauthorized" and data["message"]
