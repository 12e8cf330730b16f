"""Levels 1-3: a random legal move, the greedy move and a one-move heuristic.

Each returns the move and the number of positions it made. Ties are broken by the
caller's seeded ``random.Random``, so the same position and seed give the same move.
"""

from __future__ import annotations

import random

from games.engine.bots.view import (
    Colours,
    active_sides,
    after_move,
    allowed_colours,
    best_chain,
    free_cells,
    race,
    side_seats,
    side_territories,
    territories,
)
from games.engine.position import Move, Position

# Level 3's weights, per point of value: what the mover can chain into on its next move,
# what the best placed opponent can chain into on its next (the blocking term: the
# mover's new colour is barred to it), each free cell on the mover's edge, and the lead
# in the race for the free cells (reached in fewer moves than any other side).
NEXT_GAIN = 0.75
OPPONENT_GAIN = 1.0
EDGE_CELL = 0.25
RACE_CELL = 0.2
WON = 10_000.0


def random_move(position: Position, rng: random.Random) -> tuple[Move, int]:
    """Level 1: any legal move, the swap included."""
    return rng.choice(position.legal_moves()), 0


def greedy_move(position: Position, rng: random.Random) -> tuple[Move, int]:
    """Level 2: the move that leaves the mover's side the highest score now."""
    moves = _shuffled(position, rng)
    side = position.side_of(position.to_move)
    scores = [position.play(move).side_scores[side] for move in moves]
    best = max(range(len(moves)), key=scores.__getitem__)
    return moves[best], len(moves)


def heuristic_move(position: Position, rng: random.Random) -> tuple[Move, int]:
    """Level 3: the best move by :func:`heuristic_value`, one move deep."""
    moves = _shuffled(position, rng)
    colours = Colours.of(position)
    masks = territories(position)
    values = [heuristic_value(position, move, colours, masks) for move in moves]
    best = max(range(len(moves)), key=values.__getitem__)
    return moves[best], len(moves)


def heuristic_value(
    position: Position, move: Move, colours: Colours, masks: tuple[int, ...]
) -> float:
    """How good ``move`` is for the mover's side: the score it reaches, what it can take
    next, minus what the opponents can take next (a colour the mover takes is one they
    cannot), the free cells on its edge and its lead in the race for the free cells."""
    mover = position.to_move
    side = position.side_of(mover)
    child = position.play(move)
    score = child.side_scores[side]
    if child.is_over:
        return score + _result(child, side)
    masks = after_move(colours, position, child, move, masks)
    free = free_cells(colours.board, masks)
    sides = active_sides(child)
    fronts = side_territories(side_seats(child), masks)
    # after a swap the mover plays on from the other corner: masks[mover] follows it
    mine = best_chain(colours, masks[mover], free, allowed_colours(child, mover))
    theirs = max(
        best_chain(colours, masks[seat], free, allowed_colours(child, seat))
        for n in sides
        if n != side
        for seat in child.sides[n]
        if seat not in child.out
    )
    edge = (colours.board.spread(masks[mover]) & free).bit_count()
    reach = race(colours, fronts, free)
    me = sides.index(side)
    race_lead = reach[me] - max(r for n, r in enumerate(reach) if n != me)
    return (
        score + NEXT_GAIN * mine - OPPONENT_GAIN * theirs + EDGE_CELL * edge + RACE_CELL * race_lead
    )


def _result(position: Position, side: int) -> float:
    """WON for a game the side won, -WON for one it lost, 0 for a draw."""
    winners = position.winners
    mine = position.sides[side]
    if not any(seat in winners for seat in mine):
        return -WON
    return WON if all(seat in mine for seat in winners) else 0.0


def _shuffled(position: Position, rng: random.Random) -> list[Move]:
    moves = position.legal_moves()
    rng.shuffle(moves)
    return moves
