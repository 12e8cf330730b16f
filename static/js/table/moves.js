/* The move list, the spectator count, and what a screen reader hears after each state:
   the new moves, and the game or match results they brought. */

import { byId as $, el } from "../dom.js";
import { gameResultText, resultText } from "./results.js";
import { memberLink, playerName, replayable } from "./seats.js";

/** The move list of the table; render(previous) redraws it for table.state when it
    changed and announces what is new since previous. */
export function setupMoves(table) {
  const { texts, palette } = table;
  const { t, counted } = texts;
  let movesShown = "";
  const nameOf = (letter) => playerName(table.state, letter, texts);

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
        const list = el("ol", "move-list");
        for (const move of game.moves) {
          const item = el("li", "move");
          item.dataset.game = game.number;
          item.dataset.ply = move.ply;
          const ply = el(jumps ? "button" : "span", "ply", move.ply + ".");
          if (jumps) {
            ply.type = "button";
            ply.classList.add("ply-jump");
            ply.dataset.game = game.number;
            ply.dataset.ply = move.ply;
            ply.title = t("replay.jump", { ply: move.ply });
          }
          item.append(ply);
          const who = el("span", "who");
          who.append(el("span", "seat-letter", move.seat), memberLink(s, move.seat, texts));
          item.append(who);
          if (move.color === "swap") {
            item.append(el("span", "swap-mark", t("swap")));
          } else {
            const swatch = el("span", "swatch sw-" + move.color);
            swatch.append(el("span", "swatch-sym", palette[move.color] ? palette[move.color].symbol : ""));
            swatch.title = palette[move.color] ? palette[move.color].label : "";
            item.append(swatch);
            item.append(el("span", "gain", "+" + move.gained));
          }
          list.append(item);
        }
        box.append(list);
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
            ? t("announce.swap", { player: nameOf(move.seat) })
            : t("announce.move", {
                player: nameOf(move.seat),
                colour: palette[move.color] ? palette[move.color].name : move.color,
                gained: move.gained,
              })
        );
      }
      if (game.reason && !(previous.games[game.number - 1] || {}).reason) {
        said.push(gameResultText(s, game, texts));
      }
    }
    if (s.match.result && !previous.match.result) said.push(resultText(s, texts));
    if (said.length) $("announcer").textContent = said.filter(Boolean).join(". ");
  }

  function renderSpectators() {
    $("spectators").textContent = counted("spectators", table.state.match.spectators || 0);
  }

  return { render, renderSpectators };
}
