"""What a move keeps from the seat that moves next (games/engine/bots/blocking.py): the
cells the colour played would have given it, as the practice hints say."""

import pytest

from games.engine import VARIANTS, IllegalMove, Position
from games.engine.bots import choose
from games.engine.bots.blocking import denied

# A to move: 4 takes three cells now, 3 takes nothing; but with 3 free B would take the
# three cells 2, 3 and 9, and the search plays 3.
BLOCK = "square 5x3 4 4433B/42213/A2431 1,2 A"


def test_a_colour_that_takes_nothing_denies_what_the_next_seat_would_take_with_it():
    position = Position.from_text(BLOCK)
    assert position.preview(3) == frozenset() and len(position.preview(4)) == 3
    their_turn = Position.from_text(BLOCK.replace(" A", " B"))
    assert denied(position, 3) == their_turn.preview(3) == frozenset({2, 3, 9})
    assert denied(position, 4) == their_turn.preview(4) == frozenset()
    assert choose(position, 4, seed=0) == 3


def test_a_partners_colour_was_barred_to_the_next_seat_anyway():
    position = VARIANTS["pairs"].new_position(seed=3)
    partner = position.seat_colors[2]
    assert position.legal_colors()[partner] is None  # A may play C's colour
    assert position.legal_colors(1)[partner] == "opponent"  # B never could
    assert denied(position, partner) == frozenset()


def test_a_move_that_ends_the_game_denies_nothing():
    position = Position.from_text("square 3x1 3 A2B 1,3 A")
    assert position.play(2).is_over
    assert denied(position, 2) == frozenset()


def test_a_colour_the_mover_may_not_play_is_refused():
    position = Position.from_text(BLOCK)
    with pytest.raises(IllegalMove):
        denied(position, 2)
