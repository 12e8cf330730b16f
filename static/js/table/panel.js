/* Around the board: the sides with their players and figures, the status line, and the
   match panel (score table, game results, result banner, and the ready, rematch and
   resign actions with their confirmation dialogs). */

import { localPath } from "../notify.js";
import { byId as $, el, icon } from "../dom.js";
import { phrase } from "./phrases.js";
import { manySeats, playerNode, playersNode, swatch } from "./players.js";
import { gameResult, halves, result } from "./results.js";
import { isDraw, memberLink, mySeat, seatIndex, sideOf, yourTurn } from "./seats.js";

function signed(n) {
  if (n > 0) return "+" + n;
  if (n < 0) return "\u2212" + -n;
  return "0";
}

/** A rating change: "+12", "−8", "±0". */
function ratingChange(n) {
  return n === 0 ? "\u00b10" : signed(n);
}

function figure(label, value, className) {
  const box = el("span", "figure " + (className || ""));
  box.append(el("span", "figure-label", label), el("span", "figure-value", value));
  return box;
}

/**
 * Wire the match actions (they send through table.send) and return the renderers of
 * the panel for table.state: renderSides(), renderStatus(), renderMatch().
 */
export function setupPanel(table) {
  const { texts, palette } = table;
  const { t } = texts;
  let rematchTimer = null;
  let claimTimer = null;
  let abortTimer = null;
  const linkOf = (letter) => memberLink(table.state, letter, texts);
  // At tables of three or four seats names carry their seat's letter and colour.
  const named = (letters) => playersNode(table, letters);

  function renderSides() {
    const s = table.state;
    const me = mySeat(s);
    const twoSides = s.game.figures.length === 2;
    const needed = $("needed");
    needed.hidden = !(twoSides && s.game.needed_to_win);
    if (!needed.hidden) needed.textContent = t("needed", { n: s.game.needed_to_win });
    const list = $("sides");
    list.replaceChildren();
    const playing = s.match.status === "playing" && !s.game.over;
    // Presence is news while the match is on; once it is over nobody is "disconnected".
    const over = s.match.status === "finished" || s.match.status === "aborted";
    for (const side of s.game.figures) {
      const item = el("li", "side");
      const toMove = playing && side.seats.includes(s.game.to_move);
      item.classList.toggle("to-move", toMove);
      item.classList.toggle("mine", side.seats.includes(me));
      const players = el("div", "side-players");
      for (const letter of side.seats) {
        const seat = s.match.seats[seatIndex(letter)];
        const row = el("div", "player");
        row.dataset.seat = letter;
        const colour = table.fpn.seatColors[seatIndex(letter)];
        const about = el("span", "player-about");
        if (toMove && letter === s.game.to_move) {
          const mark = el("span", "turn-mark", "▶");
          mark.title = t("to_move_mark");
          mark.setAttribute("aria-label", t("to_move_mark"));
          about.append(mark);
        }
        const name = el("strong", "player-name");
        name.append(linkOf(letter));
        about.append(el("span", "seat-letter", letter), name);
        if (letter === me) about.append(el("span", "you-mark", "(" + t("you") + ")"));
        // No rating shown yet is provisional on a rated scale ("?"), or none at all.
        const scaled = !!table.root.dataset.scale;
        const shown = seat.rating === null ? (scaled ? "?" : "—") : String(Math.round(seat.rating));
        const rating = el("span", "rating", shown);
        rating.title = t("rating");
        about.append(rating);
        if (!seat.connected && !over) {
          row.classList.add("offline");
          about.append(el("span", "badge offline-badge", t("disconnected")));
        }
        if (seat.out) {
          row.classList.add("is-out");
          about.append(el("span", "badge out-badge", t("out")));
        }
        if (s.clock && (s.clock.berserk || []).includes(letter)) {
          const mark = el("span", "berserk-mark");
          mark.title = t("berserk.mark");
          mark.append(icon("berserk", t("berserk.mark")));
          about.append(mark);
        }
        row.append(swatch(palette, colour), about);
        if (s.clock) {
          const clock = el("span", "clock");
          clock.dataset.clockSeat = letter;
          clock.title = t("clock");
          row.append(clock);
        }
        players.append(row);
      }
      item.append(players);
      const figures = el("div", "side-figures");
      figures.append(figure(t("score"), side.score, "score"));
      if (twoSides) {
        figures.append(figure(t("to_equator"), side.to_equator, "to-equator"));
      } else {
        figures.append(figure(t("potential"), side.potential, "potential"));
      }
      const lead = figure(t("lead"), signed(side.lead), "lead");
      lead.classList.toggle("ahead", side.lead > 0);
      lead.classList.toggle("behind", side.lead < 0);
      figures.append(lead);
      item.append(figures);
      list.append(item);
    }
  }

  function renderStatus() {
    const s = table.state;
    const line = $("status-line");
    const parts = []; // texts, or nodes holding a link
    const between = s.match.status === "between_games";
    if (s.match.format !== "single" && !between) {
      parts.push(t("game_of", { number: s.game.number, total: 2 }));
    }
    if (s.match.status === "playing" && !s.game.over) {
      parts.push(yourTurn(s) ? t("your_turn") : phrase(texts, "to_move", { player: playerNode(table, s.game.to_move) }));
    } else if (between) {
      parts.push(t("between", { number: s.game.number }));
    } else if (s.match.status === "finished") {
      parts.push(t("finished"));
    } else if (s.match.status === "aborted") {
      parts.push(t("aborted"));
    }
    if (!mySeat(s)) parts.push(t("watching"));
    line.replaceChildren();
    parts.forEach((part, i) => line.append(...(i ? [" · ", part] : [part])));
    line.classList.toggle("your-turn", yourTurn(s));
  }

  function renderMatch() {
    const s = table.state;
    const body = $("match-score-body");
    body.replaceChildren();
    const columns = s.match.format === "single" ? 1 : 2;
    s.match.seats.forEach((seat, i) => {
      const letter = seat.seat;
      const row = el("tr");
      if (letter === mySeat(s)) row.classList.add("mine");
      const head = el("th");
      head.scope = "row";
      head.dataset.seat = letter;
      if (manySeats(s)) head.append(playerNode(table, letter));
      else head.append(el("span", "seat-letter", letter), linkOf(letter));
      row.append(head);
      for (let n = 0; n < columns; n++) {
        const game = s.games[n];
        const cell = el("td", "", game ? String(game.scores[i]) : "");
        if (game && game.winners.includes(letter)) cell.classList.add(isDraw(s, game.winners) ? "drawn" : "won");
        if (game && !game.reason) cell.classList.add("live");
        row.append(cell);
      }
      row.append(el("td", "points", halves(s.match.points[i])));
      row.append(el("td", "", String(s.match.totals[i])));
      body.append(row);
    });

    const results = $("game-results");
    results.replaceChildren();
    for (const game of s.games) {
      if (!game.reason) continue;
      const item = el("li");
      item.dataset.game = game.number;
      item.append(gameResult(s, game, texts, named));
      results.append(item);
    }

    renderResult();
    renderActions();
  }

  function renderResult() {
    const s = table.state;
    const banner = $("result");
    const said = result(s, texts, named);
    banner.hidden = !said;
    banner.replaceChildren();
    if (said) {
      const line = el("p", "result-text");
      line.append(said);
      banner.append(line);
    }
    if (said && s.match.rating_changes) {
      // Once the ratings moved: a line per player with the new rating and the change.
      const changes = el("ul", "rating-changes");
      changes.setAttribute("aria-label", t("rating.changes"));
      for (const change of s.match.rating_changes) {
        const item = el("li", "rating-change");
        item.dataset.seat = change.seat;
        item.dataset.change = change.change;
        const delta = el("span", "rating-delta", ratingChange(change.change));
        delta.classList.toggle("up", change.change > 0);
        delta.classList.toggle("down", change.change < 0);
        item.append(
          phrase(texts, "rating.change", {
            player: playerNode(table, change.seat),
            rating: el("span", "rating-after", String(change.after)),
            change: delta,
          })
        );
        changes.append(item);
      }
      banner.append(changes);
    }
    banner.classList.toggle("you-won", !!(s.match.result && s.match.result.winners.includes(mySeat(s))));
  }

  function renderActions() {
    const s = table.state;
    const mine = mySeat(s);
    const seat = mine ? s.match.seats[seatIndex(mine)] : null;
    const active = !!(seat && !seat.out);
    const between = s.match.status === "between_games";

    const ready = $("ready");
    const isReady = !!(mine && s.match.ready.includes(mine));
    ready.hidden = !(between && active);
    ready.disabled = isReady;
    ready.classList.toggle("done", isReady);
    const readyInfo = $("ready-info");
    readyInfo.hidden = !between;
    readyInfo.replaceChildren();
    if (isReady) readyInfo.append(t("ready.done"));
    if (isReady && s.match.ready.length) readyInfo.append(" · ");
    if (s.match.ready.length) readyInfo.append(phrase(texts, "ready.players", { players: named(s.match.ready) }));

    $("resign-game").hidden = !(active && s.match.format !== "single" && s.match.status === "playing" && !s.game.over);
    $("resign-match").hidden = !(active && (s.match.status === "playing" || between));

    const rematch = $("rematch");
    const info = $("rematch-info");
    const offer =
      s.match.rematch_offer && s.match.rematch_offer.expires_at > table.serverNow() ? s.match.rematch_offer : null;
    const finished = s.match.status === "finished";
    rematch.hidden = !(finished && mine);
    const accepted = !!(offer && mine && offer.seats.includes(mine));
    rematch.disabled = accepted;
    // At a table of two the one waited for is the opponent.
    const waiting = s.match.seats.length === 2 ? t("rematch.waiting_opponent") : t("rematch.waiting");
    rematch.textContent = accepted ? waiting : offer ? t("rematch.accept") : t("rematch.offer");
    info.hidden = !(finished && (offer || s.match.rematch));
    info.replaceChildren();
    if (s.match.rematch) {
      rematch.hidden = true; // this page was opened after the rematch began
      const link = el("a", "", t("rematch.go"));
      link.href = localPath(s.match.rematch_url);
      info.append(link);
    } else if (offer) {
      info.append(phrase(texts, "rematch.offered", { players: named(offer.seats) }));
    }
    // Play now again with this match's variant and clock (rendered for a player of a
    // rated match only): once the match is over and no rematch has begun.
    const other = $("new-opponent");
    if (other) other.hidden = !(mine && (finished || s.match.status === "aborted") && !s.match.rematch);
    clearTimeout(rematchTimer);
    if (offer) rematchTimer = setTimeout(renderActions, Math.max(0, offer.expires_at - table.serverNow()) + 50);
    renderClaim(mine, active);
    renderAbort();
  }

  /** Until the member's side has moved in game 1: the first move's countdown (the
      server aborts the match at abort_at) and the Abort button. */
  function renderAbort() {
    const s = table.state;
    const button = $("abort");
    const info = $("abort-info");
    clearTimeout(abortTimer);
    const can = !!(s.you && s.you.can_abort && s.match.status === "playing");
    button.hidden = !can;
    info.hidden = !can;
    if (!can) return;
    info.replaceChildren();
    const at = s.match.abort_at;
    if (at && yourTurn(s)) {
      const left = Math.max(0, at - table.serverNow());
      info.append(t("abort.soon", { seconds: Math.ceil(left / 1000) }));
      if (left > 0) abortTimer = setTimeout(renderAbort, Math.min(left, 1000));
    } else {
      info.hidden = true;
    }
  }

  /** The seat to move has left (or, without a clock, stopped moving): its opponents may
      claim the match once the server's moment comes; until then they see when. */
  function renderClaim(mine, active) {
    const s = table.state;
    const claim = s.match.claim;
    const button = $("claim");
    const info = $("claim-info");
    clearTimeout(claimTimer);
    const opponent = !!(claim && mine && active && sideOf(s, mine) !== sideOf(s, claim.seat));
    if (!opponent) {
      button.hidden = true;
      info.hidden = true;
      return;
    }
    const left = claim.from - table.serverNow();
    info.hidden = false;
    button.hidden = left > 0;
    info.replaceChildren();
    if (left > 0) {
      info.append(phrase(texts, "claim.soon", { player: playerNode(table, claim.seat), seconds: Math.ceil(left / 1000) }));
      claimTimer = setTimeout(() => renderClaim(mine, active), Math.min(left, 1000));
    } else {
      info.append(phrase(texts, "claim.now", { player: playerNode(table, claim.seat) }));
    }
  }

  function confirmThen(dialogId, message) {
    const dialog = $(dialogId);
    dialog.returnValue = "";
    dialog.addEventListener(
      "close",
      () => {
        if (dialog.returnValue === "confirm") table.send(message, "resign");
      },
      { once: true }
    );
    dialog.showModal();
  }

  $("resign-game").addEventListener("click", () =>
    confirmThen("confirm-resign-game", { type: "resign", scope: "game" })
  );
  $("resign-match").addEventListener("click", () =>
    confirmThen("confirm-resign-match", { type: "resign", scope: "match" })
  );
  $("ready").addEventListener("click", () => table.send({ type: "ready" }, "ready"));
  $("rematch").addEventListener("click", () => table.send({ type: "rematch" }, "rematch"));
  $("claim").addEventListener("click", () => table.send({ type: "claim" }, "claim"));
  $("abort").addEventListener("click", () => table.send({ type: "abort" }, "abort"));

  return { renderSides, renderStatus, renderMatch };
}
