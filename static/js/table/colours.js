/* The colour buttons: what each would do (a tooltip and the cells it would take, shown
   on the board), and playing one by click, by the keys 1–9, or on touch by a second tap
   (the first only previews). The swap button plays the pie rule. */

import { byId as $ } from "../dom.js";
import { LETTERS, mySeat, namesOf, yourTurn } from "./seats.js";

/** The palette the server put on the buttons: {colour: {name, label, symbol, button}}. */
export function readPalette(root) {
  const palette = {};
  for (const button of root.querySelectorAll("#colours .colour")) {
    palette[+button.dataset.color] = {
      name: button.dataset.name,
      label: button.dataset.label,
      symbol: button.dataset.symbol,
      button: button,
    };
  }
  return palette;
}

/**
 * Wire the colour buttons, the swap button and the keys of the table. Reads and sets
 * table.pending (a move sent, its state not back yet) and table.armed (touch: the colour
 * tapped once). Returns render() for a new state and showPointed() for a new layout.
 */
export function setupColours(table, board) {
  const { root, palette } = table;
  const { t, counted } = table.texts;
  const buttons = Array.from(root.querySelectorAll("#colours .colour"));
  let pointed = null; // the colour under the pointer or keyboard focus
  let lastPointer = null;

  function reasonFor(colour) {
    const legal = table.state.you && table.state.you.legal;
    if (!legal || !(String(colour) in legal)) return undefined; // spectators
    return legal[String(colour)];
  }

  function previewOf(colour) {
    const previews = table.state.you && table.state.you.previews;
    return previews ? previews[String(colour)] : undefined;
  }

  function holdersOf(colour) {
    const state = table.state;
    const mine = mySeat(state);
    const letters = [];
    table.fpn.seatColors.forEach((c, i) => {
      const letter = LETTERS[i];
      if (c === colour && letter !== mine && !state.match.seats[i].out) letters.push(letter);
    });
    return namesOf(state, letters, table.texts);
  }

  function tipFor(colour) {
    const label = palette[colour].label;
    const reason = reasonFor(colour);
    if (reason === "own") return t("tip.own", { colour: label });
    if (reason === "opponent") return t("tip.opponent", { colour: label, player: holdersOf(colour) });
    const cells = previewOf(colour);
    if (!cells || !yourTurn(table.state)) return label;
    const values = {
      colour: label,
      cells: counted("cells", cells.length),
    };
    if (table.fpn.values.size) {
      const points = cells.reduce((sum, i) => sum + (table.fpn.values.get(i) || 1), 0);
      values.points = counted("points", points);
      return t("tip.gain_points", values);
    }
    return t("tip.gain", values);
  }

  function playable(colour) {
    return yourTurn(table.state) && !table.pending && reasonFor(colour) === null;
  }

  function render() {
    const state = table.state;
    for (const button of buttons) {
      const colour = +button.dataset.color;
      const reason = reasonFor(colour);
      const tip = tipFor(colour);
      button.classList.toggle("forbidden", reason === "own" || reason === "opponent");
      button.classList.toggle("armed", table.armed === colour);
      button.setAttribute("aria-disabled", String(!playable(colour)));
      button.title = tip;
      button.dataset.tooltip = tip;
    }
    const swap = $("swap");
    swap.hidden = !(yourTurn(state) && state.you.can_swap);
    swap.disabled = table.pending;
    swap.title = t("tip.swap");
    root.classList.toggle("my-turn", yourTurn(state));
    root.classList.toggle("idle", state.match.status !== "playing" || state.game.over);
    showPointed();
  }

  function showPointed() {
    const tip = $("colour-tip");
    const colour = table.armed !== null ? table.armed : pointed;
    if (colour === null || !palette[colour]) {
      tip.hidden = true;
      board.highlight([]);
      return;
    }
    const button = palette[colour].button;
    tip.textContent = button.dataset.tooltip;
    tip.hidden = false;
    const bar = $("colour-bar");
    const centre = button.offsetLeft + button.offsetWidth / 2;
    const half = tip.offsetWidth / 2;
    const left = Math.max(half, Math.min(bar.clientWidth - half, centre));
    tip.style.left = left + "px";
    board.highlight(yourTurn(table.state) ? previewOf(colour) || [] : []);
  }

  function point(colour) {
    pointed = colour;
    showPointed();
  }

  function unpoint(colour) {
    if (pointed === colour) pointed = null;
    showPointed();
  }

  function choose(colour) {
    if (!table.state) return;
    if (!playable(colour)) {
      point(colour); // show why (the tooltip)
      return;
    }
    table.armed = null;
    sendMove(colour);
  }

  function sendMove(colour) {
    if (table.send({ type: "move", color: colour, ply: table.state.game.ply }, "move")) {
      table.pending = true;
      render();
    }
  }

  for (const button of buttons) {
    const colour = +button.dataset.color;
    button.addEventListener("pointerdown", (event) => {
      lastPointer = event.pointerType;
    });
    button.addEventListener("pointerenter", (event) => {
      if (event.pointerType !== "touch") point(colour);
    });
    button.addEventListener("pointerleave", (event) => {
      if (event.pointerType !== "touch") unpoint(colour);
    });
    button.addEventListener("focus", () => {
      if (button.matches(":focus-visible")) point(colour);
    });
    button.addEventListener("blur", () => unpoint(colour));
    button.addEventListener("click", () => {
      const touch = lastPointer === "touch";
      lastPointer = null;
      if (touch && table.armed !== colour) {
        table.armed = colour; // first tap: preview only
        render();
        return;
      }
      choose(colour);
    });
  }

  $("swap").addEventListener("click", () => {
    const state = table.state;
    if (yourTurn(state) && state.you.can_swap && !table.pending) sendMove("swap");
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable], dialog")) return;
    if (!/^[1-9]$/.test(event.key)) return;
    const colour = +event.key;
    if (!palette[colour] || !table.state) return;
    event.preventDefault();
    if (playable(colour)) {
      choose(colour);
    } else {
      palette[colour].button.focus();
      point(colour);
    }
  });

  document.addEventListener("pointerdown", (event) => {
    if (table.armed !== null && !event.target.closest("#colours")) {
      table.armed = null;
      render();
    }
  });

  return { render, showPointed };
}
