/* One websocket to the site, kept open for the life of the page (docs/protocol.md):
   it carries the page's language, pings so the server counts it present, and comes back
   after a drop with a growing delay, except when the server closed it for good.
   It knows nothing of what it carries: a page hands it callbacks. */

import { pageLanguage } from "./dom.js";

/** Close codes after which reconnecting cannot help: logged out, banned, not found,
    account deleted, too many sockets. */
export const FINAL_CLOSE_CODES = Object.freeze([4401, 4403, 4404, 4410, 4429]);

const FIRST_DELAY_MS = 1000;
const LONGEST_DELAY_MS = 15000;
const PING_MS = 20000;

/** The ws:// or wss:// address of a path on this site, with ?lang=<page language>. */
export function socketUrl(path, lang = pageLanguage()) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const joiner = path.includes("?") ? "&" : "?";
  return scheme + location.host + path + joiner + "lang=" + encodeURIComponent(lang);
}

/**
 * Open a websocket to path and keep it open.
 *
 *   const socket = openSocket({ path: "/ws/lobby/", onMessage: (message) => show(message) });
 *   socket.send({ type: "ping" });  // false while the socket is not open
 *
 * onMessage(message) gets every frame that parses as JSON; onOpen() runs on every
 * (re)connection; onClose({ code, final }) on every close: after a final code (finalCodes)
 * nothing more happens, otherwise it connects again after 1 s, 2 s, 4 s … up to 15 s.
 * A ping goes every pingMs. close() stops it for good, without calling onClose.
 */
export function openSocket({ path, onMessage, onOpen, onClose, pingMs, finalCodes = FINAL_CLOSE_CODES }) {
  const every = +pingMs || PING_MS;
  let socket = null;
  let delay = FIRST_DELAY_MS;
  let pinger = null;
  let retry = null;
  let stopped = false;

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  function connect() {
    const ws = new WebSocket(socketUrl(path));
    socket = ws;
    ws.addEventListener("open", () => {
      delay = FIRST_DELAY_MS;
      clearInterval(pinger);
      // Presence: a socket that sends nothing for 45 s no longer counts.
      pinger = setInterval(() => send({ type: "ping" }), every);
      if (onOpen) onOpen();
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (onMessage) onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (socket !== ws) return; // an older socket, already replaced
      clearInterval(pinger);
      if (stopped) return;
      const final = finalCodes.includes(event.code);
      if (onClose) onClose({ code: event.code, final: final });
      if (final) return;
      retry = setTimeout(connect, delay);
      delay = Math.min(delay * 2, LONGEST_DELAY_MS);
    });
  }

  function close() {
    stopped = true;
    clearTimeout(retry);
    clearInterval(pinger);
    if (socket) socket.close();
  }

  connect();
  return { send, close };
}
