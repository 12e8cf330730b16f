/* The site's socket on every page of a signed-in member, and on the lobby for everyone:
   notices for the member (notify.js), and on the lobby page its lists again when the
   lobby changed (htmx fetches them on the "lobby-changed" event), and for a member every
   half minute (who of the members they follow is online). */

import { openSocket } from "./socket.js";
import { show } from "./notify.js";

const body = document.body;
const onLobby = body.classList.contains("lobby-page");
let refresh = null;

function lobbyChanged() {
  // A burst of changes (tables filling at once) costs one fetch.
  clearTimeout(refresh);
  refresh = setTimeout(() => body.dispatchEvent(new CustomEvent("lobby-changed")), 250);
}

document.addEventListener("lobby-changed", (event) => {
  if (event.target === document) lobbyChanged();
});

// Who of the members one follows is online changes without any table changing: a
// member's lobby looks again every half minute as well (SPEC §14).
const FOLLOWED_REFRESH_MS = 30000;
if (onLobby && body.dataset.member === "1") setInterval(lobbyChanged, FOLLOWED_REFRESH_MS);

if (body.dataset.member === "1" || onLobby) {
  openSocket({
    path: "/ws/site/" + (onLobby ? "?lobby=1" : ""),
    pingMs: body.dataset.pingMs,
    onMessage(message) {
      if (message.type === "notify") show(message);
      else if (message.type === "lobby") lobbyChanged();
    },
    onOpen() {
      body.dataset.siteSocket = "open"; // the member's notices reach this page (a test hook)
      if (onLobby) lobbyChanged(); // what changed while the socket was away
    },
  });
}
