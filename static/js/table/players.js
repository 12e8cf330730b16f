/* Players named where more than two seats share a table (SPEC §10): beside each name the
   seat letter and the seat's colour swatch, so that three "Computer (level 2)" can be
   told apart, as on the sides above the board. With two seats a name stays as it is. */

import { el } from "../dom.js";
import { listed } from "./phrases.js";
import { memberLink, playerName, seatIndex } from "./seats.js";

/** Whether the table has more than two seats, so names carry their seat. */
export function manySeats(state) {
  return state.match.seats.length > 2;
}

/** A colour's swatch, with its symbol (shown when colour symbols are on) and its name. */
export function swatch(palette, colour) {
  const box = el("span", "swatch sw-" + colour);
  box.append(el("span", "swatch-sym", palette[colour] ? palette[colour].symbol : ""));
  box.title = palette[colour] ? palette[colour].label : "";
  return box;
}

/** The seat letter and the seat's current colour. */
export function seatMark(table, letter) {
  const mark = el("span", "seat-mark");
  mark.dataset.seat = letter;
  mark.append(el("span", "seat-letter", letter), swatch(table.palette, table.fpn.seatColors[seatIndex(letter)]));
  return mark;
}

/** The player in a seat as a node: the member's link, with the seat's mark before it
    at a table of more than two seats. */
export function playerNode(table, letter) {
  const link = memberLink(table.state, letter, table.texts);
  if (!manySeats(table.state)) return link;
  const tag = el("span", "player-tag");
  tag.append(seatMark(table, letter), " ", link);
  return tag;
}

/** The players in these seats as nodes, joined with the page's "and". */
export function playersNode(table, letters) {
  return listed(
    table.texts,
    letters.map((letter) => playerNode(table, letter))
  );
}

/** The player in a seat as text (read out): with the seat at a table of more than two. */
export function playerText(table, letter) {
  const name = playerName(table.state, letter, table.texts);
  return manySeats(table.state) ? table.texts.t("player.seat", { player: name, seat: letter }) : name;
}

/** The players in these seats as text, joined with the page's "and". */
export function playersText(table, letters) {
  return table.texts.listOf(letters.map((letter) => playerText(table, letter)));
}
