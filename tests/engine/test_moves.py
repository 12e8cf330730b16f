"""The move and its consequences (SPEC §1), one rule per test on hand-written FPN."""

import pytest

from games.engine import IllegalMove, Position

# 6x3, A bottom-left with colour 4, B top-right with colour 5:
#   1 2 1 2 1 B
#   2 1 3 3 2 1
#   A 3 3 2 3 2
CHAIN = "square 6x3 6 12121B/213321/A33232 4,5 A"

# A's 3s run up to the top row and cut the 1-2 pocket at the top-left off from B
#   1 2 3 4 B
#   3 3 3 3 2
#   A 4 1 2 1
POCKET = "square 5x3 6 1234B/33332/A4121 5,6 A"


def gain(text, colour):
    pos = Position.from_text(text)
    return pos.territory(pos.to_move), pos.play(colour)


def test_a_chain_of_three_steps_and_more():
    pos = Position.from_text(CHAIN)
    after = pos.play(3)
    # 13 touches A, then 14, then 8, then 9; the 3 at 16 touches none of them
    assert after.territory(0) == {12, 13, 14, 8, 9}
    assert after.territory(1) == {5}
    assert after.seat_colors == (3, 5)
    assert after.to_move == 1
    assert after.scores == (5, 1)
    assert after.to_text() == "square 6x3 6 12121B/21AA21/AAA232 3,5 B"


def test_play_leaves_the_position_unchanged():
    pos = Position.from_text(CHAIN)
    pos.play(3)
    assert pos.to_text() == CHAIN
    with pytest.raises(AttributeError):
        pos.to_move = 1


def test_enclosure_takes_a_region_cut_off_from_the_other_side():
    pos = Position.from_text(POCKET)
    # the chain is 5 6 7 8 and 2; 0 and 1 now border A only
    assert pos.preview(3) == {0, 1, 2, 5, 6, 7, 8}
    after = pos.play(3)
    assert after.territory(0) == {0, 1, 2, 5, 6, 7, 8, 10}
    # 3 (next to B) and the bottom-right region still border both sides
    assert after.owners()[3] is None and after.owners()[9] is None


def test_the_game_ends_once_decided_before_the_board_is_full():
    after = Position.from_text(POCKET).play(3)
    # 15 countable cells: 8 is more than half; B can reach at most 1 + 6
    assert after.countable == 15 and after.needed_to_win == 8
    assert after.scores == (8, 1)
    assert after.potentials == (14, 7)
    assert after.is_over and after.winners == (0,)
    assert after.owners().count(None) == 6


def test_half_of_the_board_is_not_enough_and_a_full_board_can_be_a_draw():
    pos = Position.from_text("square 4x1 4 A12B 3,4 A")
    half = pos.play(1)
    assert half.scores == (2, 1) and half.needed_to_win == 3
    assert not half.is_over and half.winners == ()
    full = half.play(2)
    assert full.scores == (2, 2)
    assert full.is_over and full.winners == (0, 1)


def test_a_dead_region_counts_for_nobody():
    # cell 0 is boxed in by obstacles: no seat can ever reach it
    pos = Position.from_text("square 4x3 5 1#2B/##31/A321 4,5 A")
    assert pos.dead == {0}
    assert pos.countable == 8 and pos.needed_to_win == 5
    assert pos.potentials == (7, 7)
    # still dead after a move: A's 3 takes 9, and 5 free cells can still be won
    after = pos.play(3)
    assert after.scores == (2, 1) and after.potentials == (7, 6)
    assert after.countable == 8 and after.dead == {0}
    # the game ends when only dead cells are left free
    end = Position.from_text("square 4x3 5 1#BB/##BB/AAAA 4,5 A")
    assert end.dead == {0}
    assert end.is_over and end.winners == (0, 1)


