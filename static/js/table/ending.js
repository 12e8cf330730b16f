/* The end of a game as an event: a card over the board for players and spectators with
   who won the game and why, the scores, the match points so far, and what comes next
   (between games: the countdown to the next game from the server's next_game_at, and
   the Ready button). At the end of the match it says the match's result; it can be
   folded away to see the board (between games) or closed (after the match). */

import { byId as $, el } from "../dom.js";
import { phrase } from "./phrases.js";
import { gameResult, halves, result } from "./results.js";
import { playersNode } from "./players.js";
import { isDraw, mySeat, seatIndex } from "./seats.js";

const TICK_MS = 250;

/** "m:ss" of the whole seconds left (rounded up, never below zero): 59001 -> "1:00". */
export function formatCountdown(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
}

/** The game-end card of the table; render() shows it for table.state. */
export function setupEnding(table) {
  const { texts } = table;
  const { t } = texts;
  const box = $("game-end");
  const fold = $("game-end-fold");
  let sawPlay = false; // this page saw the match being played (not only its end)
  let shownFor = null; // the end shown now: "game:status"
  let folded = false;
  let closed = null; // the end the reader closed
  let ticker = null;
  const named = (letters) => playersNode(table, letters); // with their seats at tables of 3 or 4

  function endedGame(s) {
    if (s.match.status === "between_games") return s.games[s.game.number - 1];
    if (s.match.status === "finished" && sawPlay) return s.games[s.games.length - 1];
    return null;
  }

  function render() {
    const s = table.state;
    if (s.match.status === "playing") sawPlay = true;
    const game = endedGame(s);
    const key = game ? game.number + ":" + s.match.status : null;
    if (key !== shownFor) {
      shownFor = key;
      folded = false;
    }
    box.hidden = !game || !game.reason || table.replaying || closed === key;
    clearInterval(ticker);
    if (box.hidden) return;
    const finished = s.match.status === "finished";
    box.classList.toggle("folded", folded);
    const me = mySeat(s);
    box.classList.toggle("you-won", !!me && game.winners.includes(me) && !isDraw(s, game.winners));
    fold.textContent = finished ? t("ending.close") : folded ? t("ending.unfold") : t("ending.fold");
    fold.setAttribute("aria-expanded", String(!folded));

    let title;
    if (!finished) title = t("ending.game_over", { number: game.number });
    else title = s.match.format === "single" ? t("ending.single_over") : t("ending.match_over");
    $("game-end-title").textContent = title;
    $("game-end-result").replaceChildren(gameResult(s, game, texts, named));
    renderScores(s, game);
    const match = $("game-end-match");
    const outcome = finished ? result(s, texts, named) : null;
    match.hidden = !outcome;
    match.replaceChildren();
    if (outcome) match.append(outcome);
    renderNext(s);
  }

  function renderScores(s, game) {
    const single = s.match.format === "single";
    $("game-end-scores").classList.toggle("single", single);
    const body = $("game-end-scores-body");
    body.replaceChildren();
    for (const side of s.game.figures) {
      const first = seatIndex(side.seats[0]);
      const row = el("tr");
      row.classList.toggle("won", side.seats.some((l) => game.winners.includes(l)));
      row.classList.toggle("mine", side.seats.includes(mySeat(s)));
      const head = el("th");
      head.scope = "row";
      head.append(named(side.seats));
      row.append(head, el("td", "score", String(game.scores[first])));
      row.append(el("td", "points", halves(s.match.points[first])));
      body.append(row);
    }
  }

  function renderNext(s) {
    const next = $("game-end-next");
    const at = s.match.next_game_at;
    next.hidden = s.match.status !== "between_games" || !at;
    if (next.hidden) return;
    const time = el("strong", "countdown");
    time.dataset.nextGameAt = at;
    const tick = () => {
      const text = formatCountdown(at - table.serverNow());
      if (time.textContent !== text) time.textContent = text;
    };
    tick();
    next.replaceChildren(phrase(texts, "ending.next", { number: s.game.number + 1, time: time }));
    ticker = setInterval(tick, TICK_MS);
  }

  fold.addEventListener("click", () => {
    if (table.state.match.status === "finished") {
      closed = shownFor;
    } else {
      folded = !folded;
    }
    render();
  });

  return { render };
}
