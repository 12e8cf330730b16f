/* The board's size: the largest that leaves the turn line, the players' clocks and the
   colour bar on the screen with it, as the page opens, without the reader scrolling.
   On a phone a spectator, who has no colour to press, gets the screen below the clocks
   instead (--watch-whole-screen), and what stands under the board may scroll: else a
   15×15 board shrinks to a few pixels a cell. CSS places the parts (stacked, or side by
   side on a landscape phone: --beside on .table-play) and keeps what stands above the
   play area short on phones; this sizes the board from what is left of the screen below
   the play area's top. */

const MARGIN = 6; // px kept free below the play area
const SMALLEST_BOARD = 160; // px high at least, even if the colours then need scrolling

/** Size the board of root now and whenever the screen or the parts around the board
    change size; returns fit() to call after the page redrew those parts. seated():
    whether the person looking has a seat at the table (the colour bar is theirs). */
export function setupLayout(root, { seated = () => true } = {}) {
  const play = root.querySelector(".table-play");
  const wrap = root.querySelector("#board-wrap");
  const svg = wrap && wrap.querySelector("svg");
  if (!play || !svg) return { fit() {} };
  const box = svg.viewBox.baseVal;
  const aspect = box && box.height ? box.width / box.height : 1;
  let last = "";

  function flag(name) {
    return getComputedStyle(play).getPropertyValue(name).trim() === "1";
  }

  /** The play area's top in the page: what the screen shows above it at scroll 0. */
  function documentTop(node) {
    return node.getBoundingClientRect().top + window.scrollY;
  }

  function size() {
    const viewHeight = window.innerHeight;
    const style = getComputedStyle(wrap);
    const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const below = viewHeight - documentTop(play) - MARGIN - padY;
    if (flag("--beside")) {
      // Board on the left, as high as the screen leaves; the other column keeps at least
      // its minimum width.
      const other = parseFloat(getComputedStyle(play).getPropertyValue("--other-column")) || 240;
      const gap = parseFloat(getComputedStyle(play).columnGap) || 0;
      return bounded(play.clientWidth - other - gap - padX, below);
    }
    // Everything in the play area but the board stays, and the board gets the rest; a
    // spectator on a phone keeps only what stands above the board.
    const boardBox = wrap.getBoundingClientRect();
    const playBox = play.getBoundingClientRect();
    const whole = !seated() && flag("--watch-whole-screen");
    const around = whole ? boardBox.top - playBox.top : playBox.height - boardBox.height;
    return bounded(wrap.clientWidth - padX, below - around);
  }

  function bounded(width, height) {
    const h = Math.max(0, Math.min(Math.max(height, SMALLEST_BOARD), width / aspect));
    return { width: Math.floor(h * aspect), height: Math.floor(h) };
  }

  function fit() {
    const wanted = size();
    const key = wanted.width + "x" + wanted.height;
    if (key !== last) {
      last = key;
      root.style.setProperty("--board-w", wanted.width + "px");
      root.style.setProperty("--board-h", wanted.height + "px");
      if (box && wanted.width && wanted.height) {
        // Board units per pixel, rounded up: the viewBox fits the box it is drawn in.
        const units = Math.max(box.width / wanted.width, box.height / wanted.height);
        root.style.setProperty("--board-px", String(Math.ceil(units * 1e5) / 1e5));
      }
    }
    root.dataset.fitted = "1";
  }

  const watched = new ResizeObserver(() => fit());
  for (const part of play.children) if (part !== wrap) watched.observe(part);
  watched.observe(play);
  window.addEventListener("resize", fit);
  window.addEventListener("orientationchange", () => requestAnimationFrame(fit));
  return { fit };
}
