/* An arena's page and the list of arenas: countdowns to each start and end, and on an
   arena's page its socket (/ws/arena/<id>/, docs/protocol.md): member notices (the
   table of a new pairing opens at once), and on each {"type": "arena"} the part of the
   page that changes fetched again; once more each time the socket opens (the member
   is on the site from then on: why they wait changes) and when the tab is shown again.
   A pairing whose table the member has not seen yet (made while they were between two
   pages, when no page heard the notice) is marked data-go: the page goes there. */

import { byId } from "./dom.js";
import { show } from "./notify.js";
import { openSocket } from "./socket.js";

/** "1:02:03" or "4:05" until a moment; "0:00" once it has come. */
function left(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

function tick() {
  for (const node of document.querySelectorAll("time.countdown[datetime]")) {
    node.textContent = left(Date.parse(node.getAttribute("datetime")) - Date.now());
  }
}
tick();
setInterval(tick, 1000);

let leaving = false; // on the way to a table already (one navigation, not two)

/** To the table of a pairing the member has not seen yet, if the page names one. */
function follow() {
  const live = document.querySelector("#arena-live .arena-live[data-go]");
  if (live && !leaving) {
    leaving = true;
    location.assign(live.dataset.go);
  }
}

const page = byId("arena");
if (page) {
  let shown = +page.dataset.version;
  let fetching = null;
  follow();

  function refresh(version) {
    if (version !== undefined && version <= shown) return;
    if (fetching) return;
    fetching = fetch(page.dataset.standingsUrl, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        const box = byId("arena-live");
        box.innerHTML = html;
        const live = box.querySelector(".arena-live");
        if (live) shown = +live.dataset.version;
        page.dataset.version = String(shown);
        tick();
        follow();
      })
      .catch(() => undefined)
      .finally(() => {
        fetching = null;
      });
  }

  openSocket({
    path: `/ws/arena/${page.dataset.arena}/`,
    pingMs: document.body.dataset.pingMs,
    onMessage(message) {
      if (message.type === "notify") {
        if (message.kind === "started") leaving = true; // show() goes to the table
        show(message);
      } else if (message.type === "arena") {
        const opened = !page.dataset.live; // the first message since the socket opened
        page.dataset.live = "1"; // the socket hears the arena (the first message says so)
        // What changed while the socket was away, or since; on opening, in any case.
        refresh(opened ? undefined : message.version);
      }
    },
    onClose() {
      delete page.dataset.live;
    },
  });

  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && page.dataset.live) refresh(); // a table may have ended meanwhile
  });
}
