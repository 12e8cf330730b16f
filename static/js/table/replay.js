/* Replays: every game of a finished match move by move, and during a match the moves
   played so far, for its players and spectators alike, without leaving the table. The
   positions come from the table's steps URL (docs/protocol.md, "Steps"): per game its
   start and one step per move or event, each with its FPN, scores and the cells it took;
   while the match goes on, each new move is appended from the state itself and anything
   else fetches the steps again. The board is redrawn from a step's FPN; new states keep
   arriving meanwhile, and "Back to live" returns. A player sees the bar only while
   looking back ("Earlier moves" above the board, the move list or ← opens it). */

import { byId as $, el } from "../dom.js";
import { parseFpn } from "./board.js";
import { phrase } from "./phrases.js";
import { memberLink, membersLinked, mySeat, replayable, seatIndex } from "./seats.js";

const COPIED_SHOWN_MS = 4000;

/**
 * Wire the replay bar; onChange() runs whenever the page starts or stops showing an
 * earlier position (table.replaying), onSpot(spot, entry) whenever the bar shows a step
 * (null while there is none). Returns render() for a new state and jump(game, ply) to
 * show the board after a move.
 */
export function setupReplay(table, board, { onChange, onSpot = () => undefined }) {
  const { root, texts, palette } = table;
  const { t } = texts;
  const bar = $("replay");
  const slider = $("replay-slider");
  let steps = null; // the last answer of the steps URL
  let loading = null; // its request while under way
  let at = null; // {game, step} shown while replaying (indices into steps.games)
  let queue = Promise.resolve(); // the reader's steps, one after the other
  let copiedTimer = null;

  function allowed() {
    return !!table.state && replayable(table.state);
  }

  function fresh() {
    return !!steps && steps.version === table.state.version;
  }

  /** The steps of the match, fetched again when the match changed since. */
  function load() {
    if (fresh()) return Promise.resolve(steps);
    if (!loading) {
      loading = fetch(root.dataset.stepsUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
        .then((data) => {
          if (!steps || data.version >= steps.version) steps = data;
          return steps;
        })
        .finally(() => {
          loading = null;
        });
    }
    return loading;
  }

  function lastStep(game) {
    return steps.games[game].length - 1;
  }

  /** Where the live board is in the steps: the last step of the last game. */
  function liveSpot() {
    const game = steps.games.length - 1;
    return { game: game, step: lastStep(game) };
  }

  /** Whether a spot shows what the live board shows: the newest step of the newest game. */
  function isLive(spot) {
    const s = table.state;
    const live = liveSpot();
    if (spot.game !== live.game || spot.step !== live.step) return false;
    const entry = steps.games[spot.game][spot.step];
    return steps.games.length === s.games.length && entry.position === s.game.position;
  }

  /**
   * Do one of the reader's steps once the steps are loaded, after the steps asked for
   * before it: where(from) gets the spot shown ({game, step}) and returns the one to show.
   */
  function act(where) {
    queue = queue
      .then(() => (allowed() ? load() : null))
      .then(() => {
        if (!allowed() || !steps) return;
        const from = table.replaying && at ? at : liveSpot();
        const to = where(from);
        show(clamped(to.game, to.step));
      })
      .catch(() => undefined);
  }

  /** A spot inside the steps; one past either end of a game goes on into the next
      or back into the previous one. */
  function clamped(game, step) {
    let g = Math.max(0, Math.min(steps.games.length - 1, game));
    let i = step;
    if (i < 0 && g > 0) {
      g -= 1;
      i = lastStep(g);
    } else if (i > lastStep(g) && g < steps.games.length - 1) {
      g += 1;
      i = 0;
    }
    return { game: g, step: Math.max(0, Math.min(lastStep(g), i)) };
  }

  function show(spot) {
    const was = table.replaying;
    at = spot;
    table.replaying = !isLive(spot);
    if (table.replaying) {
      const step = steps.games[spot.game][spot.step];
      board.draw(parseFpn(step.position));
      board.mark("gain", step.gained);
    } else {
      board.draw(table.fpn);
      board.mark("gain", []);
    }
    render();
    if (was !== table.replaying) onChange();
  }

  function backToLive() {
    if (!table.replaying) return;
    if ($("board-wrap").contains(document.activeElement)) $("board-wrap").focus();
    table.replaying = false;
    at = null;
    board.draw(table.fpn);
    board.mark("gain", []);
    render();
    onChange();
  }

  /** The spot shown: the replayed one, or where the live board is. */
  function shown() {
    if (table.replaying && at) return at;
    return steps ? liveSpot() : null;
  }

  function step(delta) {
    act((from) => ({ game: from.game, step: from.step + delta }));
  }

  function render() {
    const s = table.state;
    const can = allowed();
    const running = s.match.status === "playing" || s.match.status === "between_games";
    // A player keeps the colour bar and the board's room until they look back.
    const tucked = running && !!mySeat(s) && !table.replaying;
    bar.hidden = !can || tucked;
    $("browse-back").hidden = !can || !tucked;
    root.classList.toggle("replaying", table.replaying);
    if (!can) {
      if (table.replaying) backToLive();
      return;
    }
    $("replay-live").hidden = !(running && table.replaying);
    const spot = shown();
    renderGames(spot);
    if (!spot) {
      slider.disabled = true;
      $("replay-info").textContent = t("replay.live");
      $("replay-scores").replaceChildren();
      setHooks(null);
      return;
    }
    const timeline = steps.games[spot.game];
    slider.disabled = false;
    slider.max = String(timeline.length - 1);
    slider.value = String(spot.step);
    const first = spot.game === 0 && spot.step === 0;
    const last = spot.game === steps.games.length - 1 && spot.step === timeline.length - 1;
    $("replay-first").disabled = spot.step === 0;
    $("replay-prev").disabled = first;
    $("replay-next").disabled = last && isLive(spot);
    $("replay-last").disabled = spot.step === timeline.length - 1 && (isLive(spot) || !last);
    const info = $("replay-info");
    info.replaceChildren(describe(timeline, spot));
    if (!table.replaying && running) info.append(" · ", t("replay.live"));
    slider.setAttribute("aria-valuetext", info.textContent);
    renderScores(timeline[spot.step]);
    setHooks(spot, timeline[spot.step]);
    markMove(spot, timeline[spot.step]);
  }

  function setHooks(spot, entry) {
    onSpot(spot, entry || null);
    if (!spot) {
      delete root.dataset.replayGame;
      delete root.dataset.replayStep;
      delete root.dataset.replayPly;
      return;
    }
    root.dataset.replayGame = spot.game + 1;
    root.dataset.replayStep = spot.step;
    root.dataset.replayPly = entry.ply;
  }

  function renderGames(spot) {
    const box = $("replay-games");
    const count = steps ? steps.games.length : 0;
    if (count < 2) {
      box.replaceChildren();
      return;
    }
    if (box.children.length !== count) {
      box.replaceChildren();
      for (let g = 0; g < count; g++) {
        const button = el("button", "replay-game", t("game", { number: g + 1 }));
        button.type = "button";
        button.dataset.game = g + 1;
        // A game from its end, as it was left.
        button.addEventListener("click", () => act(() => ({ game: g, step: lastStep(g) })));
        box.append(button);
      }
    }
    for (const button of box.children) {
      button.setAttribute("aria-pressed", String(!!spot && +button.dataset.game === spot.game + 1));
    }
  }

  /** A step in words: where in the game it is, and who did what. */
  function describe(timeline, spot) {
    const s = table.state;
    const entry = timeline[spot.step];
    const total = timeline[timeline.length - 1].ply;
    const fragment = document.createDocumentFragment();
    if (entry.ply === 0 && !entry.event) {
      fragment.append(t("replay.start", { number: spot.game + 1 }));
      return fragment;
    }
    fragment.append(t("replay.at", { ply: entry.ply, total: total, number: spot.game + 1 }), " · ");
    const player = entry.seat ? memberLink(s, entry.seat, texts) : "";
    if (entry.event) {
      fragment.append(phrase(texts, "replay.event." + entry.event, { player: player }));
    } else if (entry.color === "swap") {
      fragment.append(phrase(texts, "announce.swap", { player: player }));
    } else {
      const colour = palette[entry.color] ? palette[entry.color].name : String(entry.color);
      fragment.append(phrase(texts, "announce.move", { player: player, colour: colour, gained: entry.gained.length }));
    }
    return fragment;
  }

  function renderScores(entry) {
    const s = table.state;
    const box = $("replay-scores");
    box.replaceChildren();
    const seatColors = parseFpn(entry.position).seatColors;
    for (const side of s.game.figures) {
      const score = side.seats.reduce((sum, letter) => sum + (entry.scores[seatIndex(letter)] || 0), 0);
      const item = el("span", "replay-score");
      const colour = seatColors[seatIndex(side.seats[0])];
      const swatch = el("span", "swatch sw-" + colour);
      swatch.append(el("span", "swatch-sym", palette[colour] ? palette[colour].symbol : ""));
      item.append(swatch, membersLinked(s, side.seats, texts), el("strong", "", String(score)));
      item.dataset.seats = side.seats.join("");
      box.append(item);
    }
  }

  function markMove(spot, entry) {
    for (const item of document.querySelectorAll("#moves .move.current")) item.classList.remove("current");
    if (!table.replaying || !entry.ply || entry.event) return;
    const item = document.querySelector(`#moves .move[data-game="${spot.game + 1}"][data-ply="${entry.ply}"]`);
    if (item) item.classList.add("current");
  }

  async function copyPosition() {
    const spot = table.replaying ? at : null;
    const fpn = spot ? steps.games[spot.game][spot.step].position : table.state.game.position;
    const field = $("replay-fpn");
    field.value = fpn;
    let copied = false;
    try {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        await navigator.clipboard.writeText(fpn);
        copied = true;
      }
    } catch (error) {
      copied = false; // refused (no permission, no focus): the field below instead
    }
    const note = $("replay-copied");
    note.textContent = t("replay.copied");
    note.hidden = !copied;
    clearTimeout(copiedTimer);
    if (copied) copiedTimer = setTimeout(() => (note.hidden = true), COPIED_SHOWN_MS);
    $("replay-fpn-box").hidden = copied;
    if (!copied) {
      field.focus();
      field.select();
    }
  }

  $("replay-first").addEventListener("click", () => act((from) => ({ game: from.game, step: 0 })));
  $("replay-prev").addEventListener("click", () => step(-1));
  $("replay-next").addEventListener("click", () => step(1));
  $("replay-last").addEventListener("click", () =>
    act((from) => ({ game: from.game, step: lastStep(from.game) }))
  );
  slider.addEventListener("input", () => {
    const value = +slider.value;
    act((from) => ({ game: from.game, step: value }));
  });
  $("replay-live").addEventListener("click", backToLive);
  $("browse-back").addEventListener("click", () => step(-1));
  table.backToLive = backToLive;
  $("replay-copy").addEventListener("click", copyPosition);
  /** The board after move ply of game (counted from 1), if the match has it. */
  function jump(game, ply) {
    if (!allowed()) return;
    act((from) => {
      const timeline = steps.games[game - 1] || [];
      const index = timeline.findIndex((entry) => entry.ply === ply && !entry.event);
      return index >= 0 ? { game: game - 1, step: index } : from;
    });
  }

  $("moves").addEventListener("click", (event) => {
    const target = event.target.closest(".ply-jump");
    if (target) jump(+target.dataset.game, +target.dataset.ply);
  });

  const KEYS = { ArrowLeft: -1, ArrowRight: 1 };
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !allowed()) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable], dialog")) return;
    if (event.key in KEYS) {
      event.preventDefault();
      step(KEYS[event.key]);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      if (event.key === "Home") $("replay-first").click();
      else $("replay-last").click();
    }
  });

  /** Whether the state is the steps' last state and one more move in the same game. */
  function appendable(s) {
    if (loading || !steps || steps.games.length !== s.games.length) return false;
    if (s.game.number !== s.games.length) return false;
    const timeline = steps.games[steps.games.length - 1];
    const last = timeline[timeline.length - 1];
    const moves = s.games[s.games.length - 1].moves;
    return !last.event && moves.length === last.ply + 1;
  }

  /** The step of the state's newest move, from the state: the cells it took are the
      cells whose owner changed since the step before. */
  function append(s) {
    const timeline = steps.games[steps.games.length - 1];
    const before = parseFpn(timeline[timeline.length - 1].position).cells;
    const after = parseFpn(s.game.position).cells;
    const move = s.games[s.games.length - 1].moves.slice(-1)[0];
    const gained = [];
    for (let i = 0; i < after.length; i++) if (after[i] !== before[i]) gained.push(i);
    timeline.push({
      ply: move.ply,
      seat: move.seat,
      color: move.color,
      event: null,
      position: s.game.position,
      scores: s.game.scores.slice(),
      gained: move.color === "swap" ? [] : gained,
    });
    steps.version = s.version;
  }

  return {
    jump: jump,
    render() {
      // The steps are fetched at once (a match that is over is replayed from its end)
      // and follow the live board: a new move is appended, anything else fetched again.
      if (allowed() && !fresh()) {
        if (appendable(table.state)) {
          append(table.state);
        } else {
          load()
            .then(render)
            .catch(() => undefined);
        }
      }
      render();
    },
  };
}
