"""Positions for the rules pages' diagrams, found by the engine itself, so every diagram
agrees with the rules as the site plays them.

Each kind is deterministic for a variant (a fixed seed and a greedy player) and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.engine import VARIANTS, Position

DIAGRAM_SEED = 2026
KINDS = ("fresh", "chain", "enclosure", "decided", "special")


@dataclass(frozen=True)
class Diagram:
    before: Position
    colour: int | None = None  # the move shown, if any
    gain: frozenset[int] = frozenset()
    after: Position | None = None


def greedy_colour(position: Position) -> int:
    """The legal colour that gains the most cells now (lowest colour on ties)."""
    legal = [c for c, reason in position.legal_colors().items() if reason is None]
    return max(legal, key=lambda c: (len(position.preview(c)), -c))


def _start(variant_key: str) -> Position:
    variant = VARIANTS[variant_key]
    key = variant.boards[0] if variant.boards else variant_key
    return VARIANTS[key].new_position(DIAGRAM_SEED)


def _move(position: Position, colour: int) -> Diagram:
    return Diagram(position, colour, position.preview(colour), position.play(colour))


@lru_cache(maxsize=128)
def diagram(kind: str, variant_key: str) -> Diagram:
    if kind not in KINDS:
        raise ValueError(f"no diagram kind {kind!r}")
    position = _start(variant_key)
    if kind == "fresh":
        return Diagram(position)
    if kind == "special":
        board = position.board
        walled = {cell for wall in board.walls for cell in wall}
        special = {i for i, value in enumerate(board.values) if value > 1}
        return Diagram(position, gain=frozenset(special | set(board.paint) | walled))
    if kind == "chain":
        # The first position within a few moves where the best move chains through at
        # least three steps of its colour.
        best = None
        for _ in range(8):
            colour = greedy_colour(position)
            gain = position.preview(colour)
            if best is None or len(gain) > len(best.gain):
                best = _move(position, colour)
            if len(gain) >= 4:
                break
            position = position.play(colour)
        return best
    if kind == "enclosure":
        # The first greedy move whose gain holds cells of another colour: a region closed.
        fallback = None
        while not position.is_over:
            colour = greedy_colour(position)
            gain = position.preview(colour)
            colours = position.cell_colors()
            if any(colours[i] not in (colour, 0) for i in gain):
                return _move(position, colour)
            fallback = fallback or _move(position, colour)
            position = position.play(colour)
        return fallback
    # decided: play greedily to the end; the last move decides the game.
    last = None
    while not position.is_over:
        colour = greedy_colour(position)
        last = _move(position, colour)
        position = last.after
    return last
