/* The players' clocks: the server's remaining times counted down between two states
   (the server's periodic tick, not this display, decides when a flag falls). */

import { seatIndex } from "./seats.js";

const LOW_MS = 20000;

/** Minutes and seconds, never below zero: 65000 -> "1:05". */
export function formatClock(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return minutes + ":" + String(seconds).padStart(2, "0");
}

/** The clocks inside root ([data-clock-seat]); start(clock) restarts the count from a
    state's clock (null: no clock), and the display updates four times a second. */
export function createClock(root) {
  let base = null;

  function tick() {
    if (!base) return;
    const { clock, at } = base;
    const elapsed = performance.now() - at;
    for (const node of root.querySelectorAll("[data-clock-seat]")) {
      const i = seatIndex(node.dataset.clockSeat);
      const running = clock.running === node.dataset.clockSeat;
      const ms = clock.remaining_ms[i] - (running ? elapsed : 0);
      node.textContent = formatClock(ms);
      node.classList.toggle("running", running);
      node.classList.toggle("low", ms < LOW_MS);
    }
  }

  function start(clock) {
    base = clock ? { clock: clock, at: performance.now() } : null;
    tick();
  }

  setInterval(tick, 250);
  return { start };
}
