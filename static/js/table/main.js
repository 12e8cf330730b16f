/* The table page (docs/protocol.md): one websocket, and a state machine that takes each
   "state" the server sends (skipping any it has seen, asking for a resync after a gap)
   and redraws the board, the colour buttons, the panel, the moves and the clocks.
   Every visible text comes from the template (<template id="table-texts">). */

import { byId as $ } from "../dom.js";
import { openSocket } from "../socket.js";
import { readTexts } from "../texts.js";
import { createBoard, parseFpn } from "./board.js";
import { setupChat } from "./chat.js";
import { setupLayout } from "./layout.js";
import { createClock } from "./clock.js";
import { setupEnding } from "./ending.js";
import { readPalette, setupColours } from "./colours.js";
import { setupMoves } from "./moves.js";
import { setupKeys } from "./keys.js";
import { setupOptions } from "./options.js";
import { localPath, show as notify } from "../notify.js";
import { desktopNotify } from "../desktop.js";
import { setupPanel } from "./panel.js";
import { setupPractice } from "./practice.js";
import { setupReplay } from "./replay.js";
import { setupAnalysis } from "./analysis.js";
import { mySeat, yourTurn } from "./seats.js";
import { createSound } from "../sound.js";

// Closed for good (docs/protocol.md): what the page says instead of reconnecting.
const CLOSED_TEXTS = {
  4401: "closed.session",
  4403: "closed.banned",
  4404: "error.not_found",
  4410: "closed.deleted",
  4429: "closed.too_many",
};
const ERROR_SHOWN_MS = 6000;
const CHAT_ERROR_WINDOW_MS = 5000;

