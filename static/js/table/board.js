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

/**
 * The board inside root (#board-wrap svg): draw(fpn) recolours every cell and its
 * symbol; mark(kind, cells) gives these cells the class kind (and takes it from the
 * others): "hl" a colour's preview, "gain" the cells a replayed move took, "hint" a hint.
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
  const marked = { hl: new Set(), gain: new Set(), hint: new Set() };

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

  return { draw, mark, highlight };
}
