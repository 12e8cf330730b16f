/* The table page: one websocket (docs/protocol.md), the board recoloured from each
   state's FPN, colour buttons with previews, the match panel, moves and chat.
   Every visible text comes from the template (<template id="table-texts">). */
(function () {
  "use strict";

  const root = document.getElementById("table");
  if (!root) return;

  const $ = (id) => document.getElementById(id);
  const LETTERS = "ABCD";
  const lang = document.documentElement.lang || "en";
  // The catalogues follow European Portuguese, where 0 takes the plural.
  const pluralRules = new Intl.PluralRules(lang === "pt" ? "pt-PT" : lang);
  const baseTitle = document.title;

  // --- texts ------------------------------------------------------------------------

  const TEXTS = {};
  for (const el of $("table-texts").content.querySelectorAll("[data-t]")) {
    TEXTS[el.dataset.t] = el.textContent.trim();
  }

  function t(key, values) {
    const text = key in TEXTS ? TEXTS[key] : key;
    return text.replace(/\{(\w+)\}/g, (all, name) =>
      values && name in values ? String(values[name]) : all
    );
  }

  function counted(key, n) {
    const form = pluralRules.select(n) === "one" ? "one" : "other";
    return t(key + "." + form, { n: n.toLocaleString(lang) });
  }

  function listOf(names) {
    if (names.length <= 1) return names.join("");
    return names.slice(0, -1).reduce((a, b) => t("and", { a: a, b: b }), names[names.length - 1]);
  }

  function halves(x) {
    const whole = Math.floor(x);
    const half = x - whole >= 0.5 ? "½" : "";
    return whole === 0 && half ? half : String(whole) + half;
  }

  function signed(n) {
    if (n > 0) return "+" + n;
    if (n < 0) return "\u2212" + -n;
    return "0";
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // --- palette and board ------------------------------------------------------------

  const buttons = Array.from(root.querySelectorAll("#colours .colour"));
  const palette = {};
  for (const button of buttons) {
    palette[+button.dataset.color] = {
      name: button.dataset.name,
      label: button.dataset.label,
      symbol: button.dataset.symbol,
      button: button,
    };
  }

  const svg = root.querySelector("#board-wrap svg");
  const polygons = svg ? Array.from(svg.querySelectorAll(".cells polygon")) : [];
  const marks = {};
  if (svg) {
    for (const mark of svg.querySelectorAll(".marks text[data-i]")) marks[mark.dataset.i] = mark;
  }
  const baseClass = polygons.map((p) => p.getAttribute("class") || "");
  let highlighted = new Set();

  function parseFpn(text) {
    const fields = text.split(" ");
    const values = new Map();
    for (const option of fields.slice(6)) {
      if (!option.startsWith("v=")) continue;
      for (const entry of option.slice(2).split(",")) {
        const [cell, value] = entry.split(":");
        values.set(+cell, +value);
      }
    }
    return {
      cells: fields[3].replace(/\//g, ""),
      seatColors: fields[4].split(",").map(Number),
      toMove: fields[5],
      values: values,
    };
  }

  function paintCell(i) {
    const wanted = highlighted.has(i) ? baseClass[i] + " hl" : baseClass[i];
    if (polygons[i].getAttribute("class") !== wanted) polygons[i].setAttribute("class", wanted);
  }

  function drawBoard(fpn) {
    const cells = fpn.cells;
    for (let i = 0; i < polygons.length && i < cells.length; i++) {
      const char = cells[i];
      let colour = 0;
      let cls;
      if (char === "#") {
        cls = "obstacle";
      } else if (char === "*") {
        cls = "paint";
      } else if (char >= "1" && char <= "9") {
        colour = +char;
        cls = "c" + colour;
      } else {
        colour = fpn.seatColors[LETTERS.indexOf(char)];
        cls = "c" + colour + " owned own-" + char;
      }
      baseClass[i] = cls;
      paintCell(i);
      const mark = marks[i];
      if (!mark) continue;
      const markClass = colour ? "sym on-c" + colour : "paint-mark";
      const markText = colour ? (palette[colour] ? palette[colour].symbol : "") : "\u2731";
      if (mark.getAttribute("class") !== markClass) mark.setAttribute("class", markClass);
      if (mark.textContent !== markText) mark.textContent = markText;
    }
  }

  function highlight(cells) {
    const next = new Set(cells || []);
    const changed = new Set([...highlighted, ...next]);
    highlighted = next;
    for (const i of changed) if (i < polygons.length) paintCell(i);
  }

  // --- state ------------------------------------------------------------------------

  // The server's clock is the truth: its moments (expiries, deadlines) are read against
  // it, corrected by every state.
  let serverOffset = 0;
  function serverNow() {
    return Date.now() + serverOffset;
  }

  let state = null;
  let fpn = null;
  let lastVersion = -1;
  let pending = false; // a move was sent and its state has not arrived yet
  let pointed = null; // the colour under the pointer or keyboard focus
  let armed = null; // touch: the colour tapped once (a second tap plays it)
  let lastPointer = null;
  let lastAction = { type: null, at: 0 };
  let clockBase = null;
  let rematchTimer = null;

  const me = () => (state && state.you ? state.you.seat : null);
  const seatIndex = (letter) => LETTERS.indexOf(letter);

  function playerName(letter) {
    const seat = state.match.seats[seatIndex(letter)];
    return seat && seat.username ? seat.username : t("deleted");
  }

  function namesOf(letters) {
    return listOf(letters.map(playerName));
  }

  function yourTurn(s) {
    return !!(
      s &&
      s.you &&
      s.you.seat &&
      s.match.status === "playing" &&
      !s.game.over &&
      s.game.to_move === s.you.seat
    );
  }

  function sideOf(letter) {
    return state.game.figures.findIndex((f) => f.seats.includes(letter));
  }

  function isDraw(winners) {
    return new Set(winners.map(sideOf)).size > 1;
  }

  function applyState(next, options) {
    if (next.version <= lastVersion) return; // older or repeated
    if (options.checkGap && lastVersion >= 0 && next.version > lastVersion + 1) {
      send({ type: "sync" }); // we missed something: ask for the whole state again
    }
    const previous = state;
    state = next;
    lastVersion = next.version;
    if (next.server_time) serverOffset = next.server_time - Date.now();
    pending = false;
    if (next.match.rematch && previous && !previous.match.rematch) {
      goToMatch(next.match.rematch); // everyone accepted: the new match starts now
      return;
    }
    fpn = parseFpn(next.game.position);
    if (!previous || previous.game.number !== next.game.number || previous.game.ply !== next.game.ply) {
      armed = null;
    }
    render(previous);
  }

  function matchUrl(id) {
    // keep the language prefix: only the id in the current path changes
    return location.pathname.replace(/\/match\/\d+\/?$/, "/match/" + id + "/");
  }

  function goToMatch(id) {
    location.assign(matchUrl(id));
  }

  function render(previous) {
    const s = state;
    root.dataset.version = s.version;
    root.dataset.status = s.match.status;
    root.dataset.game = s.game.number;
    root.dataset.ply = s.game.ply;
    root.dataset.toMove = s.game.to_move;
    drawBoard(fpn);
    renderSides();
    renderButtons();
    renderStatus();
    renderMatch();
    renderMoves(previous);
    renderSpectators();
    startClock();
    announceTurn(previous);
  }

  // --- above the board --------------------------------------------------------------

  function figure(label, value, className) {
    const box = el("span", "figure " + (className || ""));
    box.append(el("span", "figure-label", label), el("span", "figure-value", value));
    return box;
  }

  function renderSides() {
    const s = state;
    const twoSides = s.game.figures.length === 2;
    const needed = $("needed");
    needed.hidden = !(twoSides && s.game.needed_to_win);
    if (!needed.hidden) needed.textContent = t("needed", { n: s.game.needed_to_win });
    const list = $("sides");
    list.replaceChildren();
    const playing = s.match.status === "playing" && !s.game.over;
    for (const side of s.game.figures) {
      const item = el("li", "side");
      const toMove = playing && side.seats.includes(s.game.to_move);
      item.classList.toggle("to-move", toMove);
      item.classList.toggle("mine", side.seats.includes(me()));
      const players = el("div", "side-players");
      for (const letter of side.seats) {
        const seat = s.match.seats[seatIndex(letter)];
        const row = el("div", "player");
        row.dataset.seat = letter;
        const colour = fpn.seatColors[seatIndex(letter)];
        const swatch = el("span", "swatch sw-" + colour);
        swatch.append(el("span", "swatch-sym", palette[colour] ? palette[colour].symbol : ""));
        swatch.title = palette[colour] ? palette[colour].label : "";
        const about = el("span", "player-about");
        if (toMove && letter === s.game.to_move) {
          const mark = el("span", "turn-mark", "▶");
          mark.title = t("to_move_mark");
          mark.setAttribute("aria-label", t("to_move_mark"));
          about.append(mark);
        }
        about.append(el("span", "seat-letter", letter), el("strong", "player-name", playerName(letter)));
        if (letter === me()) about.append(el("span", "you-mark", "(" + t("you") + ")"));
        const rating = el("span", "rating", seat.rating === null ? "—" : String(Math.round(seat.rating)));
        rating.title = t("rating");
        about.append(rating);
        if (!seat.connected) {
          row.classList.add("offline");
          about.append(el("span", "badge offline-badge", t("disconnected")));
        }
        if (seat.out) {
          row.classList.add("is-out");
          about.append(el("span", "badge out-badge", t("out")));
        }
        row.append(swatch, about);
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

  // --- colour buttons ---------------------------------------------------------------

  function reasonFor(colour) {
    const legal = state.you && state.you.legal;
    if (!legal || !(String(colour) in legal)) return undefined; // spectators
    return legal[String(colour)];
  }

  function previewOf(colour) {
    const previews = state.you && state.you.previews;
    return previews ? previews[String(colour)] : undefined;
  }

  function holdersOf(colour) {
    const mine = me();
    const letters = [];
    fpn.seatColors.forEach((c, i) => {
      const letter = LETTERS[i];
      if (c === colour && letter !== mine && !state.match.seats[i].out) letters.push(letter);
    });
    return namesOf(letters);
  }

  function tipFor(colour) {
    const label = palette[colour].label;
    const reason = reasonFor(colour);
    if (reason === "own") return t("tip.own", { colour: label });
    if (reason === "opponent") return t("tip.opponent", { colour: label, player: holdersOf(colour) });
    const cells = previewOf(colour);
    if (!cells || !yourTurn(state)) return label;
    const values = {
      colour: label,
      cells: counted("cells", cells.length),
    };
    if (fpn.values.size) {
      const points = cells.reduce((sum, i) => sum + (fpn.values.get(i) || 1), 0);
      values.points = counted("points", points);
      return t("tip.gain_points", values);
    }
    return t("tip.gain", values);
  }

  function playable(colour) {
    return yourTurn(state) && !pending && reasonFor(colour) === null;
  }

  function renderButtons() {
    for (const button of buttons) {
      const colour = +button.dataset.color;
      const reason = reasonFor(colour);
      const tip = tipFor(colour);
      button.classList.toggle("forbidden", reason === "own" || reason === "opponent");
      button.classList.toggle("armed", armed === colour);
      button.setAttribute("aria-disabled", String(!playable(colour)));
      button.title = tip;
      button.dataset.tooltip = tip;
    }
    const swap = $("swap");
    swap.hidden = !(yourTurn(state) && state.you.can_swap);
    swap.disabled = pending;
    swap.title = t("tip.swap");
    root.classList.toggle("my-turn", yourTurn(state));
    root.classList.toggle("idle", state.match.status !== "playing" || state.game.over);
    showPointed();
  }

  function showPointed() {
    const tip = $("colour-tip");
    const colour = armed !== null ? armed : pointed;
    if (colour === null || !palette[colour]) {
      tip.hidden = true;
      highlight([]);
      return;
    }
    const button = palette[colour].button;
    tip.textContent = button.dataset.tooltip;
    tip.hidden = false;
    const bar = $("colour-bar");
    const centre = button.offsetLeft + button.offsetWidth / 2;
    const half = tip.offsetWidth / 2;
    const left = Math.max(half, Math.min(bar.clientWidth - half, centre));
    tip.style.left = left + "px";
    highlight(yourTurn(state) ? previewOf(colour) || [] : []);
  }

  function point(colour) {
    pointed = colour;
    showPointed();
  }

  function unpoint(colour) {
    if (pointed === colour) pointed = null;
    showPointed();
  }

  function choose(colour) {
    if (!state) return;
    if (!playable(colour)) {
      point(colour); // show why (the tooltip)
      return;
    }
    armed = null;
    sendMove(colour);
  }

  function sendMove(colour) {
    if (send({ type: "move", color: colour, ply: state.game.ply }, "move")) {
      pending = true;
      renderButtons();
    }
  }

  for (const button of buttons) {
    const colour = +button.dataset.color;
    button.addEventListener("pointerdown", (event) => {
      lastPointer = event.pointerType;
    });
    button.addEventListener("pointerenter", (event) => {
      if (event.pointerType !== "touch") point(colour);
    });
    button.addEventListener("pointerleave", (event) => {
      if (event.pointerType !== "touch") unpoint(colour);
    });
    button.addEventListener("focus", () => {
      if (button.matches(":focus-visible")) point(colour);
    });
    button.addEventListener("blur", () => unpoint(colour));
    button.addEventListener("click", () => {
      const touch = lastPointer === "touch";
      lastPointer = null;
      if (touch && armed !== colour) {
        armed = colour; // first tap: preview only
        renderButtons();
        return;
      }
      choose(colour);
    });
  }

  $("swap").addEventListener("click", () => {
    if (yourTurn(state) && state.you.can_swap && !pending) sendMove("swap");
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable], dialog")) return;
    if (!/^[1-9]$/.test(event.key)) return;
    const colour = +event.key;
    if (!palette[colour] || !state) return;
    event.preventDefault();
    if (playable(colour)) {
      choose(colour);
    } else {
      palette[colour].button.focus();
      point(colour);
    }
  });

  document.addEventListener("pointerdown", (event) => {
    if (armed !== null && !event.target.closest("#colours")) {
      armed = null;
      renderButtons();
    }
  });

  // --- status line, turn signal -----------------------------------------------------

  function renderStatus() {
    const s = state;
    const line = $("status-line");
    const parts = [];
    const between = s.match.status === "between_games";
    if (s.match.format !== "single" && !between) {
      parts.push(t("game_of", { number: s.game.number, total: 2 }));
    }
    if (s.match.status === "playing" && !s.game.over) {
      parts.push(yourTurn(s) ? t("your_turn") : t("to_move", { player: playerName(s.game.to_move) }));
    } else if (between) {
      parts.push(t("between", { number: s.game.number }));
    } else if (s.match.status === "finished") {
      parts.push(t("finished"));
    } else if (s.match.status === "aborted") {
      parts.push(t("aborted"));
    }
    if (!me()) parts.push(t("watching"));
    line.textContent = parts.join(" · ");
    line.classList.toggle("your-turn", yourTurn(s));
  }

  let audio = null;
  function soundOn() {
    return root.dataset.sound === "on";
  }
  function unlockAudio() {
    if (!soundOn() || audio) return;
    try {
      audio = new (window.AudioContext || window.webkitAudioContext)();
    } catch (error) {
      audio = null;
    }
  }
  document.addEventListener("pointerdown", unlockAudio);
  document.addEventListener("keydown", unlockAudio);

  function beep() {
    if (!soundOn() || !audio) return;
    try {
      if (audio.state === "suspended") audio.resume();
      const now = audio.currentTime;
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = "sine";
      oscillator.frequency.setValueAtTime(660, now);
      oscillator.frequency.setValueAtTime(880, now + 0.09);
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.18, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(now);
      oscillator.stop(now + 0.32);
    } catch (error) {
      /* no sound is fine */
    }
  }

  function announceTurn(previous) {
    const mine = yourTurn(state);
    document.title = mine ? "▶ " + t("your_turn") + " · " + baseTitle : baseTitle;
    const wasMine =
      previous &&
      yourTurn(previous) &&
      previous.game.number === state.game.number &&
      previous.game.ply === state.game.ply;
    if (mine && previous && !wasMine) beep();
  }

  // --- match panel ------------------------------------------------------------------

  function gameResultText(game) {
    const reason = t("game." + game.reason);
    if (!game.winners.length || isDraw(game.winners)) {
      return t("game.drawn", { number: game.number, reason: reason });
    }
    return t("game.won", { winners: namesOf(game.winners), number: game.number, reason: reason });
  }

  function renderMatch() {
    const s = state;
    const body = $("match-score-body");
    body.replaceChildren();
    const columns = s.match.format === "single" ? 1 : 2;
    s.match.seats.forEach((seat, i) => {
      const letter = seat.seat;
      const row = el("tr");
      if (letter === me()) row.classList.add("mine");
      const head = el("th");
      head.scope = "row";
      head.append(el("span", "seat-letter", letter), document.createTextNode(playerName(letter)));
      row.append(head);
      for (let n = 0; n < columns; n++) {
        const game = s.games[n];
        const cell = el("td", "", game ? String(game.scores[i]) : "");
        if (game && game.winners.includes(letter)) cell.classList.add(isDraw(game.winners) ? "drawn" : "won");
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
      if (game.reason) results.append(el("li", "", gameResultText(game)));
    }

    renderResult();
    renderActions();
  }

  function resultText() {
    const s = state;
    const result = s.match.result;
    if (!result) return "";
    const winners = namesOf(result.winners);
    const losers = namesOf(s.match.seats.map((x) => x.seat).filter((l) => !result.winners.includes(l)));
    const bySide = s.game.figures.map((f) => s.match.points[seatIndex(f.seats[0])]);
    const totalsBySide = s.game.figures.map((f) => s.match.totals[seatIndex(f.seats[0])]);
    const winnerFirst = (values) => {
      const w = sideOf(result.winners[0]);
      return [values[w], ...values.filter((v, i) => i !== w)];
    };
    switch (result.reason) {
      case "points":
        if (s.match.format === "single") return t("result.points_single", { winners: winners });
        return t("result.points", { winners: winners, score: winnerFirst(bySide).map(halves).join("–") });
      case "totals":
        return t("result.totals", { winners: winners, totals: winnerFirst(totalsBySide).join("–") });
      case "drawn":
        return t("result.drawn", { score: bySide.map(halves).join("–") });
      case "resigned":
      case "flagged":
      case "abandoned":
        return t("result." + result.reason, { winners: winners, losers: losers });
      case "aborted":
        return t("result.aborted");
      default:
        return winners;
    }
  }

  function renderResult() {
    const banner = $("result");
    const text = resultText();
    banner.hidden = !text;
    banner.textContent = text;
    banner.classList.toggle("you-won", !!(state.match.result && state.match.result.winners.includes(me())));
  }

  function renderActions() {
    const s = state;
    const mine = me();
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
    readyInfo.textContent = s.match.ready.length ? t("ready.players", { players: namesOf(s.match.ready) }) : "";
    if (isReady) readyInfo.textContent = t("ready.done") + " · " + readyInfo.textContent;

    $("resign-game").hidden = !(
      active && s.match.format !== "single" && s.match.status === "playing" && !s.game.over
    );
    $("resign-match").hidden = !(active && (s.match.status === "playing" || between));

    const rematch = $("rematch");
    const info = $("rematch-info");
    const offer = s.match.rematch_offer && s.match.rematch_offer.expires_at > serverNow() ? s.match.rematch_offer : null;
    const finished = s.match.status === "finished";
    rematch.hidden = !(finished && mine);
    const accepted = !!(offer && mine && offer.seats.includes(mine));
    rematch.disabled = accepted;
    rematch.textContent = accepted ? t("rematch.waiting") : offer ? t("rematch.accept") : t("rematch.offer");
    info.hidden = !(finished && (offer || s.match.rematch));
    info.replaceChildren();
    if (s.match.rematch) {
      rematch.hidden = true; // this page was opened after the rematch began
      const link = el("a", "", t("rematch.go"));
      link.href = matchUrl(s.match.rematch);
      info.append(link);
    } else if (offer) {
      info.textContent = t("rematch.offered", { players: namesOf(offer.seats) });
    }
    clearTimeout(rematchTimer);
    if (offer) rematchTimer = setTimeout(renderActions, Math.max(0, offer.expires_at - serverNow()) + 50);
  }

  function confirmThen(dialogId, message) {
    const dialog = $(dialogId);
    dialog.returnValue = "";
    dialog.addEventListener(
      "close",
      () => {
        if (dialog.returnValue === "confirm") send(message, "resign");
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
  $("ready").addEventListener("click", () => send({ type: "ready" }, "ready"));
  $("rematch").addEventListener("click", () => send({ type: "rematch" }, "rematch"));

  // --- moves and announcements ------------------------------------------------------

  let movesShown = "";

  function renderMoves(previous) {
    const s = state;
    const key = s.games.map((g) => g.number + ":" + g.moves.length).join(",");
    if (key !== movesShown) {
      movesShown = key;
      const box = $("moves");
      box.replaceChildren();
      for (const game of s.games) {
        if (s.games.length > 1 || s.match.format !== "single") {
          box.append(el("h3", "moves-game", t("game", { number: game.number })));
        }
        const list = el("ol", "move-list");
        for (const move of game.moves) {
          const item = el("li", "move");
          item.append(el("span", "ply", move.ply + "."));
          const who = el("span", "who");
          who.append(el("span", "seat-letter", move.seat), document.createTextNode(playerName(move.seat)));
          item.append(who);
          if (move.color === "swap") {
            item.append(el("span", "swap-mark", t("swap")));
          } else {
            const swatch = el("span", "swatch sw-" + move.color);
            swatch.append(el("span", "swatch-sym", palette[move.color] ? palette[move.color].symbol : ""));
            swatch.title = palette[move.color] ? palette[move.color].label : "";
            item.append(swatch);
            item.append(el("span", "gain", "+" + move.gained));
          }
          list.append(item);
        }
        box.append(list);
      }
      box.scrollTop = box.scrollHeight;
    }
    if (previous) announceMoves(previous);
  }

  function announceMoves(previous) {
    const seen = {};
    for (const game of previous.games) seen[game.number] = game.moves.length;
    const said = [];
    for (const game of state.games) {
      for (const move of game.moves.slice(seen[game.number] || 0)) {
        said.push(
          move.color === "swap"
            ? t("announce.swap", { player: playerName(move.seat) })
            : t("announce.move", {
                player: playerName(move.seat),
                colour: palette[move.color] ? palette[move.color].name : move.color,
                gained: move.gained,
              })
        );
      }
      if (game.reason && !(previous.games[game.number - 1] || {}).reason) {
        said.push(gameResultText(game));
      }
    }
    if (state.match.result && !previous.match.result) said.push(resultText());
    if (said.length) $("announcer").textContent = said.filter(Boolean).join(". ");
  }

  function renderSpectators() {
    $("spectators").textContent = counted("spectators", state.match.spectators || 0);
  }

  // --- clocks -----------------------------------------------------------------------

  function formatClock(ms) {
    const total = Math.max(0, Math.floor(ms / 1000));
    const minutes = Math.floor(total / 60);
    const seconds = total % 60;
    return minutes + ":" + String(seconds).padStart(2, "0");
  }

  function startClock() {
    const clock = state.clock;
    clockBase = clock ? { clock: clock, at: performance.now() } : null;
    tickClock();
  }

  function tickClock() {
    if (!clockBase) return;
    const { clock, at } = clockBase;
    const elapsed = performance.now() - at;
    for (const node of root.querySelectorAll("[data-clock-seat]")) {
      const i = seatIndex(node.dataset.clockSeat);
      const running = clock.running === node.dataset.clockSeat;
      const ms = clock.remaining_ms[i] - (running ? elapsed : 0);
      node.textContent = formatClock(ms);
      node.classList.toggle("running", running);
      node.classList.toggle("low", ms < 20000);
    }
  }
  setInterval(tickClock, 250);

  // --- chat -------------------------------------------------------------------------

  const chatSeen = new Set();

  function addChat(message) {
    if (message.id !== undefined) {
      if (chatSeen.has(message.id)) return;
      chatSeen.add(message.id);
    }
    const list = $("chat-list");
    const item = el("li", "chat-message");
    if (message.spectators_only) {
      item.classList.add("spectators-only");
      item.append(el("span", "badge", t("spectators_only")));
    }
    item.append(el("strong", "chat-author", message.username || t("deleted")));
    item.append(el("span", "chat-text", message.text));
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  const chatForm = $("chat-form");
  if (chatForm) {
    chatForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("chat-text");
      const text = input.value.trim();
      if (!text) return;
      if (send({ type: "chat", text: text.slice(0, 500) }, "chat")) {
        input.value = "";
        $("chat-error").hidden = true;
      }
    });
  }

  // --- errors -----------------------------------------------------------------------

  let errorTimer = null;

  function showError(code, serverText) {
    // The server's message is in the page's language and says the most; the page's own
    // text per code is the fallback.
    const text = serverText || ("error." + code in TEXTS ? t("error." + code) : t("error.unknown"));
    const recentChat = lastAction.type === "chat" && Date.now() - lastAction.at < 5000;
    const chatError = $("chat-error");
    const target = (code === "rate_limited" || recentChat) && chatError ? chatError : $("table-error");
    target.textContent = text;
    target.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => {
      target.hidden = true;
    }, 6000);
    if (pending) {
      pending = false;
      renderButtons();
    }
    // our view of the game was behind: fetch the whole state again
    if (code === "stale" || code === "not_your_turn") send({ type: "sync" });
  }

  // --- options ----------------------------------------------------------------------

  const optionsForm = $("options-form");
  function savePreference(name, on) {
    if (root.dataset.member !== "1") return Promise.resolve();
    const token = optionsForm.querySelector("[name=csrfmiddlewaretoken]").value;
    return fetch(root.dataset.preferenceUrl, {
      method: "POST",
      headers: { "X-CSRFToken": token },
      body: new URLSearchParams({ name: name, value: on ? "on" : "off" }),
      credentials: "same-origin",
    }).catch(() => undefined);
  }
  optionsForm.addEventListener("change", (event) => {
    const input = event.target;
    if (input.name === "color_symbols") {
      root.classList.toggle("symbols-on", input.checked);
      root.dataset.symbols = input.checked ? "on" : "off";
    } else if (input.name === "sound") {
      root.dataset.sound = input.checked ? "on" : "off";
      unlockAudio();
    } else {
      return;
    }
    savePreference(input.name, input.checked);
  });
  optionsForm.addEventListener("submit", (event) => event.preventDefault());

  // --- the socket -------------------------------------------------------------------

  let socket = null;
  let backoff = 1000;

  function send(message, action) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    if (action) lastAction = { type: action, at: Date.now() };
    return true;
  }

  // Closed for good (docs/protocol.md): reconnecting would not help.
  const FINAL_CLOSE = { 4401: "closed.session", 4403: "closed.banned", 4404: "error.not_found",
    4410: "closed.deleted", 4429: "closed.too_many" };
  let pinger = null;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const lang = encodeURIComponent(document.documentElement.lang || "en");
    const ws = new WebSocket(scheme + location.host + root.dataset.wsPath + "?lang=" + lang);
    socket = ws;
    let first = true;
    ws.addEventListener("open", () => {
      backoff = 1000;
      $("reconnecting").hidden = true;
      clearInterval(pinger);
      // Presence: a socket that sends nothing for 45 s no longer counts.
      pinger = setInterval(() => send({ type: "ping" }), +root.dataset.pingMs || 20000);
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message.type === "state") {
        applyState(message, { checkGap: !first });
        first = false;
      } else if (message.type === "chat") {
        addChat(message);
      } else if (message.type === "error") {
        showError(message.code, message.message);
      }
    });
    ws.addEventListener("close", (event) => {
      if (socket !== ws) return;
      pending = false;
      clearInterval(pinger);
      if (event.code in FINAL_CLOSE) {
        const notice = $("table-error");
        notice.textContent = t(FINAL_CLOSE[event.code]);
        notice.hidden = false;
        return;
      }
      $("reconnecting").hidden = false;
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 15000);
    });
  }

  const initial = JSON.parse($("table-state").textContent);
  applyState(initial, { checkGap: false });
  window.addEventListener("resize", showPointed);
  connect();
})();
