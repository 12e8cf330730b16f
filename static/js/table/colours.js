/* The colour buttons: what each would do (a tooltip and the cells it would take, shown
   on the board), and playing one by click, by the keys 1–9, or on touch by a second tap
   (the first only previews). Off turn a press queues the colour as a premove (shown on
   the bar and the board), sent the moment the turn comes if it is still legal; a second
   press or Escape cancels it. A button a press would not serve is aria-disabled, its
   tooltip says why. The swap button plays the pie rule. */

import { byId as $ } from "../dom.js";
import { LETTERS, mySeat, namesOf, playingHere, yourTurn } from "./seats.js";

const TIP_SHOWN_MS = 2500; // a refused key's reason, then the tip goes

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
  let premoveGame = null; // the game a premove was queued in
  let tipTimer = null;
  table.premove = null; // the colour queued off turn, or null

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

  /** Why a press of this colour would do nothing now, in words; null when it plays
      (the player's turn) or queues (a premove). */
  function refusal(colour) {
    const state = table.state;
    const label = palette[colour].label;
    if (!mySeat(state)) return t("off.watching", { colour: label });
    if (!playingHere(state)) {
      return state.match.status === "between_games" ? t("off.between", { colour: label }) : t("off.over", { colour: label });
    }
    const reason = reasonFor(colour);
    if (reason === "own") return t("tip.own", { colour: label });
    if (reason === "opponent" && yourTurn(state)) return t("tip.opponent", { colour: label, player: holdersOf(colour) });
    return null;
  }

  function tipFor(colour) {
    const label = palette[colour].label;
    const refused = refusal(colour);
    if (refused) return refused;
    if (!yourTurn(table.state)) {
      return table.premove === colour ? t("premove.queued", { colour: label }) : t("premove.offer", { colour: label });
    }
    const cells = previewOf(colour);
    if (!cells) return label;
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

  /** Whether a press of this colour now queues it for the player's next turn. */
  function premovable(colour) {
    return playingHere(table.state) && (!yourTurn(table.state) || table.pending) && refusal(colour) === null;
  }

  function render() {
    const state = table.state;
    for (const button of buttons) {
      const colour = +button.dataset.color;
      const reason = reasonFor(colour);
      const tip = tipFor(colour);
      const refused = !playable(colour) && !premovable(colour);
      button.classList.toggle("forbidden", reason === "own" || (reason === "opponent" && yourTurn(state)));
      button.classList.toggle("armed", table.armed === colour);
      button.classList.toggle("premove", table.premove === colour);
      button.setAttribute("aria-disabled", String(refused));
      button.setAttribute("aria-pressed", String(table.premove === colour));
      button.title = tip;
      button.dataset.tooltip = tip;
    }
    const bar = $("colour-bar");
    if (table.premove === null) delete bar.dataset.premove;
    else bar.dataset.premove = String(table.premove);
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
      board.highlight(premovePreview());
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
    board.highlight(yourTurn(table.state) ? previewOf(colour) || [] : premovePreview(colour));
  }

  /** The cells a queued premove (or the colour pointed at off turn) would take now. */
  function premovePreview(colour) {
    const wanted = colour === undefined ? table.premove : colour;
    if (wanted === null || table.replaying || !premovable(wanted)) return [];
    if (colour !== undefined && table.premove !== null && table.premove !== colour) return [];
    return board.chain(table.fpn, mySeat(table.state), wanted);
  }

  /** Show a colour's tooltip for a moment (a key that was refused says why). */
  function flashTip(colour) {
    point(colour);
    clearTimeout(tipTimer);
    tipTimer = setTimeout(() => unpoint(colour), TIP_SHOWN_MS);
  }

  function point(colour) {
    pointed = colour;
    showPointed();
  }

  function unpoint(colour) {
    if (pointed === colour) pointed = null;
    showPointed();
  }

  /** A press of a colour (click, key or second tap): play it, queue or cancel a
      premove, or say why nothing happens. The board comes back to the live position. */
  function choose(colour) {
    if (!table.state) return;
    if (table.replaying && (playable(colour) || premovable(colour))) table.backToLive();
    if (playable(colour)) {
      table.armed = null;
      sendMove(colour);
    } else if (premovable(colour)) {
      setPremove(table.premove === colour ? null : colour);
    } else {
      flashTip(colour);
    }
  }

  function setPremove(colour) {
    table.premove = colour;
    premoveGame = colour === null ? null : table.state.game.number;
    table.armed = null;
    render();
    if (colour !== null) table.announce(t("premove.queued", { colour: palette[colour].label }));
  }

  /**
   * After a new state: a premove whose turn came is sent if its colour is legal now, or
   * dropped with the reason; one from a game that ended is dropped quietly.
   */
  function afterState() {
    const state = table.state;
    if (table.premove === null) return;
    if (!playingHere(state) || state.game.number !== premoveGame) {
      setPremove(null);
      return;
    }
    if (!yourTurn(state) || table.pending) return;
    const colour = table.premove;
    table.premove = null;
    premoveGame = null;
    if (reasonFor(colour) === null) {
      sendMove(colour);
      return;
    }
    render();
    table.notice(t("premove.dropped", { reason: refusal(colour) || palette[colour].label }));
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
      if (touch && table.armed !== colour && playable(colour)) {
        table.armed = colour; // first tap: preview only
        render();
        return;
      }
      choose(colour);
    });
  }

  // Focus that came from a click or a key's reason leaves no tooltip behind.
  $("colours").addEventListener("focusout", () => {
    pointed = null;
    showPointed();
  });

  $("swap").addEventListener("click", () => {
    const state = table.state;
    if (yourTurn(state) && state.you.can_swap && !table.pending) sendMove("swap");
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable], dialog")) return;
    if (event.key === "Escape" && table.premove !== null) {
      event.preventDefault();
      setPremove(null);
      return;
    }
    if (!/^[1-9]$/.test(event.key)) return;
    const colour = +event.key;
    if (!palette[colour] || !table.state) return;
    event.preventDefault();
    choose(colour);
  });

  document.addEventListener("pointerdown", (event) => {
    if (table.armed !== null && !event.target.closest("#colours")) {
      table.armed = null;
      render();
    }
  });

  return { render, showPointed, afterState };
}
