"""Boards and topologies (SPEC §5): neighbours checked by hand, walls, bit masks."""

import pytest

from games.engine import Board
from games.engine.topology import SHAPES, grid


def neighbours(shape, width, height, cell, **definition):
    return Board.get(shape, width, height, **definition).neighbours[cell]


def test_square_neighbours_at_corner_edge_and_middle():
    # 4x3: row 0 is cells 0-3, row 1 is 4-7, row 2 is 8-11
    assert neighbours("square", 4, 3, 0) == (1, 4)
    assert neighbours("square", 4, 3, 7) == (3, 6, 11)
    assert neighbours("square", 4, 3, 5) == (1, 4, 6, 9)


def test_hex_neighbours_depend_on_row_parity():
    # hex 4x3, odd rows shifted right by half a cell
    # (1, 1) odd row: same row (1, 0) (1, 2); above and below (r±1, 1) and (r±1, 2)
    assert neighbours("hex", 4, 3, 5) == (1, 2, 4, 6, 9, 10)
    # (2, 1) even row: same row, and (1, 0) (1, 1) above
    assert neighbours("hex", 4, 3, 9) == (4, 5, 8, 10)
    # (0, 0): (0, 1) and only (1, 0) below
    assert neighbours("hex", 4, 3, 0) == (1, 4)
    # (1, 3) odd row at the right edge: (0, 3), (1, 2), (2, 3)
    assert neighbours("hex", 4, 3, 7) == (3, 6, 11)


def test_rhombus_has_four_diagonal_neighbours_and_none_in_its_row():
    # rhombus 3x3: (1, 0) odd row touches (0, 0) (0, 1) (2, 0) (2, 1)
    assert neighbours("rhombus", 3, 3, 3) == (0, 1, 6, 7)
    assert neighbours("rhombus", 3, 3, 4) == (1, 2, 7, 8)
    # (0, 0): only (1, 0) below, not (0, 1) beside it
    assert neighbours("rhombus", 3, 3, 0) == (3,)
    # (2, 1) even row: (1, 0) and (1, 1) above
    assert neighbours("rhombus", 3, 3, 7) == (3, 4)


def test_hexagon_rows_and_neighbours():
    board = Board.get("hexagon", 3, 3)
    assert board.row_lengths == (3, 4, 5, 4, 3)
    assert board.size == 19
    # middle (2, 2): (2, 1) (2, 3), above (1, 1) (1, 2), below (3, 1) (3, 2)
    assert board.neighbours[9] == (4, 5, 8, 10, 13, 14)
    # top-left corner (0, 0): (0, 1), below (1, 0) (1, 1)
    assert board.neighbours[0] == (1, 3, 4)
    # left corner (2, 0) and right corner (2, 4) have three neighbours
    assert board.neighbours[7] == (3, 8, 12)
    assert board.neighbours[11] == (6, 10, 15)
    # lower half (3, 0): above (2, 0) (2, 1), below (4, 0)
    assert board.neighbours[12] == (7, 8, 13, 16)
    assert board.neighbours[16] == (12, 13, 17)
    assert Board.get("hexagon", 8, 8).size == 169


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("size", [(2, 2), (3, 5), (7, 4), (13, 11)])
def test_neighbour_relation_is_symmetric_and_irreflexive(shape, size):
    width, height = (size[0], size[0]) if shape == "hexagon" else size
    shape_grid = grid(shape, width, height)
    for cell, around in enumerate(shape_grid.neighbours):
        assert cell not in around
        for other in around:
            assert cell in shape_grid.neighbours[other]


def test_coords_are_row_major_from_the_top_left():
    board = Board.get("hexagon", 2, 2)
    assert board.coords == ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1))
    assert Board.get("square", 3, 2).coords[4] == (1, 1)


def test_a_wall_removes_the_adjacency_both_ways():
    board = Board.get("square", 3, 2, walls=[(4, 1)])
    assert board.walls == frozenset({(1, 4)})
    assert 4 not in board.neighbours[1] and 1 not in board.neighbours[4]
    assert board.neighbours[4] == (3, 5)
    with pytest.raises(ValueError, match="not neighbours"):
        Board.get("square", 3, 2, walls=[(0, 4)])


def test_board_data():
    board = Board.get("square", 3, 2, obstacles=[2], paint=[3], values={4: 3, 5: 2})
    assert board.values == (1, 1, 1, 1, 3, 2)
    assert board.obstacles == frozenset({2}) and board.paint == frozenset({3})
    # obstacles never count: 5 cells worth 1 + 1 + 1 + 3 + 2
    assert board.total_value == 8
    assert board.value_of(board.mask_of([0, 4])) == 4


def test_boards_are_cached_by_definition_and_hashable():
    a = Board.get("square", 5, 5, walls=[(0, 1)], values={3: 2})
    b = Board.get("square", 5, 5, walls=[(1, 0)], values={3: 2, 4: 1})
    assert a is b
    assert a != Board.get("square", 5, 5)
    assert len({a, b, Board.get("square", 5, 5)}) == 2
    with pytest.raises(AttributeError):
        a.width = 3


@pytest.mark.parametrize(
    "definition",
    [
        ("square", 15, 15, {}),
        ("hex", 13, 11, {}),
        ("rhombus", 11, 21, {}),
        ("hexagon", 8, 8, {}),
        ("square", 6, 5, {"obstacles": [7, 14], "walls": [(0, 1), (8, 9), (20, 26)]}),
        ("hex", 5, 4, {"obstacles": [6], "walls": [(1, 6), (7, 12)]}),
    ],
)
def test_bitboard_step_matches_the_neighbour_lists(definition):
    shape, width, height, extra = definition
    board = Board.get(shape, width, height, **extra)
    for cell in range(board.size):
        if cell in board.obstacles:
            continue
        expected = {j for j in board.neighbours[cell] if j not in board.obstacles}
        assert board.cells_of(board.spread(board.mask_of([cell]))) == expected


def test_fill_and_reach():
    board = Board.get("square", 4, 1, walls=[(1, 2)])
    everything = board.playable
    assert board.cells_of(board.fill(board.mask_of([0]), everything)) == {0, 1}
    cells, touched = board.reach(board.mask_of([3]), everything, board.mask_of([2]))
    assert touched and 3 in board.cells_of(cells)
    cells, touched = board.reach(board.mask_of([0]), everything, board.mask_of([3]))
    assert not touched and board.cells_of(cells) == {0, 1}
