"""Seats that are out, conceding, game 2's rotation, rankings and the figures shown."""

import pytest

from games.engine import IllegalMove, Position, SideFigures

# four seats, each for itself; walls 1|5, 4|5 and 8|9:
#   B 1 # C
#   2|3 4 5       cell 1 touches only B; cells 4 and 8 touch only B and A
#   5|4 3 2
#   A 1 2 D
FOUR = "square 4x4 7 B1#C/2345/5432/A12D 6,7,1,3 B w=1-5,4-5,8-9"

# hexagon of side 2, three seats at alternate corners; cells 1 2 3 6 form one region
THREE = "hexagon 2x2 4 B1/23C/A1 4,2,3 A"


def test_a_seat_goes_out():
    pos = Position.from_text(FOUR)
    assert pos.legal_colors(seat=2)[7] == "opponent"
    out = pos.with_out(1)
    assert out.out == (1,)
    # B was to move: the turn passes to C
    assert out.to_move == 2
    # its cells stay its own and count for it, its potential is its score
    assert out.territory(1) == {0} and out.scores[1] == 1 and out.potentials[1] == 1
    # its colour is free for everyone
    assert out.legal_colors()[7] is None
    # cell 1 borders B only: it is dead now; 4 and 8 border only A among active seats
    assert out.dead == {1}
    assert out.territory(0) == {12, 4, 8}
    assert out.countable == 14
    assert not out.is_over
    assert out.to_text() == "square 4x4 7 B1#C/A345/A432/A12D 6,7,1,3 C w=1-5,4-5,8-9 out=B"
    assert Position.from_text(out.to_text()) == out


def test_the_last_active_side_takes_every_region_it_borders_and_wins():
    pos = Position.from_text(THREE)
    one_out = pos.with_out(1)
    assert not one_out.is_over and one_out.to_move == 0
    assert one_out.ranking() == ((0, 2), (1,))
    last = one_out.with_out(2)
    assert last.territory(0) == {5, 1, 2, 3, 6}
    assert last.is_over and last.winners == (0,)
    # C went out after B, so C ranks above B
    assert last.ranking() == ((0,), (2,), (1,))
    assert last.to_text() == "hexagon 2x2 4 BA/AAC/AA 4,2,3 A out=BC"


def test_out_seats_do_not_hold_up_a_decided_game():
    # B is out with 9 cells; A and C have 2 each and share the 3 free cells
    pos = Position.from_text("square 4x4 6 BBBB/BBBB/B331/AACC 4,5,6 A out=B")
    assert pos.scores == (2, 9, 2)
    assert pos.side_potentials == (5, 9, 5)
    after = pos.play(3)
    # A's 4 is more than C can reach (3): decided, with a cell left and B holding more
    assert after.scores == (4, 9, 2) and after.side_potentials == (5, 9, 3)
    assert after.is_over and after.winners == (0,)
    assert after.owners()[11] is None
    assert after.ranking() == ((0,), (2,), (1,))


def test_out_seats_do_not_win_a_full_board():
    pos = Position.from_text("square 4x4 6 BBBB/BBBB/B312/AACC 4,5,6 A out=B")
    after = pos.play(3)
    assert after.scores == (3, 9, 2) and not after.is_over
    # C takes the 1, and the 2 next to it borders C alone among active seats
    end = after.play(1)
    assert end.scores == (3, 9, 4)
    assert end.is_over and end.winners == (2,)
    assert end.ranking() == ((2,), (0,), (1,))


def test_going_out_is_for_three_or_four_sides_only():
    with pytest.raises(ValueError, match="concede"):
        Position.from_text("square 4x1 4 A12B 3,4 A").with_out(0)
    pos = Position.from_text(THREE).with_out(1)
    with pytest.raises(ValueError, match="already out"):
        pos.with_out(1)
    with pytest.raises(ValueError, match="not a seat"):
        pos.with_out(3)


def test_conceding_credits_the_other_side_whatever_the_score():
    pos = Position.from_text("square 4x1 4 AA1B 3,4 A")
    assert not pos.is_over
    conceded = pos.concede(0)
    assert conceded.scores == (2, 2)
    assert conceded.is_over and conceded.winners == (1,)
    assert conceded.resigned == (0,)
    assert conceded.ranking() == ((1,), (0,))
    assert conceded.to_text() == "square 4x1 4 AABB 3,4 A r=A"
    assert Position.from_text(conceded.to_text()).winners == (1,)
    with pytest.raises(IllegalMove) as caught:
        conceded.play(2)
    assert caught.value.reason == "game_over"
    with pytest.raises(IllegalMove):
        conceded.concede(1)