function start(root) {
  const texts = readTexts("table-texts");
  const { t } = texts;
  const baseTitle = document.title;
  let connection = null;
  let lastVersion = -1;
  let lastAction = { type: null, at: 0 };
  let firstOnSocket = true; // the first state on a (re)connection is whole: no gap to see
  let errorTimer = null;
  // The server's clock is the truth: its moments (expiries, deadlines) are read against
  // it, corrected by every state.
  let serverOffset = 0;

  // What the table's modules share: the last state and what the page did since.
  const table = {
    root: root,
    texts: texts,
    palette: readPalette(root),
    state: null,
    fpn: null,
    pending: false, // a move was sent and its state has not arrived yet
    armed: null, // touch: the colour tapped once (a second tap plays it)
    replaying: false, // the board shows an earlier position (replay.js)
    send: send,
    serverNow: () => Date.now() + serverOffset,
    notice: showNotice, // a word for the player under the board (a dropped premove)
    announce: (text) => ($("announcer").textContent = text), // for screen readers
    backToLive: () => undefined, // replay.js: the board shows the live position again
  };

  const board = createBoard(root, table.palette);
  const colours = setupColours(table, board);
  const practice = setupPractice(table, board);
  const sound = createSound(root);
  const panel = setupPanel(table);
  const ending = setupEnding(table);
  const moves = setupMoves(table);
  const chat = setupChat(table);
  const clock = createClock(root, {
    serverNow: () => table.serverNow(),
    onWarn(letter) {
      // Under ten seconds on the player's own clock: a warning they can hear.
      if (table.state && table.state.you.seat === letter) sound.beep();
    },
  });
  setupOptions(root, sound);
  setupKeys(root);
  $("berserk").addEventListener("click", () => send({ type: "berserk" }, "berserk"));
  const layout = setupLayout(root, { seated: () => mySeat(table.state) !== null });
  let analysis = null;
  const replay = setupReplay(table, board, {
    onChange() {
      ending.render();
      layout.fit();
    },
    onSpot(spot, entry) {
      if (analysis) analysis.spotted(spot, entry);
    },
  });
  analysis = setupAnalysis(table, board, replay);

  /** Send a message on the table's socket; action names what the player did, for errors. */
  function send(message, action) {
    if (!connection || !connection.send(message)) return false;
    if (action) lastAction = { type: action, at: Date.now() };
    return true;
  }

  function applyState(next, options) {
    if (next.version <= lastVersion) return; // older or repeated
    if (options.checkGap && lastVersion >= 0 && next.version > lastVersion + 1) {
      send({ type: "sync" }); // we missed something: ask for the whole state again
    }
    const previous = table.state;
    table.state = next;
    lastVersion = next.version;
    if (next.server_time) serverOffset = next.server_time - Date.now();
    table.pending = false;
    table.fpn = parseFpn(next.game.position);
    if (!previous || previous.game.number !== next.game.number || previous.game.ply !== next.game.ply) {
      table.armed = null;
    }
    render(previous);
    colours.afterState(); // a premove whose turn came goes now
    // Everyone accepted a rematch: it starts now, and the page follows it (a reader in the
    // middle of a replay keeps it, with the link to the rematch in the panel).
    if (next.match.rematch && previous && !previous.match.rematch && !table.replaying) {
      location.assign(localPath(next.match.rematch_url));
    }
  }

  function render(previous) {
    const s = table.state;
    root.dataset.version = s.version;
    root.dataset.status = s.match.status;
    root.dataset.game = s.game.number;
    root.dataset.ply = s.game.ply;
    root.dataset.toMove = s.game.to_move;
    if (!table.replaying) board.draw(table.fpn); // a replay keeps its position meanwhile
    panel.renderSides();
    $("berserk").hidden = !(s.you && s.you.can_berserk); // arena matches (SPEC §12)
    colours.render();
    practice.render();
    panel.renderStatus();
    panel.renderMatch();
    ending.render();
    moves.render(previous);
    replay.render();
    analysis.render();
    moves.renderSpectators();
    clock.start(s.clock, s.server_time);
    layout.fit();
    announceTurn(previous);
    // Once the browser has laid this state out, tests learn which version the page shows.
    const version = s.version;
    requestAnimationFrame(() => {
      if (table.state.version === version) document.querySelector("main").dataset.drawnVersion = version;
    });
  }

  function announceTurn(previous) {
    const s = table.state;
    const mine = yourTurn(s);
    // The tab says it first, in the page's language, so a member sees it among many tabs.
    document.title = mine ? t("your_turn") + " · " + baseTitle : baseTitle;
    const wasMine =
      previous && yourTurn(previous) && previous.game.number === s.game.number && previous.game.ply === s.game.ply;
    if (mine && previous && !wasMine) {
      sound.beep();
      if (document.hidden) desktopNotify("notification.turn", {}, "turn-" + s.match.id);
    }
  }

  /** A text in a notice element for a few seconds. */
  function showIn(target, text) {
    target.textContent = text;
    target.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => {
      target.hidden = true;
    }, ERROR_SHOWN_MS);
  }

  function showNotice(text) {
    showIn($("table-error"), text);
  }

  function showError(code, serverText) {
    // The server's message is in the page's language and says the most; the page's own
    // text per code is the fallback.
    const text = serverText || (texts.has("error." + code) ? t("error." + code) : t("error.unknown"));
    const recentChat = lastAction.type === "chat" && Date.now() - lastAction.at < CHAT_ERROR_WINDOW_MS;
    const chatError = $("chat-error");
    const target = (code === "rate_limited" || recentChat) && chatError ? chatError : $("table-error");
    showIn(target, text);
    if (table.pending) {
      table.pending = false;
      colours.render();
    }
    // our view of the game was behind: fetch the whole state again
    if (code === "stale" || code === "not_your_turn") send({ type: "sync" });
  }

  function onMessage(message) {
    if (message.type === "state") {
      applyState(message, { checkGap: !firstOnSocket });
      if (firstOnSocket) root.dataset.synced = "1"; // the socket hears the table (a test hook)
      firstOnSocket = false;
    } else if (message.type === "hint") {
      practice.show(message); // for this socket only, at practice tables
    } else if (message.type === "chat") {
      chat.add(message);
    } else if (message.type === "chat_hide") {
      chat.hide(message.usernames); // this member blocked someone (SPEC §14)
    } else if (message.type === "analysis") {
      analysis.progress(message); // the computer's review, as it goes (SPEC §13)
    } else if (message.type === "error") {
      showError(message.code, message.message);
    } else if (message.type === "notify") {
      if (message.kind === "chat_standing") chat.setMuted(message.muted, message.until);
      else notify(message); // a challenge and the like: the table's socket carries them too
    }
  }

  function onOpen() {
    firstOnSocket = true;
    $("reconnecting").hidden = true;
  }

  function onClose({ code, final }) {
    table.pending = false;
    delete root.dataset.synced;
    if (final) {
      const notice = $("table-error");
      notice.textContent = t(CLOSED_TEXTS[code]);
      notice.hidden = false;
      return;
    }
    $("reconnecting").hidden = false;
  }

  applyState(JSON.parse($("table-state").textContent), { checkGap: false });
  window.addEventListener("resize", colours.showPointed);
  connection = openSocket({
    path: root.dataset.wsPath,
    pingMs: +root.dataset.pingMs,
    finalCodes: Object.keys(CLOSED_TEXTS).map(Number),
    onMessage: onMessage,
    onOpen: onOpen,
    onClose: onClose,
  });
}

const root = $("table");
if (root) start(root);
