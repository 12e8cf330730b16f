/* The board's size: the largest that leaves the turn line, the players' clocks and the
   colour bar on the screen with it. CSS places the parts (stacked, or side by side on a
   landscape phone: --beside on .table-play); this sizes the board from what is left.
   On a small screen the page scrolls its play area to the top once, after the first
   state is drawn (and again after a rotation), so the site's header gives its room to
   the board. */

const MARGIN = 6; // px kept free below the play area
const LARGE_SCREEN = 960; // px wide: never scroll the header away there
const SMALLEST_SHARE = 0.9; // below this share of the width-bound board, scroll instead
const SMALLEST_BOARD = 200; // px high at least, even if the colours then need scrolling

/** Size the board of root now and whenever the screen or the parts around the board
    change size; returns fit() to call after the page redrew those parts. */
export function setupLayout(root) {
  const play = root.querySelector(".table-play");
  const wrap = root.querySelector("#board-wrap");
  const svg = wrap && wrap.querySelector("svg");
  if (!play || !svg) return { fit() {}, settle() {} };
  const box = svg.viewBox.baseVal;
  const aspect = box && box.height ? box.width / box.height : 1;
  let scrolled = false;
  let last = "";
  let wantScroll = false;

  function beside() {
    return getComputedStyle(play).getPropertyValue("--beside").trim() === "1";
  }

  function documentTop(node) {
    return node.getBoundingClientRect().top + window.scrollY;
  }

  function size() {
    const viewWidth = document.documentElement.clientWidth;
    const viewHeight = window.innerHeight;
    const style = getComputedStyle(wrap);
    const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    if (beside()) {
      // Board on the left at full height; the other column keeps at least its minimum.
      const other = parseFloat(getComputedStyle(play).getPropertyValue("--other-column")) || 240;
      const gap = parseFloat(getComputedStyle(play).columnGap) || 0;
      const height = viewHeight - 2 * MARGIN - padY;
      const width = play.clientWidth - other - gap - padX;
      return { ...bounded(width, height), scroll: true };
    }
    const width = wrap.clientWidth - padX;
    // Everything in the play area but the board stays; the board gets the rest.
    const around = play.getBoundingClientRect().height - wrap.getBoundingClientRect().height;
    const below = viewHeight - around - padY - MARGIN;
    const here = bounded(width, below - documentTop(play));
    const widest = bounded(width, Infinity);
    const small = viewWidth < LARGE_SCREEN;
    if (small && here.height < SMALLEST_SHARE * widest.height) {
      return { ...bounded(width, Math.max(below - MARGIN, SMALLEST_BOARD)), scroll: true };
    }
    return { ...bounded(width, Math.max(here.height, SMALLEST_BOARD)), scroll: false };
  }

  function bounded(width, height) {
    const h = Math.max(0, Math.min(height, width / aspect));
    return { width: Math.floor(h * aspect), height: Math.floor(h) };
  }

  function fit() {
    const wanted = size();
    const key = wanted.width + "x" + wanted.height;
    if (key !== last) {
      last = key;
      root.style.setProperty("--board-w", wanted.width + "px");
      root.style.setProperty("--board-h", wanted.height + "px");
    }
    wantScroll = wanted.scroll;
    root.dataset.fitted = "1";
  }

  /** Once the first state is drawn and laid out (and after a rotation): scroll the play
      area to the top if the screen needs it; afterwards the reader scrolls. */
  function settle() {
    if (scrolled) return;
    scrolled = true;
    fit();
    if (wantScroll) {
      window.scrollTo(0, Math.max(0, documentTop(play) - MARGIN));
      fit();
    }
  }

  const watched = new ResizeObserver(() => fit());
  for (const part of play.children) if (part !== wrap) watched.observe(part);
  watched.observe(play);
  window.addEventListener("resize", fit);
  window.addEventListener("orientationchange", () => {
    scrolled = false;
    requestAnimationFrame(settle);
  });
  return { fit, settle };
}
