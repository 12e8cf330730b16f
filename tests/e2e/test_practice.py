"""Practice controls on the table page (issue 15.3, the page's side): Hint and Take back for
the player at a practice table. The page is told it is one by data-practice="1" on
#table; the server's answers to hint are played here by a relay on the page's socket."""

import json
import re

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.colors import COLOR_NAMES
from games.engine import PALETTE
from tests.e2e.conftest import off_the_loop
from tests.e2e.playing import current_state, greedy, play_greedy

pytestmark = pytest.mark.django_db(transaction=True)


class PracticeServer:
    """Forwards the page's socket to the site, but answers hint and takeback itself, as a
    practice table's server would: a hint is ``hint`` (set by the test)."""

    def __init__(self, page):
        self.hint: dict | None = None
        self.asked: list[dict] = []
        page.route_web_socket(re.compile(r"/ws/table/\d+/(\?.*)?$"), self.open)

    def open(self, route) -> None:
        server = route.connect_to_server()

        def from_page(message) -> None:
            data = json.loads(message)
            if data["type"] not in ("hint", "takeback"):
                server.send(message)
                return
            self.asked.append(data)
            if data["type"] == "hint" and self.hint:
                route.send(json.dumps(self.hint))

        route.on_message(from_page)
        server.on_message(route.send)


# The table page as a practice table's would be: the hook set as the page is parsed,
# before its scripts run.
AS_PRACTICE = """
new MutationObserver((records, observer) => {
  const table = document.getElementById("table");
  if (!table) return;
  table.dataset.practice = "1";
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def test_hint_and_take_back_at_a_practice_table(browser, site, login, make_member, screenshot):
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=46
    )
    url = f"{site.url}/match/{match.pk}/"
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.add_init_script(AS_PRACTICE)
    server = PracticeServer(page)
    page.goto(url)
    expect(page.locator("#table[data-practice='1']")).to_have_count(1)
    expect(page.locator('.player[data-seat="A"] .offline-badge')).to_have_count(0)  # on line

    # Her turn, nothing played yet: a hint, but nothing to take back.
    hint = page.get_by_role("button", name="Hint")
    take_back = page.get_by_role("button", name="Take back")
    expect(hint).to_be_enabled()
    expect(take_back).to_be_disabled()

    position = current_state(match).current.position
    colour = greedy(position)
    cells = sorted(position.preview(colour))
    gain = len(cells)
    server.hint = {"type": "hint", "color": colour, "cells": cells, "gained": gain}
    page.keyboard.press("h")
    name = str(COLOR_NAMES[PALETTE[colour].key]).capitalize()
    expect(page.locator("#hint-text")).to_have_text(f"Hint: {name} takes {gain} cells")
    expect(page.locator(f'#colours .colour.hinted[data-color="{colour}"]')).to_have_count(1)
    expect(page.locator(".board polygon.hint")).to_have_count(gain)
    assert server.asked == [{"type": "hint"}]
    screenshot(page, "practice-hint")

    # She plays; the hint goes with the position it was for.
    page.locator(f'#colours .colour[data-color="{colour}"]').tap()
    page.locator(f'#colours .colour[data-color="{colour}"]').tap()
    expect(page.locator('#table[data-ply="1"]')).to_have_count(1)
    expect(page.locator("#hint-text")).to_be_hidden()
    expect(page.locator(".board polygon.hint")).to_have_count(0)
    expect(page.locator("#colours .colour.hinted")).to_have_count(0)
    expect(hint).to_be_disabled()  # the computer's turn
    expect(take_back).to_be_disabled()

    play_greedy(match, [alice, bob], moves=1)  # the answer
    expect(page.locator('#table[data-ply="2"]')).to_have_count(1)
    expect(take_back).to_be_enabled()
    take_back.tap()
    assert server.asked[-1] == {"type": "takeback"}

    # Only the player sees them.
    spectator = browser.new_page()
    spectator.add_init_script(AS_PRACTICE)
    spectator.goto(url)
    expect(spectator.locator("#table[data-practice='1']")).to_have_count(1)
    expect(spectator.locator("#practice")).to_be_hidden()
    spectator.keyboard.press("h")
    assert len(server.asked) == 2
    spectator.close()
    assert not errors
    context.close()
