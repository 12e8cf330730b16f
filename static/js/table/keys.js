/* The table's keys that belong to no one part: "?" opens the list of shortcuts, and
   Escape in a text field (the chat) gives the keys back to the board. The colour keys,
   premoves and the replay's arrows are wired where they act (colours.js, replay.js). */

import { byId as $ } from "../dom.js";

const TYPING = "input, textarea, select, [contenteditable]";

/** Focus the board, so the colour and arrow keys act on it again. */
export function focusBoard() {
  const board = $("board-wrap");
  if (board) board.focus({ preventScroll: true });
}

export function setupKeys(root) {
  const dialog = $("shortcuts");
  const opener = $("shortcuts-open");

  function openShortcuts() {
    if (dialog && !dialog.open) dialog.showModal();
  }

  if (opener) opener.addEventListener("click", openShortcuts);
  if (dialog) dialog.addEventListener("close", focusBoard);

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const typing = target.closest && target.closest(TYPING);
    if (typing && root.contains(typing)) {
      if (event.key === "Escape") {
        event.preventDefault();
        typing.blur();
        focusBoard();
      }
      return;
    }
    if (event.key === "?" && !(target.closest && target.closest("dialog"))) {
      event.preventDefault();
      openShortcuts();
    }
  });
}
