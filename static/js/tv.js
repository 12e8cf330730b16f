/* VOG TV (games/tv.html): the table page of the match on TV, which table/main.js keeps
   live as for any spectator. When that match ends (#table's data-status), the page says
   so and, a few seconds later (data-next-ms), loads /tv/ again: the server shows the
   next match on TV. */

import { byId as $ } from "./dom.js";

const ENDED = ["finished", "aborted"];

function start(root, notice) {
  let leaving = null;

  function check() {
    if (leaving || !ENDED.includes(root.dataset.status)) return;
    notice.hidden = false;
    leaving = setTimeout(() => location.reload(), +notice.dataset.nextMs || 5000);
  }

  new MutationObserver(check).observe(root, { attributes: true, attributeFilter: ["data-status"] });
  check();
}

const root = $("table");
const notice = $("tv-next");
if (root && notice) start(root, notice);
