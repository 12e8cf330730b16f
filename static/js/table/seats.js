/* Who sits where in a table state (docs/protocol.md, "state"), whose turn it is, and the
   members' names (as text, or as links to their pages). */

import { el } from "../dom.js";
import { localPath } from "../notify.js";
import { listed } from "./phrases.js";

/** The seat letters, in seat order. */
export const LETTERS = "ABCD";

/** The index of a seat letter in the state's per-seat lists. */
export function seatIndex(letter) {
  return LETTERS.indexOf(letter);
}

/** The seat letter of the member looking at the page, or null for a spectator. */
export function mySeat(state) {
  return state && state.you ? state.you.seat : null;
}

/** Whether the member looking at the page is to move now. */
export function yourTurn(state) {
  return !!(
    state &&
    state.you &&
    state.you.seat &&
    state.match.status === "playing" &&
    !state.game.over &&
    state.game.to_move === state.you.seat
  );
}

/** The index of the side (in game.figures) that holds this seat. */
export function sideOf(state, letter) {
  return state.game.figures.findIndex((f) => f.seats.includes(letter));
}

/** Whether winners on more than one side mean a draw. */
export function isDraw(state, winners) {
  return new Set(winners.map((letter) => sideOf(state, letter))).size > 1;
}

/** The name of the member in a seat, the computer's with its level, or the page's text
    for a deleted member. */
export function playerName(state, letter, texts) {
  const seat = state.match.seats[seatIndex(letter)];
  if (seat && seat.bot) return texts.t("bot", { level: seat.bot });
  return seat && seat.username ? seat.username : texts.t("deleted");
}

/** The names of the members in these seats, as one phrase. */
export function namesOf(state, letters, texts) {
  return texts.listOf(letters.map((letter) => playerName(state, letter, texts)));
}

/** A member's name as a link to their page (in the page's language), or the page's text
    for a deleted member; a bot account's with the BOT mark before it (SPEC §15). */
export function memberLink(state, letter, texts) {
  const seat = state.match.seats[seatIndex(letter)];
  if (seat && seat.bot) return el("span", "member bot", texts.t("bot", { level: seat.bot }));
  if (!seat || !seat.username) return el("span", "member deleted", texts.t("deleted"));
  if (seat.title !== "BOT") return userLink(seat.username);
  const named = el("span", "titled");
  named.append(el("span", "bot-mark", "BOT"), userLink(seat.username));
  return named;
}

/** A link to the page of the member with this username. */
export function userLink(username) {
  const link = el("a", "member", username);
  link.title = username; // the whole name where the page ends it in an ellipsis
  link.href = localPath("/@/" + encodeURIComponent(username) + "/");
  return link;
}

/** The members in these seats as links, joined with the page's "and". */
export function membersLinked(state, letters, texts) {
  return listed(
    texts,
    letters.map((letter) => memberLink(state, letter, texts))
  );
}

/** Whether the page may step through the moves: a match that is over, and one being
    played, for its players and spectators alike (the live board waits meanwhile). */
export function replayable(state) {
  const status = state.match.status;
  return status === "finished" || status === "aborted" || status === "playing" || status === "between_games";
}

/** Whether the member looking at the page is seated in a game being played and still
    in it (a premove can wait for their turn). */
export function playingHere(state) {
  const letter = mySeat(state);
  if (!letter || state.match.status !== "playing" || state.game.over) return false;
  const seat = state.match.seats[seatIndex(letter)];
  return !(seat && seat.out);
}
