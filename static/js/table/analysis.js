/* The computer's review of a finished match (SPEC §13, docs/protocol.md "Analysis"), under
   the replay: asking for it, its progress as the table's socket tells it ("analysing 34 of
   130 moves"), and once done, per game a graph of win chances (judged moves marked; a
   click goes to that move), each player's accuracy and counts, at a judged move the best
   colour and what it would have kept (its cells outlined on the board), and from any
   position of the replay, another colour tried: the computer's answer and the chances.

   Every chance the page shows is one named side's (the viewer's seat, else seat A), to a
   tenth: the API gives the mover's, and a move's "after" is the next move's "before"
   from the other side, so shown from one side they chain, and a judgement follows from
   the two numbers shown (SPEC §13's thresholds on the mover's drop). */

import { byId as $, el } from "../dom.js";
import { parseFpn } from "./board.js";
import { phrase } from "./phrases.js";
import { memberLink, mySeat, playerName } from "./seats.js";

const SVG = "http://www.w3.org/2000/svg";
const TRY_POLL_MS = 300;
const TRY_POLLS = 40; // a try not answered by then is given up (the page says so)
const JUDGEMENTS = ["inaccuracy", "mistake", "blunder"];

function svgEl(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const key in attrs) node.setAttribute(key, attrs[key]);
  return node;
}

/** Chances as the page shows them: to a tenth, as they are stored. */
function percent(value, lang) {
  return value.toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) + "%";
}

/**
 * Wire the analysis panel; replay gives the shown spot (spotted) and goes to a move
 * (jump). Returns render() for a new state, spotted(spot, entry) for the replay and
 * progress(message) for the socket's "analysis" message.
 */
