/* The players' clocks: the server's remaining times counted down between two states,
   read against the server's clock (each state says when it was built), so the figures
   stay right whatever the network delay. The running clock is highlighted; under ten
   seconds it turns red, shows tenths, and the player hears a warning once (sound on).
   The server decides when a flag falls, not this display. */

import { seatIndex } from "./seats.js";

const LOW_MS = 20000;
const WARN_MS = 10000;

/** Minutes and seconds, never below zero: 65000 -> "1:05"; under ten seconds with
    tenths: 9400 -> "0:09.4". */
export function formatClock(ms) {
  const left = Math.max(0, ms);
  if (left < WARN_MS) return "0:0" + (Math.floor(left / 100) / 10).toFixed(1);
  const total = Math.floor(left / 1000);
  return Math.floor(total / 60) + ":" + String(total % 60).padStart(2, "0");
}

/** The clocks inside root ([data-clock-seat]). start(clock, builtAt) restarts the count
    from a state's clock (null: no clock) built at the server time builtAt; serverNow()
    is the page's estimate of the server's clock; onWarn(letter) runs once when the
    running clock of a seat goes under ten seconds. */
export function createClock(root, { serverNow, onWarn }) {
  let base = null;
  let warned = null;

  function remaining(letter) {
    const { clock, builtAt } = base;
    const running = clock.running === letter;
    const left = clock.remaining_ms[seatIndex(letter)];
    return running ? left - Math.max(0, serverNow() - builtAt) : left;
  }

  function tick() {
    if (!base) return;
    for (const node of root.querySelectorAll("[data-clock-seat]")) {
      const letter = node.dataset.clockSeat;
      const running = base.clock.running === letter;
      const ms = remaining(letter);
      const text = formatClock(ms);
      if (node.textContent !== text) node.textContent = text;
      node.classList.toggle("running", running);
      node.classList.toggle("low", ms < LOW_MS);
      node.classList.toggle("warn", running && ms < WARN_MS);
      if (running && ms < WARN_MS && warned !== letter + base.key) {
        warned = letter + base.key;
        if (onWarn) onWarn(letter);
      }
    }
  }

  function start(clock, builtAt) {
    base = clock
      ? { clock: clock, builtAt: builtAt || serverNow(), key: clock.running + ":" + clock.remaining_ms }
      : null;
    tick();
  }

  setInterval(tick, 100);
  return { start };
}
