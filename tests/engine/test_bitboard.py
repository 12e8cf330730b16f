"""The bitboard core of the search (``games.engine.bots.bitboard``) against ``Position``:
on every position of random games of each two-seat variant, and of bare FPN boards that
belong to no variant, every legal colour gains the same cells, leads to the same
territories, colours and seat to move, and the end, scores and winners agree."""

import random
from collections import Counter

import pytest

from games.engine import VARIANTS, Position
from games.engine.bots import bitboard
from games.engine.bots.bitboard import Game, state_of

TWO_SEATS = ["fast", "classic", "hex", "rhombus", "big", "walls", "values", "vinco"]
GAMES = {"fast": 40, "classic": 12, "hex": 12, "rhombus": 12, "big": 6, "walls": 12}
GAMES |= {"values": 12, "vinco": 12}


def agree(pos: Position, tally: Counter) -> None:
    """Every legal colour of ``pos`` through the core and through ``Position``."""
    game, state = Game.of(pos), state_of(pos)
    cells = pos.board.cells_of
    assert bitboard.moves(game, state) == [c for c in pos.legal_moves() if c != "swap"]
    assert game.scores(state) == pos.scores
    assert bitboard.over(game, state) == pos.is_over
    for colour in bitboard.moves(game, state):
        gained = bitboard.gain(game, state, colour)
        assert cells(gained) == pos.preview(colour), (pos.to_text(), colour)
        after = pos.play(colour)
        child = bitboard.play(game, state, colour)
        assert child == state_of(after), (pos.to_text(), colour)
        assert game.scores(child) == after.scores
        assert bitboard.over(game, child) == after.is_over, (pos.to_text(), colour)
        if after.is_over:
            winners = after.winners
            expected = 0 if len(winners) == 2 else 1 if winners == (0,) else -1
            assert bitboard.outcome(game, child) == expected
            tally["ends"] += 1
        chained = bitboard.chain(game, state, colour)
        assert chained & ~gained == 0
        if chained != gained:
            tally["enclosures"] += 1
        tally["moves"] += 1
    tally["positions"] += 1


def play_out(pos: Position, rng: random.Random, tally: Counter) -> None:
    """A game to its end, half greedy, half random, checking every position."""
    while not pos.is_over:
        if pos.can_swap:
            pos = pos.play("swap") if rng.random() < 0.5 else pos.play(pos.legal_moves()[0])
            tally["swaps"] += 1
            continue
        agree(pos, tally)
        # every other position also as a bare FPN line (a position read from text)
        if rng.random() < 0.2:
            agree(Position.from_text(pos.to_text()), tally)
        legal = [c for c in pos.legal_moves() if c != "swap"]
        if rng.random() < 0.5:
            move = max(legal, key=lambda c: (len(pos.preview(c)), rng.random()))
        else:
            move = rng.choice(legal)
        pos = pos.play(move)


@pytest.mark.parametrize("key", TWO_SEATS)
def test_the_core_agrees_with_position(key):
    tally = Counter()
    rng = random.Random(key)
    for seed in range(GAMES[key]):
        play_out(VARIANTS[key].new_position(seed), rng, tally)
    assert tally["positions"] >= 250
    assert tally["enclosures"] > 0
    assert tally["ends"] > 0


def no_equal_neighbours(rng: random.Random, width: int = 8, height: int = 7) -> Position:
    """A bare FPN 8x7 board with six colours where no two orthogonal neighbours share a
    colour (the board of no variant), A bottom-left, B top-right."""
    rows = []
    for r in range(height):
        row = []
        for c in range(width):
            banned = {row[c - 1] if c else 0, rows[r - 1][c] if r else 0}
            row.append(rng.choice([k for k in range(1, 7) if k not in banned]))
        rows.append(row)
    a, b = rows[-1][0], rows[0][-1]
    if a == b:
        return no_equal_neighbours(rng, width, height)
    rows[-1][0], rows[0][-1] = "A", "B"
    cells = "/".join("".join(map(str, row)) for row in rows)
    return Position.from_text(f"square {width}x{height} 6 {cells} {a},{b} A")


def test_the_core_agrees_on_bare_boards_of_no_variant():
    tally = Counter()
    rng = random.Random("bare")
    for _ in range(40):
        play_out(no_equal_neighbours(rng), rng, tally)
    assert tally["positions"] >= 1000
    assert tally["ends"] > 0


def test_the_core_sees_walls_obstacles_paint_and_values():
    pos = VARIANTS["walls"].new_position(3)
    assert pos.board.walls and pos.board.obstacles
    pos = VARIANTS["values"].new_position(3)
    assert pos.board.paint and max(pos.board.values) > 1


def test_a_disagreement_would_be_seen():
    # the core fed the wrong seat to move gains other cells than Position says
    pos = VARIANTS["fast"].new_position(1)
    game, (a, b, ca, cb, mover) = Game.of(pos), state_of(pos)
    wrong = (a, b, ca, cb, 1 - mover)
    colour = next(c for c in bitboard.moves(game, wrong) if bitboard.gain(game, wrong, c) != 0)
    assert pos.board.cells_of(bitboard.gain(game, wrong, colour)) != pos.preview(colour)


def test_only_two_seat_games():
    with pytest.raises(ValueError):
        Game.of(VARIANTS["four"].new_position(1))
