/* The home page's live board (games/_live_board.html): the match on VOG TV drawn small,
   kept live over the table's socket as any spectator's page is. Each state recolours the
   board (table/board.js), and sets each seat's colour, score and clock (table/clock.js's
   figures) and whose turn it is. When the match ends, htmx fetches the board of the next
   match on TV in its place (the element's hx-trigger "tv-next"), which is then watched in
   turn. */

import { byId as $ } from "./dom.js";
import { openSocket } from "./socket.js";
import { createBoard, parseFpn } from "./table/board.js";
import { formatClock } from "./table/clock.js";
import { seatIndex } from "./table/seats.js";

const ENDED = ["finished", "aborted"];
const TICK_MS = 200;

/** Watch the board in root; returns { tick, close }. */
function watch(root) {
  const board = createBoard(root, {});
  let version = -1;
  let clock = null; // the last state's clock and when it came
  let leaving = null;
  let connection = null;

  function show(state) {
    if (state.version <= version) return;
    version = state.version;
    const fpn = parseFpn(state.game.position);
    board.draw(fpn);
    const playing = state.match.status === "playing";
    for (const seat of root.querySelectorAll(".live-seat")) {
      seat.classList.toggle("to-move", playing && state.game.to_move === seat.dataset.seat);
    }
    for (const node of root.querySelectorAll("[data-score-seat]")) {
      node.textContent = state.game.scores[seatIndex(node.dataset.scoreSeat)];
    }
    for (const node of root.querySelectorAll("[data-swatch-seat]")) {
      node.className = "live-swatch sw-" + fpn.seatColors[seatIndex(node.dataset.swatchSeat)];
    }
    clock = state.clock ? { value: state.clock, at: Date.now() } : null;
    tick();
    root.dataset.status = state.match.status;
    root.dataset.game = state.game.number;
    root.dataset.ply = state.game.ply; // after the drawing: tests wait on it
    if (ENDED.includes(state.match.status) && !leaving) {
      leaving = setTimeout(next, +root.dataset.nextMs || 5000);
    }
  }

  function tick() {
    if (!clock) return;
    for (const node of root.querySelectorAll("[data-clock-seat]")) {
      const letter = node.dataset.clockSeat;
      const running = clock.value.running === letter;
      const left = clock.value.remaining_ms[seatIndex(letter)];
      const text = formatClock(running ? left - (Date.now() - clock.at) : left);
      if (node.textContent !== text) node.textContent = text;
      node.classList.toggle("running", running);
    }
  }

  function next() {
    close();
    root.dispatchEvent(new CustomEvent("tv-next")); // htmx swaps the next board in
  }

  function close() {
    if (connection) connection.close();
    connection = null;
  }

  const initial = root.querySelector("#live-board-state");
  if (initial) show(JSON.parse(initial.textContent));
  connection = openSocket({
    path: root.dataset.wsPath,
    pingMs: +root.dataset.pingMs,
    onMessage(message) {
      if (message.type !== "state") return;
      show(message);
      root.dataset.synced = "1"; // the socket hears the table (a test hook)
    },
    onClose() {
      delete root.dataset.synced;
    },
  });
  return { tick, close };
}

let watched = null;

function begin(root) {
  if (watched) watched.close();
  watched = root && root.dataset.wsPath ? watch(root) : null;
}

setInterval(() => watched && watched.tick(), TICK_MS);
document.body.addEventListener("htmx:load", (event) => {
  if (event.target && event.target.id === "live-board") begin(event.target);
});
begin($("live-board"));