export function setupAnalysis(table, board, replay) {
  const { root, texts, palette } = table;
  const { t } = texts;
  const box = $("analysis");
  if (!box) return { render() {}, spotted() {}, progress() {} };
  let analysis; // undefined: not read yet; null: never asked; else the last answer
  let reading = null;
  let spot = null; // {game, step} and its entry, as the replay shows it
  let entry = null;
  let trying = 0; // the try whose answer is awaited (a newer one replaces it)

  function analysable() {
    const s = table.state;
    return s.match.status === "finished" && s.match.seats.length === 2;
  }

  function read() {
    if (!reading) {
      reading = fetch(root.dataset.analysisUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
        .then((data) => {
          analysis = data.analysis;
          render();
        })
        .catch(() => undefined)
        .finally(() => (reading = null));
    }
    return reading;
  }

  function post(url, data) {
    const body = new URLSearchParams(data); // an empty multipart body is refused
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": document.body.dataset.csrf || "" },
    }).then((response) => response.json().catch(() => ({ error: "unknown" })));
  }

  function ask() {
    $("analysis-ask").disabled = true;
    post(root.dataset.analysisUrl, {}).then((data) => {
      $("analysis-ask").disabled = false;
      if (data.error) {
        showError($("analysis-error"), data);
        return;
      }
      analysis = data.analysis;
      render();
    });
  }

  function showError(target, data) {
    target.textContent = data.message || t("error.unknown");
    target.hidden = false;
  }

  function render() {
    const can = analysable();
    box.hidden = !can;
    if (!can) {
      board.mark("best", []);
      return;
    }
    if (analysis === undefined) {
      read();
      return;
    }
    const done = analysis && analysis.status === "done";
    const running = analysis && (analysis.status === "queued" || analysis.status === "running");
    const again = analysis && (analysis.status === "failed" || analysis.status === "busy");
    $("analysis-ask").hidden = !(analysis === null || again) || root.dataset.member !== "1";
    $("analysis-failed").hidden = !(analysis && analysis.status === "failed");
    $("analysis-busy").hidden = !(analysis && analysis.status === "busy");
    const progress = $("analysis-progress");
    progress.hidden = !running;
    if (running) {
      progress.textContent = t("analysis.progress", { done: analysis.done, total: analysis.total });
      const bar = $("analysis-bar");
      bar.max = analysis.total || 1;
      bar.value = analysis.done;
    }
    $("analysis-bar").hidden = !running;
    $("analysis-review").hidden = !done;
    if (done) renderReview();
    else board.mark("best", []);
    root.dataset.analysis = analysis ? analysis.status : "none"; // a test hook
  }

  /** The game the replay shows (the last one while nothing is shown). */
  function gameShown() {
    if (spot) return spot.game;
    return analysis.games.length - 1;
  }

  /** The seat whose chances the page shows: the viewer's, or A for a spectator. */
  function side() {
    return mySeat(table.state) || "A";
  }

  /** A mover's chances (as the API has them) from the side shown. */
  function fromSide(seat, value) {
    return seat === side() ? value : 100 - value;
  }

  function renderReview() {
    const game = gameShown();
    renderGraph(game);
    renderFigures(game);
    renderJudged(game);
    renderMove(game);
  }

  /** The side's win chances after each move of a game (and before the first). */
  function curve(all) {
    const entries = all.filter((e) => e.reviewed !== false); // beyond the review's budget: none
    const points = entries.length ? [fromSide(entries[0].seat, entries[0].before)] : [50];
    for (const e of entries) points.push(fromSide(e.seat, e.after));
    return points;
  }

  function renderGraph(game) {
    const entries = analysis.games[game];
    const points = curve(entries);
    const width = Math.max(1, points.length - 1);
    const graph = svgEl("svg", {
      viewBox: `0 0 ${width} 100`,
      preserveAspectRatio: "none",
      class: "analysis-graph",
      role: "img",
      "aria-label": t("analysis.graph", { player: playerName(table.state, side(), texts), number: game + 1 }),
    });
    graph.append(svgEl("rect", { x: 0, y: 0, width: width, height: 100, class: "graph-back" }));
    const line = points.map((v, i) => `${i},${100 - v}`).join(" ");
    graph.append(svgEl("polygon", { points: `0,100 ${line} ${width},100`, class: "graph-area" }));
    graph.append(svgEl("line", { x1: 0, y1: 50, x2: width, y2: 50, class: "graph-middle" }));
    graph.append(svgEl("polyline", { points: line, class: "graph-line" }));
    if (spot && spot.game === game && entry) {
      graph.append(svgEl("line", { x1: entry.ply, y1: 0, x2: entry.ply, y2: 100, class: "graph-now" }));
    }
    entries.forEach((e, i) => {
      const ply = i + 1;
      // The whole height of a move is where a click goes to it.
      const hit = svgEl("rect", { x: ply - 0.5, y: 0, width: 1, height: 100, class: "graph-hit" });
      hit.dataset.ply = ply;
      graph.append(hit);
      if (e.judgement) {
        // A dot that the graph's stretching leaves round: a line of no length, round caps.
        const y = 100 - points[ply];
        const mark = svgEl("line", { x1: ply, y1: y, x2: ply, y2: y, class: "graph-mark " + e.judgement });
        mark.dataset.ply = ply;
        mark.dataset.judgement = e.judgement;
        graph.append(mark);
      }
    });
    graph.addEventListener("click", (event) => {
      const target = event.target.closest("[data-ply]");
      if (target) replay.jump(game + 1, +target.dataset.ply);
    });
    // The graph's axis: whose chances, in which game.
    const axis = el("p", "analysis-graph-side");
    axis.id = "analysis-graph-side";
    axis.dataset.seat = side();
    axis.append(phrase(texts, "analysis.graph", { player: memberLink(table.state, side(), texts), number: game + 1 }));
    $("analysis-graph").replaceChildren(axis, graph);
  }

  /** Each player's figures in the game shown (the caption names it), and beside them
      their accuracy over the whole match (a single game: the same, not shown twice). */
  function renderFigures(game) {
    const s = table.state;
    const body = $("analysis-figures");
    const whole = analysis.games.length > 1;
    $("analysis-figures-caption").textContent = t("game", { number: game + 1 });
    $("analysis-match-heading").hidden = !whole;
    body.replaceChildren();
    for (const seat of analysis.seats) {
      const figures = seat.games[game];
      const row = el("tr");
      row.dataset.seat = seat.seat;
      const who = el("th");
      who.scope = "row";
      who.append(memberLink(s, seat.seat, texts));
      row.append(who);
      row.append(el("td", "accuracy", accuracyText(figures.accuracy)));
      for (const key of ["inaccuracies", "mistakes", "blunders"]) row.append(el("td", key, String(figures[key])));
      if (whole) row.append(el("td", "match-accuracy", accuracyText(seat.accuracy)));
      body.append(row);
    }
  }

  function accuracyText(value) {
    return value === null || value === undefined ? "–" : value.toLocaleString(texts.lang) + "%";
  }

  function renderJudged(game) {
    const s = table.state;
    const list = $("analysis-judged");
    list.replaceChildren();
    analysis.games[game].forEach((e) => {
      if (!e.judgement) return;
      const item = el("li");
      const button = el("button", "judged " + e.judgement);
      button.type = "button";
      button.dataset.ply = e.ply;
      button.append(
        t("analysis.judged", { ply: e.ply, colour: colourName(e.played), judgement: t("analysis." + e.judgement) }),
        " · ",
        memberLink(s, e.seat, texts)
      );
      button.addEventListener("click", () => replay.jump(game + 1, e.ply));
      item.append(button);
      list.append(item);
    });
    list.hidden = !list.children.length;
  }

  function colourName(move) {
    if (move === "swap") return t("analysis.swap");
    return palette[move] ? palette[move].name : String(move);
  }

  /** At a move of the replay: what the computer says of it, and its best colour outlined. */
  function renderMove(game) {
    const note = $("analysis-move");
    const e = spot && entry && entry.ply && !entry.event ? analysis.games[game][entry.ply - 1] : null;
    if (!e) {
      note.hidden = true;
      board.mark("best", []);
      return;
    }
    if (e.reviewed === false) {
      note.textContent = t("replay.at", { ply: e.ply, total: analysis.games[game].length }) + ": " + t("analysis.unreviewed");
      note.dataset.judgement = "";
      note.hidden = false;
      board.mark("best", []);
      return;
    }
    const s = table.state;
    const before = percent(fromSide(e.seat, e.before), texts.lang);
    const after = percent(fromSide(e.seat, e.after), texts.lang);
    const parts = [phrase(texts, "analysis.played", { player: memberLink(s, e.seat, texts), colour: colourName(e.played) })];
    if (e.judgement) parts.push(t("analysis." + e.judgement));
    parts.push(phrase(texts, "analysis.chances", { player: memberLink(s, side(), texts), before: before, after: after }));
    if (e.best !== e.played && e.before - e.after >= 0.05) {
      parts.push(t("analysis.best", { colour: colourName(e.best), chances: before }));
      if (e.best_cells) parts.push(t("analysis.best_cells", { cells: texts.counted("cells", e.best_cells.length) }));
    } else {
      parts.push(t("analysis.was_best"));
    }
    if (e.exact) parts.push(t("analysis.exact"));
    note.replaceChildren(t("replay.at", { ply: e.ply, total: analysis.games[game].length }) + ": ");
    parts.forEach((part, i) => note.append(...(i ? [" · ", part] : [part])));
    note.dataset.judgement = e.judgement || "";
    note.hidden = false;
    board.mark("best", e.judgement && e.best_cells ? e.best_cells : []);
  }

  /** The colours one may try where the replay stands: buttons, the answer below. */
  function renderTry() {
    const tryBox = $("analysis-try");
    const canTry = analysable() && root.dataset.member === "1" && spot && entry && !entry.event;
    tryBox.hidden = !canTry;
    if (!canTry) return;
    const buttons = $("analysis-try-colours");
    const key = spot.game + ":" + entry.ply;
    if (buttons.dataset.at === key) return;
    buttons.dataset.at = key;
    buttons.replaceChildren();
    $("analysis-try-answer").hidden = true;
    $("analysis-try-error").hidden = true;
    const colours = Object.keys(palette).map(Number).sort((a, b) => a - b);
    for (const colour of colours) {
      const button = el("button", "try-colour");
      button.type = "button";
      button.dataset.colour = colour;
      button.title = palette[colour].name;
      button.setAttribute("aria-label", t("analysis.try_colour", { colour: palette[colour].name }));
      const swatch = el("span", "swatch sw-" + colour);
      swatch.append(el("span", "swatch-sym", palette[colour].symbol || ""));
      button.append(swatch);
      button.addEventListener("click", () => tryColour(String(colour)));
      buttons.append(button);
    }
  }

  function tryColour(colour) {
    const at = { game: spot.game + 1, ply: entry.ply, colour: colour };
    const mover = parseFpn(entry.position).toMove; // who plays the colour tried
    const mine = ++trying;
    const answerBox = $("analysis-try-answer");
    const errorBox = $("analysis-try-error");
    errorBox.hidden = true;
    answerBox.hidden = false;
    answerBox.textContent = t("analysis.thinking");
    delete answerBox.dataset.colour;
    let polls = 0;
    const once = () =>
      post(root.dataset.analysisTryUrl, at).then((data) => {
        if (mine !== trying) return;
        if (data.error) {
          answerBox.hidden = true;
          showError(errorBox, data);
        } else if (data.pending) {
          if (++polls > TRY_POLLS) {
            answerBox.textContent = t("analysis.no_answer");
            return;
          }
          setTimeout(once, TRY_POLL_MS);
        } else {
          showAnswer(data, mover);
        }
      });
    once();
  }

  /** A tried colour's answer; its chances (the mover's) from the side shown. */
  function showAnswer(data, mover) {
    const answerBox = $("analysis-try-answer");
    const values = {
      colour: colourName(data.colour),
      player: playerName(table.state, side(), texts),
      chances: percent(fromSide(mover, data.chances), texts.lang),
    };
    let text = data.answer === null ? t("analysis.try_end", values) : t("analysis.try_answer", { ...values, answer: colourName(data.answer) });
    if (data.exact) text += " · " + t("analysis.exact");
    answerBox.textContent = text;
    answerBox.dataset.colour = data.colour;
    answerBox.dataset.answer = data.answer === null ? "" : data.answer;
  }

  $("analysis-ask").addEventListener("click", ask);

  return {
    render() {
      render();
      renderTry();
    },
    spotted(shownSpot, shownEntry) {
      spot = shownSpot;
      entry = shownEntry;
      if (analysis && analysis.status === "done" && analysable()) renderReview();
      renderTry();
    },
    progress(message) {
      if (message.status === "done") {
        read();
        return;
      }
      analysis = { status: message.status, done: message.done, total: message.total };
      render();
    },
  };
}
