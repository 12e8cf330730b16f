/* Practice tables (root's data-practice="1"): the player asks for a hint (the button or
   the key h) and the server answers this socket with a colour and the cells it takes,
   shown like a preview (a colour that takes nothing says what it keeps from the
   opponent); "Take back" undoes the player's last move and the computer's
   answer (the server sends the new state as usual). */

import { byId as $ } from "../dom.js";
import { mySeat, yourTurn } from "./seats.js";

/** Wire the practice buttons; returns render() for a new state and show(message) for a
    "hint" message. */
export function setupPractice(table, board) {
  const { root, texts, palette } = table;
  const { t, counted } = texts;
  const practice = root.dataset.practice === "1";
  let hint = null; // the hint shown: {colour, at: "game:ply"}

  function at(state) {
    return state.game.number + ":" + state.game.ply;
  }

  function movedInGame(state) {
    const game = state.games[state.game.number - 1];
    return !!game && game.moves.some((move) => move.seat === mySeat(state));
  }

  function askable() {
    return practice && yourTurn(table.state) && !table.pending;
  }

  function clear() {
    if (hint && palette[hint.colour]) palette[hint.colour].button.classList.remove("hinted");
    hint = null;
    board.mark("hint", []);
    $("hint-text").hidden = true;
  }

  function render() {
    const s = table.state;
    const box = $("practice");
    box.hidden = !(practice && mySeat(s));
    if (hint && hint.at !== at(s)) clear(); // the board moved on: the hint is old
    if (box.hidden) return;
    $("hint").disabled = !askable();
    $("takeback").disabled = !(askable() && movedInGame(s));
  }

  function show(message) {
    if (!practice || !table.state || !palette[message.color]) return;
    clear();
    hint = { colour: message.color, at: at(table.state) };
    palette[message.color].button.classList.add("hinted");
    board.mark("hint", message.cells || []);
    const text = $("hint-text");
    const gained = message.gained !== undefined ? message.gained : (message.cells || []).length;
    const colour = palette[message.color].label;
    const denies = message.denies; // a colour that takes nothing now: what it keeps from the opponent
    text.textContent =
      !gained && denies && denies.cells > 0
        ? t("hint.denies", { colour: colour, cells: counted("cells", denies.cells) })
        : t("hint.text", { colour: colour, cells: counted("cells", gained) });
    text.hidden = false;
  }

  function ask() {
    if (askable()) table.send({ type: "hint" }, "hint");
  }

  $("hint").addEventListener("click", ask);
  $("takeback").addEventListener("click", () => {
    if (!askable() || !movedInGame(table.state)) return;
    if (table.send({ type: "takeback" }, "takeback")) clear();
  });
  document.addEventListener("keydown", (event) => {
    if (!practice || event.key !== "h" || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable], dialog")) return;
    event.preventDefault();
    ask();
  });

  return { render, show };
}
