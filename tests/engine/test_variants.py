"""The twelve variants (SPEC §2) and what their generator guarantees, over many seeds."""

import random

import pytest

from games.engine import VARIANTS, Position

SEEDS = range(100)
GENERATED = [key for key in VARIANTS if key != "practice"]


def test_the_twelve_variants_in_order():
    assert list(VARIANTS) == [
        "fast", "classic", "hex", "vinco", "rhombus", "big",
        "walls", "values", "three", "four", "pairs", "practice",
    ]  # fmt: skip
    names = [variant.name for variant in VARIANTS.values()]
    assert names[:3] == ["Fast 8×7", "Classic 15×15", "Hexagons 13×11"]
    assert names[5] == "Big board 21×21"
    rated = {key: v.rated_scale for key, v in VARIANTS.items() if v.rated_scale}
    assert rated == {
        "fast": "fast", "classic": "classic", "hex": "hex", "four": "four", "pairs": "pairs",
    }  # fmt: skip
    single = {key for key, v in VARIANTS.items() if v.format == "single"}
    assert single == {"vinco", "three", "practice"}
    assert {v.games for v in VARIANTS.values()} == {1, 2}
    assert all(v.games == (1 if v.format == "single" else 2) for v in VARIANTS.values())


@pytest.mark.parametrize(
    ("key", "shape", "size", "colors", "seats", "cells"),
    [
        ("fast", "square", (8, 7), 6, 2, 56),
        ("classic", "square", (15, 15), 7, 2, 225),
        ("hex", "hex", (13, 11), 7, 2, 143),
        ("vinco", "square", (15, 15), 7, 2, 225),
        ("rhombus", "rhombus", (11, 21), 7, 2, 231),
        ("big", "square", (21, 21), 7, 2, 441),
        ("walls", "square", (15, 15), 7, 2, 225),
        ("values", "square", (15, 15), 7, 2, 225),
        ("three", "hexagon", (8, 8), 8, 3, 169),
        ("four", "square", (16, 16), 8, 4, 256),
        ("pairs", "square", (16, 16), 8, 4, 256),
    ],
)
def test_variant_boards(key, shape, size, colors, seats, cells):
    variant = VARIANTS[key]
    assert (variant.shape, (variant.width, variant.height)) == (shape, size)
    assert (variant.colors, variant.seats, variant.cell_count) == (colors, seats, cells)
    pos = variant.new_position(seed=1)
    assert pos.board.size == cells and pos.colors == colors and pos.seats == seats
    assert pos.teams == (variant.teams or tuple((s,) for s in range(seats)))


def test_start_corners():
    # square 15x15: bottom-left is row 14, column 0
    assert VARIANTS["classic"].start_cells == (210, 14)
    assert VARIANTS["classic"].corners == ("bottom-left", "top-right")
    # rhombus: leftmost cell of the bottom row, rightmost of the top row
    assert VARIANTS["rhombus"].start_cells == (220, 10)
    assert VARIANTS["four"].start_cells == (240, 0, 15, 255)
    assert VARIANTS["four"].corners == ("bottom-left", "top-left", "top-right", "bottom-right")
    # hexagon of side 8: bottom-left corner, top-left corner, right corner (row 7's end:
    # rows 0-6 hold 8 + 9 + ... + 14 = 77 cells, row 7 holds 15)
    assert VARIANTS["three"].start_cells == (161, 0, 91)
    assert VARIANTS["three"].corners == ("bottom-left", "top-left", "right")
    assert VARIANTS["pairs"].teams == ((0, 2), (1, 3))


def test_practice_delegates_to_the_board_chosen():
    practice = VARIANTS["practice"]
    assert practice.boards == ("fast", "classic", "hex", "big", "rhombus")
    assert practice.new_position(4) == VARIANTS["fast"].new_position(4)
    assert practice.new_position(4, board="hex") == VARIANTS["hex"].new_position(4)
    with pytest.raises(ValueError, match="offers the boards"):
        practice.new_position(4, board="four")
    with pytest.raises(ValueError):
        VARIANTS["fast"].new_position(4, board="big")


def test_generation_is_deterministic_and_leaves_the_global_random_alone():
    random.seed(99)
    expected = random.random()
    random.seed(99)
    for key in GENERATED:
        assert VARIANTS[key].new_position(17) == VARIANTS[key].new_position(17)
        assert VARIANTS[key].new_position(17) != VARIANTS[key].new_position(18)
    assert random.random() == expected


def components(pos, cells):
    """Connected parts of ``cells`` along the board's neighbours (walls removed)."""
    cells, parts = set(cells), []
    while cells:
        part, todo = set(), [cells.pop()]
        while todo:
            cell = todo.pop()
            part.add(cell)
            for other in pos.board.neighbours[cell]:
                if other in cells:
                    cells.discard(other)
                    todo.append(other)
        parts.append(part)
    return parts


