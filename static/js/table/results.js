/* How games and matches ended, in words: for the match panel, the result banner and the
   announcements read out after a move. */

import { isDraw, namesOf, seatIndex, sideOf } from "./seats.js";

/** Match points with halves: 1.5 -> "1½", 0.5 -> "½". */
export function halves(x) {
  const whole = Math.floor(x);
  const half = x - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : String(whole) + half;
}

/** One finished game in words: who won it (or that it was drawn) and why. */
export function gameResultText(state, game, texts) {
  const { t } = texts;
  const reason = t("game." + game.reason);
  if (!game.winners.length || isDraw(state, game.winners)) {
    return t("game.drawn", { number: game.number, reason: reason });
  }
  return t("game.won", { winners: namesOf(state, game.winners, texts), number: game.number, reason: reason });
}

/** The match's result in words, or "" while it goes on. */
export function resultText(state, texts) {
  const { t } = texts;
  const result = state.match.result;
  if (!result) return "";
  const winners = namesOf(state, result.winners, texts);
  const losers = namesOf(
    state,
    state.match.seats.map((x) => x.seat).filter((l) => !result.winners.includes(l)),
    texts
  );
  const bySide = state.game.figures.map((f) => state.match.points[seatIndex(f.seats[0])]);
  const totalsBySide = state.game.figures.map((f) => state.match.totals[seatIndex(f.seats[0])]);
  const winnerFirst = (values) => {
    const w = sideOf(state, result.winners[0]);
    return [values[w], ...values.filter((v, i) => i !== w)];
  };
  switch (result.reason) {
    case "points":
      if (state.match.format === "single") return t("result.points_single", { winners: winners });
      return t("result.points", { winners: winners, score: winnerFirst(bySide).map(halves).join("–") });
    case "totals":
      return t("result.totals", { winners: winners, totals: winnerFirst(totalsBySide).join("–") });
    case "drawn":
      return t("result.drawn", { score: bySide.map(halves).join("–") });
    case "resigned":
    case "flagged":
    case "abandoned":
      return t("result." + result.reason, { winners: winners, losers: losers });
    case "aborted":
      return t("result.aborted");
    default:
      return winners;
  }
}
