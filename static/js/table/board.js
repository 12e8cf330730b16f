/* The board: the server draws its SVG once, and every state recolours the cells from the
   position's FPN (docs/protocol.md, game.position); pointing at a colour highlights the cells it would take. */

import { LETTERS } from "./seats.js";

/**
 * The parts of an FPN text the page draws: the cells in reading order, the seats'
 * colours, the seat to move and the cell values (option "v=cell:value,…").
 *
 *   parseFpn("square 4x3 6 124B/3312/A621 5,6 A").seatColors  // [5, 6]
 */
export function parseFpn(text) {
  const fields = text.split(" ");
  const values = new Map();
  const walls = new Set();
  for (const option of fields.slice(6)) {
    if (option.startsWith("v=")) {
      for (const entry of option.slice(2).split(",")) {
        const [cell, value] = entry.split(":");
        values.set(+cell, +value);
      }
    } else if (option.startsWith("w=")) {
      for (const entry of option.slice(2).split(",")) walls.add(entry);
    }
  }
  return {
    cells: fields[3].replace(/\//g, ""),
    seatColors: fields[4].split(",").map(Number),
    toMove: fields[5],
    values: values,
    walls: walls, // "a-b": cells a < b with a wall between them
  };
}

/**
 * The board inside root (#board-wrap svg): draw(fpn) recolours every cell and its
 * symbol; mark(kind, cells) gives these cells the class kind (and takes it from the
 * others): "hl" a colour's preview, "gain" the cells a replayed move took, "hint" a hint,
 * "best" what the analysis's best colour would have taken.
 * highlight(cells) is mark("hl", cells).
 */
export function createBoard(root, palette) {
  const svg = root.querySelector("#board-wrap svg");
  const polygons = svg ? Array.from(svg.querySelectorAll(".cells polygon")) : [];
  const marks = {};
  if (svg) {
    for (const mark of svg.querySelectorAll(".marks text[data-i]")) marks[mark.dataset.i] = mark;
  }
  const baseClass = polygons.map((p) => p.getAttribute("class") || "");
  const marked = { hl: new Set(), gain: new Set(), hint: new Set(), best: new Set() };

  function paintCell(i) {
    let wanted = baseClass[i];
    for (const kind in marked) if (marked[kind].has(i)) wanted += " " + kind;
    if (polygons[i].getAttribute("class") !== wanted) polygons[i].setAttribute("class", wanted);
  }

  function draw(fpn) {
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

  function mark(kind, cells) {
    const next = new Set(cells || []);
    const changed = new Set([...marked[kind], ...next]);
    marked[kind] = next;
    for (const i of changed) if (i < polygons.length) paintCell(i);
  }

  function highlight(cells) {
    mark("hl", cells);
  }

  /** Each cell's neighbours: the cells whose polygons share an edge with it (two
      corners), read once from the drawn board. */
  let neighbours = null;
  function neighboursOf() {
    if (neighbours) return neighbours;
    const byCorner = new Map();
    polygons.forEach((polygon, i) => {
      for (const corner of (polygon.getAttribute("points") || "").trim().split(/\s+/)) {
        const [x, y] = corner.split(",").map((v) => Math.round(+v * 100));
        const key = x + ":" + y;
        if (!byCorner.has(key)) byCorner.set(key, []);
        byCorner.get(key).push(i);
      }
    });
    const shared = polygons.map(() => new Map());
    for (const cells of byCorner.values()) {
      for (const a of cells) for (const b of cells) if (a !== b) shared[a].set(b, (shared[a].get(b) || 0) + 1);
    }
    neighbours = shared.map((counts) => [...counts].filter(([, n]) => n >= 2).map(([b]) => b));
    return neighbours;
  }

  /**
   * The free cells of this colour joined to the territory of the seat with this letter,
   * directly or through each other: what the colour would take now (without the
   * enclosures the server also counts), for a premove's preview.
   */
  function chain(fpn, letter, colour) {
    const near = neighboursOf();
    const colourChar = String(colour);
    const walled = (a, b) => fpn.walls.has(Math.min(a, b) + "-" + Math.max(a, b));
    const taken = [];
    const seen = new Set();
    const queue = [];
    for (let i = 0; i < fpn.cells.length; i++) if (fpn.cells[i] === letter) queue.push(i);
    queue.forEach((i) => seen.add(i));
    while (queue.length) {
      const cell = queue.pop();
      for (const next of near[cell] || []) {
        if (seen.has(next) || fpn.cells[next] !== colourChar || walled(cell, next)) continue;
        seen.add(next);
        taken.push(next);
        queue.push(next);
      }
    }
    return taken;
  }

  return { draw, mark, highlight, chain };
}
