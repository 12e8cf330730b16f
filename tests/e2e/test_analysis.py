"""The computer's review on the replay page (SPEC §13, issue 34.5-6): a player asks for it,
the page shows the progress the table's socket tells and fills in without a reload: per
game a graph of win chances (a click on it goes to that move), each player's accuracy and
counts, at a judged move the best colour with its cells outlined on the board; another
colour tried in a position is answered by the computer, an illegal one refused with the
engine's reason."""

import random

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.models import Analysis
from tests.e2e.conftest import off_the_loop
from tests.moves import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_asks_for_the_review_reads_it_and_tries_a_colour(
    browser, site, login, make_member, analysis_worker, screenshot
):
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=21
    )
    state = off_the_loop(
        play_out, match=match, members=[alice, bob], rng=random.Random(9), now=timing.now()
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, alice)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    page.evaluate("window.sameDocument = true")  # gone if the page reloads

    expect(page.locator("#table")).to_have_attribute("data-analysis", "none")
    page.get_by_role("button", name="Ask the computer for an analysis").click()
    # The socket's progress, then the review, in the same document.
    expect(page.locator("#table")).to_have_attribute("data-analysis", "done", timeout=60_000)
    assert page.evaluate("window.sameDocument") is True
    review = Analysis.objects.get(match=match).result
    total = sum(game.ply for game in state.games)
    assert sum(len(game) for game in review["games"]) == total

    # The graph of the game shown (game 2, from its end): a point per move and the start.
    graph = page.locator("#analysis-graph svg")
    expect(graph.locator(".graph-hit")).to_have_count(state.games[1].ply)
    line = graph.locator(".graph-line").get_attribute("points").split()
    assert len(line) == state.games[1].ply + 1
    rows = page.locator("#analysis-figures tr")
    expect(rows).to_have_count(2)
    for row, seat in zip(rows.all(), review["seats"], strict=True):
        shown = seat["games"][1]
        expect(row.locator(".blunders")).to_have_text(str(shown["blunders"]))
        expect(row.locator(".mistakes")).to_have_text(str(shown["mistakes"]))

    # A click on the graph goes to that move of game 2.
    page.get_by_role("button", name="Game 1", exact=True).click()
    entries = review["games"][0]
    box = page.locator("#analysis-graph svg").bounding_box()
    ply = 3
    page.mouse.click(box["x"] + box["width"] * ply / len(entries), box["y"] + box["height"] / 2)
    expect(page.locator(f'#table[data-replay-game="1"][data-replay-ply="{ply}"]')).to_have_count(1)
    expect(page.locator("#analysis-move")).to_contain_text(f"Move {ply} of {len(entries)}")

    # A judged move: its button goes there; the best colour's cells are outlined.
    judged = next(e for e in entries if e["judgement"] and e.get("best_cells"))
    page.locator(f'#analysis-judged button[data-ply="{judged["ply"]}"]').click()
    expect(page.locator(f'#table[data-replay-ply="{judged["ply"]}"]')).to_have_count(1)
    expect(page.locator("#analysis-move")).to_contain_text(judged["judgement"].capitalize())
    expect(page.locator(".board .cells polygon.best")).to_have_count(len(judged["best_cells"]))
    screenshot(page, "analysis-judged")

    # Another colour tried where the replay stands (after that move): first the mover's
    # own colour, refused with the engine's reason, then a legal one, answered.
    position = state.games[0].start
    for colour in state.games[0].moves[: judged["ply"]]:
        position = position.play(colour)
    own = position.seat_colors[position.to_move]
    page.locator(f'#analysis-try-colours button[data-colour="{own}"]').click()
    expect(page.locator("#analysis-try-error")).to_have_text(
        "That is your own colour: choose another."
    )
    legal = next(m for m in position.legal_moves() if m != "swap")
    page.locator(f'#analysis-try-colours button[data-colour="{legal}"]').click()
    answer = page.locator("#analysis-try-answer")
    expect(answer).to_have_attribute("data-colour", str(legal), timeout=30_000)
    expect(answer).to_contain_text("the computer answers")
    reply = answer.get_attribute("data-answer")
    assert position.play(legal).play(int(reply) if reply.isdigit() else reply)  # legal
    screenshot(page, "analysis-try")
    assert not errors
    context.close()
