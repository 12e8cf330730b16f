/* The move list, the spectator count, and what a screen reader hears after each state:
   the new moves, and the game or match results they brought.

   Two seats: a list of moves, each with its player. Three or four seats: per game a
   table with a column per seat in the game's turn order (headed by the seat's letter,
   colour and player) and a row per round. Either way each move is an element .move with
   data-game and data-ply, and its ply number a button.ply-jump (with the same data) when
   the moves can be stepped through (replay.js). */

import { byId as $, el } from "../dom.js";
import { manySeats, playersText, playerText, seatMark, swatch } from "./players.js";
import { gameResultText, resultText } from "./results.js";
import { LETTERS, memberLink, replayable, seatIndex } from "./seats.js";

/** The move list of the table; render(previous) redraws it for table.state when it
    changed and announces what is new since previous. */
export function setupMoves(table) {
  const { texts, palette } = table;
  const { t, counted } = texts;
  let movesShown = "";
  const names = (letters) => playersText(table, letters);

  /** The ply number: a button that shows the board after the move, when it can. */
  function plyOf(game, move, jumps) {
    const ply = el(jumps ? "button" : "span", "ply", move.ply + ".");
    if (jumps) {
      ply.type = "button";
      ply.classList.add("ply-jump");
      ply.dataset.game = game.number;
      ply.dataset.ply = move.ply;
      ply.title = t("replay.jump", { ply: move.ply });
    }
    return ply;
  }

  /** What the move did: its colour and the cells it took, or the swap. */
  function played(move) {
    if (move.color === "swap") return [el("span", "swap-mark", t("swap"))];
    return [swatch(palette, move.color), el("span", "gain", "+" + move.gained)];
  }

  function moveItem(tag, game, move, jumps) {
    const item = el(tag, "move");
    item.dataset.game = game.number;
    item.dataset.ply = move.ply;
    item.dataset.seat = move.seat;
    item.append(plyOf(game, move, jumps));
    return item;
  }

  /** Two seats: one item per move, with who played it. */
  function moveList(game, jumps) {
    const list = el("ol", "move-list");
    for (const move of game.moves) {
      const item = moveItem("li", game, move, jumps);
      const who = el("span", "who");
      who.append(el("span", "seat-letter", move.seat), memberLink(table.state, move.seat, texts));
      item.append(who, ...played(move));
      list.append(item);
    }
    return list;
  }

  /** Three or four seats: a column per seat from the game's first mover on, a row per
      round (a seat that is out leaves its cell empty). */
  function moveTable(game, jumps) {
    const s = table.state;
    const count = s.match.seats.length;
    const opening = game.moves.length ? game.moves[0].seat : game.number === s.game.number ? s.game.to_move : "A";
    const first = seatIndex(opening);
    const order = Array.from({ length: count }, (_, i) => LETTERS[(first + i) % count]);
    const grid = el("table", "move-table");
    grid.dataset.game = game.number;
    grid.dataset.columns = count;
    const head = el("tr");
    for (const letter of order) {
      const cell = el("th");
      cell.scope = "col";
      cell.dataset.seat = letter;
      cell.append(seatMark(table, letter), " ", memberLink(s, letter, texts));
      cell.title = playerText(table, letter);
      head.append(cell);
    }
    const thead = el("thead");
    thead.append(head);
    const body = el("tbody");
    let row = null;
    let column = count; // the column of the last move in the row
    for (const move of game.moves) {
      const at = order.indexOf(move.seat);
      if (at <= column) {
        row = el("tr", "round");
        body.append(row);
        column = -1;
      }
      for (let i = column + 1; i < at; i++) row.append(el("td", "empty"));
      const item = moveItem("td", game, move, jumps);
      item.append(...played(move));
      row.append(item);
      column = at;
    }
    grid.append(thead, body);
    return grid;
  }

  function render(previous) {
    const s = table.state;
    const jumps = replayable(s); // the ply numbers go to that move in the replay
    const key = s.games.map((g) => g.number + ":" + g.moves.length).join(",") + (jumps ? "+" : "");
    if (key !== movesShown) {
      movesShown = key;
      const box = $("moves");
      box.replaceChildren();
      for (const game of s.games) {
        if (s.games.length > 1 || s.match.format !== "single") {
          box.append(el("h3", "moves-game", t("game", { number: game.number })));
        }
        box.append(manySeats(s) ? moveTable(game, jumps) : moveList(game, jumps));
      }
      box.scrollTop = box.scrollHeight;
    }
    if (previous) announce(previous);
  }

  function announce(previous) {
    const s = table.state;
    const seen = {};
    for (const game of previous.games) seen[game.number] = game.moves.length;
    const said = [];
    for (const game of s.games) {
      for (const move of game.moves.slice(seen[game.number] || 0)) {
        said.push(
          move.color === "swap"
            ? t("announce.swap", { player: playerText(table, move.seat) })
            : t("announce.move", {
                player: playerText(table, move.seat),
                colour: palette[move.color] ? palette[move.color].name : move.color,
                gained: move.gained,
              })
        );
      }
      if (game.reason && !(previous.games[game.number - 1] || {}).reason) {
        said.push(gameResultText(s, game, texts, names));
      }
    }
    if (s.match.result && !previous.match.result) said.push(resultText(s, texts, names));
    // Each is a sentence of its own; a result's text already ends with its full stop.
    const sentences = said.filter(Boolean).map((text) => (/[.!?…]$/.test(text) ? text : text + "."));
    if (sentences.length) $("announcer").textContent = sentences.join(" ");
  }

  function renderSpectators() {
    $("spectators").textContent = counted("spectators", table.state.match.spectators || 0);
  }

  return { render, renderSpectators };
}
