/* How games and matches ended, in words: for the match panel, the result banners and the
   announcements read out after a move. Each comes as nodes (members' names are links)
   or, for what is only read or heard, as text. Each reason a game ends for (decided,
   filled, last_side, stalled, resigned, flagged, abandoned; docs/protocol.md) has its
   own sentence, "game.won.<reason>", in the page's texts, and a drawn game "game.drawn"
   or "game.drawn.<reason>". */

import { phrase } from "./phrases.js";
import { isDraw, membersLinked, namesOf, seatIndex, sideOf } from "./seats.js";

/** Match points with halves: 1.5 -> "1½", 0.5 -> "½". */
export function halves(x) {
  const whole = Math.floor(x);
  const half = x - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : String(whole) + half;
}

/** One finished game in words (a fragment): who won it (or that it was drawn) and why,
    as one sentence per reason. names(letters) gives the players (nodes or text); by
    default their names as links. */
export function gameResult(state, game, texts, names = linked(state, texts)) {
  if (!game.winners.length || isDraw(state, game.winners)) {
    const drawn = texts.has("game.drawn." + game.reason) ? "game.drawn." + game.reason : "game.drawn";
    return phrase(texts, drawn, { number: game.number });
  }
  const key = texts.has("game.won." + game.reason) ? "game.won." + game.reason : "game.won";
  return phrase(texts, key, { winners: names(game.winners), number: game.number });
}

/** One finished game in words, as text. */
export function gameResultText(state, game, texts, names = (letters) => namesOf(state, letters, texts)) {
  return gameResult(state, game, texts, names).textContent;
}

function linked(state, texts) {
  return (letters) => membersLinked(state, letters, texts);
}

/** The match's result in words (a fragment), or null while it goes on. */
export function result(state, texts, names = linked(state, texts)) {
  const outcome = state.match.result;
  if (!outcome) return null;
  const winners = () => names(outcome.winners);
  const losers = () => names(state.match.seats.map((x) => x.seat).filter((l) => !outcome.winners.includes(l)));
  const bySide = state.game.figures.map((f) => state.match.points[seatIndex(f.seats[0])]);
  const totalsBySide = state.game.figures.map((f) => state.match.totals[seatIndex(f.seats[0])]);
  const winnerFirst = (values) => {
    const w = sideOf(state, outcome.winners[0]);
    return [values[w], ...values.filter((v, i) => i !== w)];
  };
  switch (outcome.reason) {
    case "points":
      if (state.match.format === "single") return phrase(texts, "result.points_single", { winners: winners() });
      return phrase(texts, "result.points", {
        winners: winners(),
        score: winnerFirst(bySide).map(halves).join("–"),
      });
    case "totals":
      return phrase(texts, "result.totals", {
        winners: winners(),
        score: winnerFirst(bySide).map(halves).join("–"),
        totals: winnerFirst(totalsBySide).join("–"),
      });
    case "drawn":
      return phrase(texts, "result.drawn", { score: bySide.map(halves).join("–") });
    case "stalled":
      if (isDraw(state, outcome.winners)) return phrase(texts, "result.stalled_drawn");
      return phrase(texts, "result.stalled", { winners: winners() });
    case "resigned":
    case "flagged":
    case "abandoned":
      return phrase(texts, "result." + outcome.reason, { winners: winners(), losers: losers() });
    case "aborted":
      return phrase(texts, "result.aborted");
    default:
      return winners();
  }
}

/** The match's result in words, as text, or "" while it goes on. */
export function resultText(state, texts, names = (letters) => namesOf(state, letters, texts)) {
  const nodes = result(state, texts, names);
  return nodes ? nodes.textContent : "";
}
