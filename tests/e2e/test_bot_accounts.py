"""Bot accounts in Chromium (SPEC §15): a member turns their account into a bot over the
API; the Bots page lists it with the BOT mark, and another member challenges it from
there; at the table, in the lobby and on its page its name carries the mark; the bot's
own page at its table is a spectator's (it plays through the API only)."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts import services as accounts
from games import timing
from games.models import Challenge
from lobby import services as lobby
from tests.e2e.conftest import off_the_loop

pytestmark = pytest.mark.django_db(transaction=True)


def api_post(site, path: str, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(
        site.url + path, data=b"", headers={"Authorization": f"Bearer {token}"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


def test_a_bot_is_found_challenged_and_marked(browser, site, login, make_member):
    robo, alice = make_member("robo"), make_member("alice")
    _token, raw = off_the_loop(
        accounts.token_create,
        member=robo,
        description="robo",
        scopes=["bot:play"],
        now=timezone.now(),
    )
    assert api_post(site, "/api/bot/account/upgrade", raw) == (200, {"ok": True})

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(site.url + "/members/")
    page.locator("#bots-link").click()
    row = page.locator("#bots tr[data-bot='robo']")
    expect(row.locator(".bot-mark")).to_have_text("BOT")
    expect(page.locator("#bots tbody tr")).to_have_count(1)  # alice is no bot

    row.get_by_role("link", name="Challenge").click()
    expect(page.locator("h1.profile-name .bot-mark")).to_have_text("BOT")
    page.get_by_label("Variant").select_option("fast")
    page.get_by_label("Clock").select_option("3+2")
    page.get_by_role("button", name="Send the challenge").click()
    expect(page.locator("#challenge-waiting")).to_contain_text("You challenged robo: Fast 8×7")
    challenge = Challenge.objects.get(challenged=robo)

    # The bot accepts (its program would, over the API): alice goes to the table.
    off_the_loop(lobby.challenge_accept, challenge_id=challenge.pk, member=robo, now=timing.now())
    expect(page).to_have_url(re.compile(r"/match/\d+/$"))
    table = page.locator("#table")
    expect(table).to_have_attribute("data-status", "playing")
    expect(page.locator("#table .bot-mark").first).to_have_text("BOT")
    marked = page.locator("#table .titled", has_text="robo").first
    expect(marked.locator("a.member")).to_have_text("robo")
    table_url = page.url

    # The lobby's "being played now" marks it too.
    page.goto(site.url + "/")
    expect(page.locator("[data-match] .bot-mark").first).to_have_text("BOT")

    # The bot's own page at its table is a spectator's: nothing to play with.
    bots_context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(bots_context, robo)
    bots_page = bots_context.new_page()
    bots_page.goto(table_url)
    bots_table = bots_page.locator("#table")
    expect(bots_table).to_have_attribute("data-synced", "1")
    expect(bots_table).to_have_class(re.compile(r"\bwatching\b"))
    expect(bots_page.locator("#colours .colour[aria-disabled='false']")).to_have_count(0)
    expect(bots_page.locator("#colours .colour")).to_have_count(6)
    assert not errors
    context.close()
    bots_context.close()
