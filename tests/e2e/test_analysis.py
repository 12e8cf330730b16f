"""The computer's review on the replay page (SPEC §13, issue 34.5-6): a player asks for it,
the page shows the progress the table's socket tells and fills in without a reload: per
game a graph of win chances (a click on it goes to that move), each player's accuracy and
counts, at a judged move the best colour with its cells outlined on the board; another
colour tried in a position is answered by the computer, an illegal one refused with the
engine's reason."""

import random
import re
from itertools import pairwise

import pytest
from playwright.sync_api import expect

from games import services, timing
from games.engine.analysis import judgement
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
        play_out, match=match, members=[alice, bob], rng=random.Random(2), now=timing.now()
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


CHANCES = re.compile(r"(\w+)'s win chances (\d+\.\d)% → (\d+\.\d)%")


def test_the_review_reads_from_one_named_side_and_agrees_with_itself(
    browser, site, login, make_member, screenshot
):
    """Issue 43.1: at every move the chances are one named side's (the viewer's: bob),
    each move's "after" is the next move's "before" as shown, a judgement follows from
    the two numbers shown by the spec's thresholds, the graph says whose chances it
    draws, the figures say which game they are for, and the whole match's accuracy is
    beside them."""
    alice, bob = make_member("alice"), make_member("bob")
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, bob], now=timing.now(), seed=21
    )
    state = off_the_loop(
        play_out, match=match, members=[alice, bob], rng=random.Random(14), now=timing.now()
    )
    off_the_loop(services.analysis_request, match_id=match.pk, member=bob, now=timing.now())
    off_the_loop(services.analysis_run, match_id=match.pk, now=timing.now)
    review = Analysis.objects.get(match=match).result
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    login(context, bob)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{site.url}/match/{match.pk}/")
    expect(page.locator("#table")).to_have_attribute("data-analysis", "done")

    # Beside each player's figures of the game shown, their accuracy over the match.
    rows = page.locator("#analysis-figures tr")
    expect(rows).to_have_count(2)
    for row, seat in zip(rows.all(), review["seats"], strict=True):
        # as the page writes a number: 86.0 is "86%", 85.3 "85.3%"
        expect(row.locator(".match-accuracy")).to_have_text(f"{seat['accuracy']:g}%")

    for number, game in enumerate(state.games, start=1):
        entries = review["games"][number - 1]
        shown = []  # (mover, before, after, judgement) as the page says them
        for ply in range(1, game.ply + 1):
            page.locator(f'#moves .ply-jump[data-game="{number}"][data-ply="{ply}"]').click()
            note = page.locator("#analysis-move")
            expect(note).to_contain_text(f"Move {ply} of {game.ply}:")
            text = note.inner_text()
            side, before, after = CHANCES.search(text).groups()
            assert side == "bob", text  # always the same named side
            mover = "alice" if entries[ply - 1]["seat"] == "A" else "bob"
            assert f"{mover} played" in text
            said = [j for j in ("Inaccuracy", "Mistake", "Blunder") if f"· {j} ·" in text]
            shown.append((mover, float(before), float(after), said[0] if said else None))
        # The graph and the figures name the game and the side.
        expect(page.locator("#analysis-graph-side")).to_have_text(
            f"bob's win chances in game {number}"
        )
        expect(page.locator("#analysis-figures-caption")).to_have_text(f"Game {number}")

        for (_, _, after, _), (_, before, _, _) in pairwise(shown):
            assert after == before  # a move's after is the next one's before, as shown
        for (mover, before, after, said), entry in zip(shown, entries, strict=True):
            drop = round(before - after if mover == "bob" else after - before, 1)
            expected = judgement(drop)
            assert said == (expected.capitalize() if expected else None), (entry, shown)
            assert expected == entry["judgement"]
    screenshot(page, "analysis-one-side")
    assert not errors
    context.close()


def test_the_figures_give_each_name_one_line_in_every_language(browser, site, login, make_member):
    """At 390 px in Portuguese the figures' six columns once left a bot's name "robo3381 /
    6" broken mid-word under its BOT mark: a name ends in an ellipsis on its one line (its
    whole is the link's title), and every figure stays whole. The headings' words then
    left the names of the desktop's side panel 11 px in Dutch, 23 in Spanish, 29 in
    Bulgarian: the counts are headed by the marks ?!, ? and ??, and a name has room."""
    alice = make_member("alexandra_papadopoulou")
    robo = make_member("robo33816")
    robo.is_bot = True
    robo.save(update_fields=["is_bot"])
    match = off_the_loop(
        services.match_create, variant="fast", members=[alice, robo], now=timing.now(), seed=21
    )
    off_the_loop(
        play_out, match=match, members=[alice, robo], rng=random.Random(2), now=timing.now()
    )
    off_the_loop(services.analysis_request, match_id=match.pk, member=alice, now=timing.now())
    off_the_loop(services.analysis_run, match_id=match.pk, now=timing.now)
    for viewport in ({"width": 390, "height": 844}, {"width": 1280, "height": 900}):
        context = browser.new_context(viewport=viewport)
        login(context, alice)
        page = context.new_page()
        for language in ("en", "bg", "el", "pt", "nl", "es"):
            prefix = "" if language == "en" else f"/{language}"
            page.goto(f"{site.url}{prefix}/match/{match.pk}/")
            expect(page.locator("#table")).to_have_attribute("data-analysis", "done")
            rows = page.locator("#analysis-figures tr")
            expect(rows).to_have_count(2)
            lines = page.evaluate(
                """() => [...document.querySelectorAll("#analysis-figures tr")].map((row) => {
                  const name = row.querySelector("th");
                  const line = parseFloat(getComputedStyle(name).lineHeight) || 20;
                  const cells = [...row.querySelectorAll("td")];
                  const table = row.closest("table");
                  return {
                    nameLines: Math.round(name.getBoundingClientRect().height / (line + 4)),
                    nameWidth: name.getBoundingClientRect().width,
                    cellsWhole: cells.every((cell) => cell.scrollWidth <= cell.clientWidth + 1),
                    inPanel: table.scrollWidth <= table.parentElement.clientWidth + 1,
                    title: name.querySelector("a").title,
                  };
                })"""
            )
            for row, name in zip(lines, ("alexandra_papadopoulou", "robo33816"), strict=True):
                where = (language, viewport["width"], row)
                assert row["nameLines"] == 1 and row["cellsWhole"] and row["inPanel"], where
                assert row["nameWidth"] >= 60, where  # a name, or the start of it
                assert row["title"] == name
        context.close()