def mirror(pos, cell):
    return pos.board.size - 1 - cell


@pytest.mark.parametrize("key", GENERATED)
def test_generated_positions_keep_every_promise(key):
    variant = VARIANTS[key]
    for seed in SEEDS:
        pos = variant.new_position(seed)
        board = pos.board
        starts = variant.start_cells
        owners = pos.owners()
        assert pos.to_move == 0 and not pos.is_over and not pos.out
        assert pos.pie == variant.pie
        # every seat holds its start cell, with pairwise different colours
        assert [owners[cell] for cell in starts] == list(range(variant.seats))
        assert len(set(pos.seat_colors)) == variant.seats
        # start territories do not touch
        for seat in range(variant.seats):
            for cell in pos.territory(seat):
                assert all(owners[j] in (None, seat) for j in board.neighbours[cell])
        # no obstacle or special cell on a start, no region dead or cut off
        assert not set(starts) & (board.obstacles | board.paint)
        assert all(board.values[cell] == 1 for cell in starts)
        playable = set(range(board.size)) - board.obstacles
        assert len(components(pos, playable)) == 1
        assert pos.dead == frozenset()
        # enclosure applied: every free region borders at least two sides
        free = [cell for cell in playable if owners[cell] is None]
        for region in components(pos, free):
            bordering = {
                pos.side_of(owners[j])
                for cell in region
                for j in board.neighbours[cell]
                if owners[j] is not None
            }
            assert len(bordering) >= 2
        # the territory of a seat is where it started plus same-coloured cells and
        # regions it enclosed: the position shows its colour on all of them
        colours = pos.cell_colors()
        for seat, colour in enumerate(pos.seat_colors):
            assert all(colours[cell] == colour for cell in pos.territory(seat))
        assert all(1 <= colours[cell] <= variant.colors for cell in free if cell not in board.paint)


def test_vinco_colours_are_point_symmetric_up_to_the_start_colours():
    for seed in SEEDS:
        pos = VARIANTS["vinco"].new_position(seed)
        a, b = pos.seat_colors
        exchange = {a: b, b: a}
        text_cells = Position.from_text(pos.to_text()).cell_colors()
        owners = pos.owners()
        centre = pos.board.size // 2
        assert text_cells[centre] not in (a, b)
        for cell in range(pos.board.size):
            if owners[cell] is None and owners[mirror(pos, cell)] is None:
                assert text_cells[mirror(pos, cell)] == exchange.get(
                    text_cells[cell], text_cells[cell]
                )
            # territories mirror each other as well
            if owners[cell] is not None:
                assert owners[mirror(pos, cell)] == 1 - owners[cell]


def test_obstacles_and_walls_are_point_symmetric():
    for seed in SEEDS:
        board = VARIANTS["walls"].new_position(seed).board
        assert len(board.obstacles) == 18  # 8 % of 225
        assert len(board.walls) == 30
        assert {board.size - 1 - cell for cell in board.obstacles} == board.obstacles
        mirrored = {tuple(sorted((board.size - 1 - i, board.size - 1 - j))) for i, j in board.walls}
        assert mirrored == board.walls
        starts = VARIANTS["walls"].start_cells
        assert not any(i in starts or j in starts for i, j in board.walls)


def test_valuable_and_paint_cells_are_point_symmetric():
    for seed in SEEDS:
        board = VARIANTS["values"].new_position(seed).board
        values = board.values
        assert values.count(2) == 18 and values.count(3) == 6  # 8 % and 3 % of 225
        assert len(board.paint) == 6
        assert all(values[cell] == values[board.size - 1 - cell] for cell in range(board.size))
        assert {board.size - 1 - cell for cell in board.paint} == board.paint


def test_start_territories_that_would_touch_are_re_drawn():
    from games.engine import Variant

    # on a 4x1 board with 3 colours the start territories often meet in the middle
    tiny = Variant("tiny", "Tiny", "square", 4, 1, 3, 2)
    mirrored = Variant("tiny-vinco", "Tiny Vinco", "square", 4, 1, 3, 2, mirror=True)
    for variant in (tiny, mirrored):
        for seed in range(60):
            pos = variant.new_position(seed)
            a, b = pos.territory(0), pos.territory(1)
            assert 0 in a and 3 in b
            assert not any(j in b for cell in a for j in pos.board.neighbours[cell])
            if variant.mirror:
                colours = Position.from_text(pos.to_text()).cell_colors()
                exchange = {pos.seat_colors[0]: pos.seat_colors[1]}
                exchange.update({v: k for k, v in exchange.items()})
                free = [cell for cell in (1, 2) if pos.owners()[cell] is None]
                if len(free) == 2:
                    assert colours[2] == exchange.get(colours[1], colours[1])
