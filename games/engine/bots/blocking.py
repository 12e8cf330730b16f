"""What a move keeps from the seat that moves next (SPEC §1: a move that captures nothing
is legal, it blocks a colour the opponent needs). The colour a seat plays becomes its
current colour, which its opponents may not play until it moves again; so the one colour
a move bars is the colour played, and what it denies is what that colour would have given
the next seat in the position as it stands.

>>> from games.engine import Position
>>> pos = Position.from_text("square 5x3 4 4433B/42213/A2431 1,2 A")
>>> len(pos.preview(3)), sorted(denied(pos, 3))
(0, [2, 3, 9])
"""

from __future__ import annotations

from games.engine.position import Position


def denied(position: Position, colour: int) -> frozenset[int]:
    """The cells (chain and enclosure) the seat moving after ``position.to_move`` could have
    taken with ``colour`` had the mover not played it: empty when ``colour`` was barred to
    that seat anyway (a partner's colour in Pairs) or the move ends the game. Raises
    :class:`~games.engine.errors.IllegalMove` when the mover may not play ``colour``."""
    after = position.play(colour)
    if after.is_over:
        return frozenset()
    following = after.to_move
    if position.legal_colors(following)[colour] is not None:
        return frozenset()
    # The same territories and colours, with the following seat to move.
    their_turn = position.with_seats_permuted(range(position.seats), following)
    return their_turn.preview(colour)
