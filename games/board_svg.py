"""The site's one board renderer: any position of any shape as SVG.

The table page draws its board with it once and then only recolours cells from the
state's FPN (``static/js/table.js``); rules diagrams and lobby thumbnails are drawn by it
whole. Geometry in board units: a square cell is 1×1, a hexagon is 1 wide.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from html import escape

from django.utils.safestring import SafeString, mark_safe

from games.engine import PALETTE, Board, Position

SQRT3 = math.sqrt(3)
HEX_R = 1 / SQRT3  # centre to vertex of a hexagon 1 wide
LETTERS = "ABCD"


def _hexagon(x: float, y: float) -> tuple[tuple[float, float], ...]:
    return tuple(
        (x + HEX_R * math.cos(math.radians(a)), y + HEX_R * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    )


@lru_cache(maxsize=64)
def geometry(board: Board) -> tuple[tuple[tuple[tuple[float, float], ...], ...], float, float]:
    """(polygon per cell, width, height) of a board, cached per board."""
    shape = board.shape
    polygons = []
    if shape == "square":
        for r, c in board.coords:
            polygons.append(((c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)))
        return tuple(polygons), float(board.width), float(board.height)
    if shape == "rhombus":
        for r, c in board.coords:
            x, y = c + 0.5 + (r % 2) * 0.5, 0.5 + r * 0.5
            polygons.append(((x, y - 0.5), (x + 0.5, y), (x, y + 0.5), (x - 0.5, y)))
        return tuple(polygons), board.width + 0.5, (len(board.row_lengths) + 1) * 0.5
    # hex (odd rows shifted right) and hexagon (rows centred): pointy-top hexagons
    widest = max(board.row_lengths)
    row_step = 1.5 * HEX_R
    for r, c in board.coords:
        offset = (r % 2) * 0.5 if shape == "hex" else (widest - board.row_lengths[r]) / 2
        polygons.append(_hexagon(offset + c + 0.5, HEX_R + r * row_step))
    width = widest + (0.5 if shape == "hex" and len(board.row_lengths) > 1 else 0)
    height = 2 * HEX_R + (len(board.row_lengths) - 1) * row_step
    return tuple(polygons), float(width), height


def _centre(polygon) -> tuple[float, float]:
    xs, ys = zip(*polygon, strict=True)
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _shared_edge(a, b) -> tuple[tuple[float, float], tuple[float, float]] | None:
    common = [p for p in a if any(abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6 for q in b)]
    return (common[0], common[1]) if len(common) >= 2 else None


def _points(polygon) -> str:
    return " ".join(f"{x:.3g},{y:.3g}" for x, y in polygon)


LARGE_BOARD = 16  # cells across, or down, from which a board counts as large


def render_board(
    position: Position,
    *,
    highlight: Iterable[int] = (),
    title: str = "",
    css_class: str = "",
    interactive: bool = False,
    marks: bool = True,
) -> SafeString:
    """The position as an ``<svg>``; ``highlight`` marks cells (a move's gain).

    Every cell is a ``<polygon>`` (the i-th is cell i) with a class saying what it shows (``c3``,
    ``owned A``, ``obstacle``, ``paint``), a colour symbol (shown when the page turns
    symbols on) and, for valuable cells, its value.
    """
    board = position.board
    polygons, width, height = geometry(board)
    owners = position.owners()
    colours = position.cell_colors()
    marked = set(highlight)
    pad = 0.08
    # Small cells on a screen: the page draws their outlines heavier (table.css).
    size = " large" if max(width, height) >= LARGE_BOARD else ""
    parts = [
        f'<svg class="board board-{board.shape}{size} {escape(css_class)}" '
        f'viewBox="{-pad:.2f} {-pad:.2f} {width + 2 * pad:.3f} {height + 2 * pad:.3f}" '
        f'xmlns="http://www.w3.org/2000/svg" role="img"'
        + (f' aria-label="{escape(title)}"' if title else "")
        + (' data-interactive="1"' if interactive else "")
        + ">"
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    cells, texts = [], []
    for i, polygon in enumerate(polygons):
        classes = []
        if i in board.obstacles:
            classes.append("obstacle")
        elif owners[i] is not None:
            classes += [f"c{colours[i]}", "owned", f"own-{LETTERS[owners[i]]}"]
        elif i in board.paint:
            classes.append("paint")
        else:
            classes.append(f"c{colours[i]}")
        if i in marked:
            classes.append("hl")
        # Cells are drawn in index order: the table's script finds cell i as the i-th polygon.
        cells.append(f'<polygon class="{" ".join(classes)}" points="{_points(polygon)}"/>')
        if not marks or i in board.obstacles:
            continue
        x, y = _centre(polygon)
        if colours[i]:
            texts.append(
                f'<text class="sym on-c{colours[i]}" data-i="{i}" x="{x:.3f}" y="{y:.3f}">'
                f"{PALETTE[colours[i]].symbol}</text>"
            )
        else:  # a free paint cell: no colour of its own, always marked
            texts.append(f'<text class="paint-mark" data-i="{i}" x="{x:.3f}" y="{y:.3f}">✱</text>')
        if board.values[i] > 1:
            texts.append(
                f'<text class="val" x="{x:.3f}" y="{y + 0.32:.3f}">{board.values[i]}</text>'
            )
    parts.append('<g class="cells">' + "".join(cells) + "</g>")
    if marks:
        parts.append('<g class="marks" aria-hidden="true">' + "".join(texts) + "</g>")
    walls = []
    for i, j in sorted(board.walls):
        edge = _shared_edge(polygons[i], polygons[j])
        if edge:
            (x1, y1), (x2, y2) = edge
            walls.append(
                f'<line class="wall" x1="{x1:.3f}" y1="{y1:.3f}" x2="{x2:.3f}" y2="{y2:.3f}"/>'
            )
    if walls:
        parts.append('<g class="walls">' + "".join(walls) + "</g>")
    parts.append("</svg>")
    return mark_safe("".join(parts))


@lru_cache(maxsize=1)
def palette_css() -> str:
    """CSS rules for every colour, from the engine's palette alone: a cell's fill (``c3``), its
    territory outline and the symbol drawn on it (``on-c3``) in the colour's ink, the ink for the
    marks drawn on the cell (``--cell-ink``: previews, hints), and a swatch or colour button
    (``sw-3``) with its text in that ink."""
    return "".join(
        f".board .c{index}{{fill:{entry.hex};--cell-ink:{entry.ink}}}"
        f".board .owned.c{index}{{stroke:{entry.ink}}}"
        f".board .sym.on-c{index}{{fill:{entry.ink}}}"
        f".sw-{index}{{background:{entry.hex};color:{entry.ink}}}"
        for index, entry in PALETTE.items()
    )
