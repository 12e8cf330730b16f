"""FPN (SPEC §5 plus the ``out`` and ``r`` extensions): round trips and malformed fields."""

import pytest

from games.engine import VARIANTS, Position

CANONICAL = [
    "square 4x3 6 124B/3312/A621 5,6 A",  # SPEC §5's example
    "hex 3x2 4 12B/A13 3,4 B",
    "rhombus 3x3 4 11B/212/A12 3,4 A",
    "hexagon 2x2 4 B1/23C/A1 4,2,3 C",
    "square 5x2 6 1*22B/A*3*1 4,5 A v=2:3,7:2,9:2 w=0-5,3-4",
    "square 5x4 6 B#31C/3#332/4444#/A21#D 5,6,3,1 D t=AC/BD",
    "square 4x1 5 A12B 3,4 B pie=1",
    "square 4x4 7 B1#C/2345/5432/A12D 6,7,1,3 C w=1-5,4-5,8-9 out=DB",
    "square 4x1 4 AABB 3,4 A r=A",
    "square 5x4 6 B#31C/3#332/4444#/A21#D 5,6,3,1 A t=AC/BD r=BD",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_strings_round_trip_exactly(text):
    pos = Position.from_text(text)
    assert pos.to_text() == text
    assert repr(pos) == f"Position.from_text({text!r})"
    assert eval(repr(pos)) == pos
    assert hash(Position.from_text(text)) == hash(pos)


def test_every_variant_round_trips_through_a_game():
    for key, variant in VARIANTS.items():
        pos = variant.new_position(seed=5)
        for _ in range(12):
            text = pos.to_text()
            assert Position.from_text(text).to_text() == text, key
            if pos.is_over:
                break
            pos = pos.play(pos.legal_moves()[-1])


def test_optional_fields_are_written_in_canonical_order():
    pos = Position.from_text("square 4x1 5 A12B 3,4 B pie=1 w=2-1 v=2:3,1:2")
    assert pos.to_text() == "square 4x1 5 A12B 3,4 B v=1:2,2:3 w=1-2 pie=1"


def test_parsed_positions_are_taken_as_given():
    # the 1 at the left borders A only, yet reading does not hand it over
    pos = Position.from_text("square 4x1 4 1A2B 3,4 A")
    assert pos.owners()[0] is None
    assert pos.to_text() == "square 4x1 4 1A2B 3,4 A"


def test_fields_of_the_position():
    pos = Position.from_text("square 5x4 6 B#31C/3#332/4444#/A21#D 5,6,3,1 D t=AC/BD")
    assert pos.board.shape == "square" and (pos.board.width, pos.board.height) == (5, 4)
    assert pos.colors == 6 and pos.seats == 4
    assert pos.seat_colors == (5, 6, 3, 1) and pos.to_move == 3
    assert pos.teams == ((0, 2), (1, 3)) and pos.sides == pos.teams
    assert pos.board.obstacles == {1, 6, 14, 18}


MALFORMED = [
    ("square 4x3 6 124B/3312 5,6", "FPN needs"),
    ("circle 4x3 6 124B/3312/A621 5,6 A", "shape: 'circle'"),
    ("square 4by3 6 124B/3312/A621 5,6 A", "size: '4by3'"),
    ("square 0x3 6 124B/3312/A621 5,6 A", "size: 0x3"),
    ("hexagon 3x2 6 12B/3312/A621 5,6 A", "size: a hexagon board"),
    ("square 4x3 x 124B/3312/A621 5,6 A", "colours: 'x' is not a number"),
    ("square 4x3 12 124B/3312/A621 5,6 A", "colours: 12 is outside 2-9"),
    ("square 4x3 2 12AB/1212/A121 1,2 A", "colours: 2 seats need at least 3 colours"),
    ("square 4x3 6 124B/3312 5,6 A", "cells: 2 rows, expected 3"),
    ("square 8x3 6 1111111B/1111111/A1111111 5,6 A", "cells: row 2 has 7 cells, expected 8"),
    ("square 4x3 6 124B/3x12/A621 5,6 A", "cells: row 2, column 2: 'x' is not a cell"),
    ("square 4x3 6 124B/3712/A621 5,6 A", "cells: row 2, column 2: colour 7 is outside"),
    ("square 4x3 6 124B/3C12/A621 5,6 A", "cells: row 2, column 2: seat C is not one"),
    ("square 4x3 6 1241/3312/A621 5,6 A", "cells: seat B owns no cell"),
    ("square 4x3 6 124B/3312/A621 5 A", "seat colours: 2 to 4 seats, got 1"),
    ("square 4x3 6 124B/3312/A621 5,9 A", "seat colours: 9 is outside 1-6"),
    ("square 4x3 6 124B/3312/A621 5,5 A", "seat colours: A and B are opponents"),
    ("square 4x3 6 124B/3312/A621 5,6 C", "to move: 'C' is not a seat letter"),
    ("square 4x3 6 124B/3312/A621 5,6 a", "to move: 'a'"),
    ("square 4x3 6 124B/3312/A621 5,6 A x=1", "'x=1' is not an optional field"),
    ("square 4x3 6 124B/3312/A621 5,6 A pie", "'pie' is not an optional field"),
    ("square 4x3 6 124B/3312/A621 5,6 A v=1:2 v=2:2", "v: given twice"),
    ("square 4x3 6 124B/3312/A621 5,6 A v=1", "v: '1' is not <cell>:<value>"),
    ("square 4x3 6 124B/3312/A621 5,6 A v=12:2", "v: cell 12 is not on the board"),
    ("square 4x3 6 124B/3312/A621 5,6 A v=1:4", "v: cell 1 has value 4"),
    ("square 4x3 6 124B/33#2/A621 5,6 A v=6:2", "v: cell 6 is an obstacle"),
    ("square 4x3 6 124B/3312/A621 5,6 A v=1:2,1:3", "v: cell 1 given twice"),
    ("square 4x3 6 124B/3312/A621 5,6 A w=0-5", "w: cells 0 and 5 are not neighbours"),
    ("square 4x3 6 124B/3312/A621 5,6 A w=0+1", "w: '0+1' is not <cell>-<cell>"),
    ("square 4x3 6 124B/3312/A621 5,6 A w=0-1,1-0", "w: wall 0-1 given twice"),
    ("square 4x3 6 124B/3312/A621 5,6 A t=A/B", "t: teams need four seats"),
    ("square 4x4 6 B12C/1212/2121/A12D 1,2,3,4 A t=AB/C", "t: 'AB/C' does not split"),
    ("square 4x3 6 124B/3312/A621 5,6 A pie=2", "pie: the only value is 1"),
    ("hexagon 2x2 4 B1/23C/A1 4,2,3 A pie=1", "pie: the pie rule is for two seats"),
    ("hexagon 2x2 4 B1/23C/A1 4,2,3 A out=E", "out: 'E' is not a list of seat letters"),
    ("hexagon 2x2 4 B1/23C/A1 4,2,3 A out=BB", "out: a seat is named twice"),
    ("hexagon 2x2 4 B1/23C/A1 4,2,3 A out=ABC", "out: at least one seat stays"),
    ("hexagon 2x2 4 B1/23C/A1 4,2,3 A out=A", "to move: A is out"),
    ("square 4x3 6 124B/3312/A621 5,6 A out=B", "out: only three or four seats"),
    ("square 4x3 6 124B/3312/A621 5,6 A r=C", "r: 'C' is not a list of seat letters"),
    ("hexagon 2x2 4 B1/23C/A1 4,2,3 A r=B", "r: only a two-side game is conceded"),
    ("square 4x4 6 B12C/1212/2121/A12D 1,2,3,4 A t=AC/BD r=AB", "r: AB is not a side"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_malformed_fields_are_named(text, message):
    with pytest.raises(ValueError) as caught:
        Position.from_text(text)
    assert str(caught.value).startswith(message), str(caught.value)


def test_not_a_string():
    with pytest.raises(ValueError, match="FPN is a string"):
        Position.from_text(None)


def test_positions_pickle_as_their_notation():
    import copy
    import pickle

    pos = VARIANTS["values"].new_position(seed=3)
    pos = pos.play(pos.legal_moves()[0])
    assert pickle.loads(pickle.dumps(pos)) == pos
    assert copy.deepcopy(pos) == pos
    assert pickle.loads(pickle.dumps(pos.board)) is pos.board