def test_forbidden_colours_and_why():
    pos = Position.from_text(CHAIN)
    assert pos.legal_colors() == {1: None, 2: None, 3: None, 4: "own", 5: "opponent", 6: None}
    assert pos.legal_moves() == [1, 2, 3, 6]
    assert pos.legal_colors(seat=1)[4] == "opponent" and pos.legal_colors(seat=1)[5] == "own"
    cases = [
        (4, "own", "colour 4 is A's own current colour"),
        (5, "opponent", "colour 5 is B's current colour"),
        (7, "palette", "not in the palette 1-6"),
        (0, "palette", "not in the palette"),
        ("3", "palette", "a move is a colour"),
        (True, "palette", "a move is a colour"),
        (2.0, "palette", "a move is a colour"),
        ("swap", "swap", "pie rule"),
    ]
    for colour, reason, message in cases:
        with pytest.raises(IllegalMove, match=message) as caught:
            pos.play(colour)
        assert caught.value.reason == reason
        assert isinstance(caught.value, ValueError)
    with pytest.raises(IllegalMove) as caught:
        pos.preview(5)
    assert caught.value.reason == "opponent"


def test_no_move_once_the_game_is_over():
    over = Position.from_text(POCKET).play(3)
    assert over.legal_colors() == dict.fromkeys(range(1, 7), "game_over")
    assert over.legal_moves() == []
    for move in (1, "swap"):
        with pytest.raises(IllegalMove, match="the game is over") as caught:
            over.play(move)
        assert caught.value.reason == "game_over"


def test_a_move_that_captures_nothing_is_legal_and_blocks_the_colour():
    pos = Position.from_text(CHAIN)
    assert pos.preview(1) == frozenset()
    after = pos.play(1)
    assert after.territory(0) == {12}
    assert after.seat_colors == (1, 5) and after.to_move == 1
    assert after.legal_colors()[1] == "opponent"


def test_paint_joins_any_chain_and_the_chain_goes_on_through_it():
    #   1 1 2 2 B
    #   A * 3 * 1
    pos = Position.from_text("square 5x2 6 1122B/A*3*1 4,5 A")
    assert pos.preview(3) == {6, 7, 8}
    # 2 is not next to the paint cell: only the paint is taken
    assert pos.preview(2) == {6}
    after = pos.play(3)
    assert after.cell_colors() == (1, 1, 2, 2, 5, 3, 3, 3, 3, 1)
    assert pos.cell_colors()[6] == 0
    assert after.to_text() == "square 5x2 6 1122B/AAAA1 3,5 B"


def test_cell_values_count_in_scores():
    pos = Position.from_text("square 5x2 6 1122B/A*3*1 4,5 A v=7:3,9:2")
    assert pos.countable == 13
    assert pos.play(3).scores == (6, 1)


def test_a_wall_stops_the_chain():
    #   2 1 2 B
    #   1 2 1 2
    #   A|1 2 1      wall between 8 and 9
    text = "square 4x3 5 212B/1212/A121 3,4 A w=8-9"
    pos = Position.from_text(text)
    assert pos.board.neighbours[8] == (4,)
    assert pos.preview(1) == {4}
    without_wall = Position.from_text("square 4x3 5 212B/1212/A121 3,4 A")
    assert without_wall.preview(1) == {4, 9}


def test_hex_moves_follow_the_shifted_rows():
    # (1, 0) is on an odd row: it touches (0, 0) and (0, 1) above it
    pos = Position.from_text("hex 3x2 4 12B/A13 3,4 A")
    # 2 at (0, 1) is taken, and (0, 0) next to it borders A only
    assert pos.preview(2) == {0, 1}
    square = Position.from_text("square 3x2 4 12B/A13 3,4 A")
    assert square.preview(2) == frozenset()


def test_rhombus_cells_do_not_touch_their_row():
    pos = Position.from_text("rhombus 3x3 4 11B/212/A12 3,4 A")
    # the 1 at (2, 1) sits beside A in its row but does not touch it
    assert pos.preview(1) == frozenset()
    # (1, 0) is taken; (0, 0) touches only (1, 0) and is cut off
    assert pos.preview(2) == {0, 3}