def test_conceding_leaves_dead_cells_free():
    pos = Position.from_text("square 4x3 5 1#2B/##31/A321 4,5 A")
    conceded = pos.concede(0)
    assert conceded.territory(1) == {2, 3, 6, 7, 9, 10, 11}
    assert conceded.dead == {0} and conceded.owners()[0] is None


def test_a_team_concedes_in_pairs():
    pos = Position.from_text("square 5x4 6 B#31C/3#332/4444#/A21#D 5,6,3,1 A t=AC/BD")
    conceded = pos.concede(2)
    assert conceded.resigned == (0, 2)
    assert conceded.winners == (1, 3)
    assert conceded.ranking() == ((1, 3), (0, 2))
    # D is walled in, so B borders or is given every region
    assert conceded.territory(1) == {0, 2, 3, 5, 7, 8, 9, 10, 11, 12, 13, 16, 17}
    assert conceded.to_text().endswith(" A t=AC/BD r=AC")


def test_conceding_gives_each_region_to_the_lowest_bordering_seat_of_the_other_side():
    #   B 1 2 C      regions: 1 2 (B, C), 4 8 (B, A), 7 11 (C, D), 13 14 (A, D)
    #   3 # # 4
    #   5 # # 6
    #   A 1 2 D
    pos = Position.from_text("square 4x4 7 B12C/3##4/5##6/A12D 1,2,3,7 A t=AC/BD")
    conceded = pos.concede(0)
    assert conceded.territory(1) == {0, 1, 2, 4, 8}
    assert conceded.territory(3) == {15, 7, 11, 13, 14}
    # a region bordering none of the winners (here C only, as read) goes to their first seat
    lonely = Position.from_text("square 4x4 7 B12C/3##4/5###/A12D 1,2,3,7 A t=AC/BD")
    assert lonely.owners()[7] is None
    assert lonely.concede(0).owners()[7] == 1


def test_conceding_with_three_sides_is_going_out():
    pos = Position.from_text(THREE)
    assert pos.concede(1) == pos.with_out(1)


def test_seats_permuted_for_game_two():
    pos = Position.from_text("square 5x3 6 1234B/33332/A4121 5,6 A")
    rotated = pos.with_seats_permuted([1, 0], to_move=1)
    assert rotated.to_text() == "square 5x3 6 1234A/33332/B4121 6,5 B"
    assert rotated.teams == pos.teams
    pairs = Position.from_text("square 5x4 6 B#31C/3#332/4444#/A21#D 5,6,3,1 A t=AC/BD")
    # each seat one corner clockwise (A to the top-left, ...), D now bottom-left
    clockwise = pairs.with_seats_permuted([3, 0, 1, 2], to_move=3)
    assert clockwise.to_text() == "square 5x4 6 A#31B/3#332/4444#/D21#C 6,3,1,5 D t=AC/BD"
    with pytest.raises(ValueError, match="permutation"):
        pos.with_seats_permuted([0, 0], to_move=0)


def test_side_figures_with_two_sides():
    after = Position.from_text("square 4x1 4 A12B 3,4 A").play(1)
    assert after.side_figures() == (
        SideFigures(seats=(0,), score=2, potential=3, to_equator=1, lead=1),
        SideFigures(seats=(1,), score=1, potential=2, to_equator=2, lead=-1),
    )
    pairs = Position.from_text("square 5x4 6 B#31C/3#332/4444#/A21#D 5,6,3,1 A t=AC/BD")
    assert pairs.side_scores == (2, 2) and pairs.needed_to_win == 9
    assert [f.seats for f in pairs.side_figures()] == [(0, 2), (1, 3)]
    assert pairs.side_figures()[0].to_equator == 7


def test_side_figures_with_three_sides_have_no_equator():
    pos = Position.from_text(THREE)
    assert pos.needed_to_win is None
    figures = pos.side_figures()
    assert [f.to_equator for f in figures] == [None, None, None]
    assert [f.potential for f in figures] == [5, 5, 5]
    assert [f.lead for f in figures] == [0, 0, 0]
