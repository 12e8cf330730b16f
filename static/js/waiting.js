/* A table waiting for players: the page looks again whenever someone joins or leaves,
   and goes to the match when it starts (the table's socket says so). */

import { byId } from "./dom.js";
import { openSocket } from "./socket.js";
import { localPath, show } from "./notify.js";

const root = byId("waiting");
if (root) {
  openSocket({
    path: root.dataset.wsPath,
    pingMs: root.dataset.pingMs,
    onMessage(message) {
      if (message.type === "notify") show(message);
      else if (message.type === "waiting" && message.cancelled) location.assign(localPath("/"));
      else if (message.type === "waiting" || message.type === "state") location.reload();
    },
  });
}