def test_pairs_partners_colours_and_shared_enclosure():
    # A (colour 5) and C (colour 3) against B (6) and D (1)
    #   B # 3 1 C
    #   3 # 3 3 2
    #   4 4 4 4 #
    #   A 2 1 # D
    text = "square 5x4 6 B#31C/3#332/4444#/A21#D 5,6,3,1 A t=AC/BD"
    pos = Position.from_text(text)
    assert pos.sides == ((0, 2), (1, 3)) and pos.side_of(2) == 0
    assert pos.legal_colors() == {1: "opponent", 2: None, 3: None, 4: None, 5: "own", 6: "opponent"}
    shared = pos.play(3)
    assert shared.seat_colors == (3, 6, 3, 1)
    assert shared.legal_colors()[3] == "opponent"
    after = pos.play(4)
    # the chain 10-13, then regions bordering A and its partner only (and A alone)
    assert after.territory(0) == {15, 10, 11, 12, 13, 2, 3, 7, 8, 9, 16, 17}
    assert after.owners()[5] is None  # borders B
    assert after.side_scores == (13, 2) and after.needed_to_win == 9
    assert after.is_over and after.winners == (0, 2)


def test_settling_gives_a_region_bordering_one_side_to_its_lowest_bordering_seat():
    # as read, nobody has taken these regions yet (FPN is taken as given):
    #   B # 1 # 2 C      2 8 13 14 border A only, 4 10 border C only
    #   # # 3 # 4 #
    #   A 5 5 # # D
    pos = Position.from_text("square 6x3 6 B#1#2C/##3#4#/A55##D 1,2,3,4 A t=AC/BD")
    assert pos.owners()[2] is None
    settled = pos.settled()
    assert settled.territory(0) == {12, 2, 8, 13, 14}
    assert settled.territory(2) == {5, 4, 10}
    # a region bordering both partners goes to the lower seat of the two...
    corridor = Position.from_text("square 5x3 6 B#11C/##2##/A33#D 1,2,3,4 A t=AC/BD")
    assert corridor.settled().territory(0) == {10, 11, 12, 7, 2, 3}
    # ...or to the partner who just moved, even with a move that takes nothing
    moved = Position.from_text("square 5x3 6 B#11C/##2##/A33#D 1,2,3,4 C t=AC/BD")
    assert moved.preview(5) == {2, 3, 7, 11, 12}
    assert moved.play(5).territory(2) == {4, 2, 3, 7, 11, 12}


def test_the_pie_rule_swap():
    from games.engine import VARIANTS

    fresh = VARIANTS["vinco"].new_position(seed=3)
    assert fresh.pie and not fresh.can_swap
    with pytest.raises(IllegalMove) as caught:
        fresh.play("swap")
    assert caught.value.reason == "swap"
    first = fresh.play(fresh.legal_moves()[0])
    assert first.can_swap and "swap" in first.legal_moves()
    assert first.to_text().endswith(" B pie=1")
    swapped = first.play("swap")
    assert swapped.territory(0) == first.territory(1)
    assert swapped.territory(1) == first.territory(0)
    assert swapped.seat_colors == first.seat_colors[::-1]
    assert swapped.to_move == 0 and not swapped.pie and not swapped.can_swap
    assert "pie" not in swapped.to_text()
    # answering with a colour also ends the pie rule
    answered = first.play(first.legal_moves()[0])
    assert not answered.pie and not answered.can_swap


def test_swap_from_notation():
    pos = Position.from_text("square 4x1 5 A12B 3,4 B pie=1")
    swapped = pos.play("swap")
    assert swapped.to_text() == "square 4x1 5 B12A 4,3 A"


def test_preview_is_what_play_gains_and_a_parsed_position_plays_the_same():
    from games.engine import VARIANTS

    for key in ("classic", "walls", "values", "pairs", "three"):
        pos = VARIANTS[key].new_position(seed=11)
        for _ in range(25):
            if pos.is_over:
                break
            mover = pos.to_move
            for colour in pos.legal_moves():
                after = pos.play(colour)
                assert pos.preview(colour) == after.territory(mover) - pos.territory(mover)
                # a position read from FPN settles every region before it moves
                assert Position.from_text(pos.to_text()).play(colour) == after
            pos = pos.play(max(pos.legal_moves(), key=lambda c: len(pos.preview(c))))
