"""The exact endings of SPEC §13 against a plain exhaustive search with the same
repetition rule, on a few hundred small two-seat endings (random boards of 9 to 20
cells, 4 or 5 colours, played at random to at most 12 live cells).

The plain search follows every line until the game ends or a position repeats; it is
exponential, so positions it cannot finish within its budget are left out, and the test
requires that at least 300 were compared. Both the value of the position and the value
of the line that starts with the solver's best colour must agree with it."""

import random

import pytest

from games.engine import Position
from games.engine.endgame import LIMIT, Endgame, TooLong, live_cells, plain_value, solvable

pytestmark = pytest.mark.differential

SHAPES = [(4, 3, 4), (4, 3, 5), (3, 3, 4), (4, 4, 4), (5, 3, 4), (4, 4, 5), (5, 4, 5)]


def random_start(rng: random.Random, width: int, height: int, colours: int) -> Position:
    cells = [rng.randint(1, colours) for _ in range(width * height)]
    a, b = (height - 1) * width, width - 1
    while cells[b] == cells[a]:
        cells[b] = rng.randint(1, colours)
    text = "".join("A" if i == a else "B" if i == b else str(c) for i, c in enumerate(cells))
    rows = "/".join(text[r * width : (r + 1) * width] for r in range(height))
    return Position.from_text(
        f"square {width}x{height} {colours} {rows} {cells[a]},{cells[b]} A"
    ).settled()


def endings(count: int, seed: int = 1):
    rng = random.Random(seed)
    while True:
        position = random_start(rng, *rng.choice(SHAPES))
        while not position.is_over and rng.random() < 0.7:
            position = position.play(rng.choice(position.legal_moves()))
        if solvable(position):
            yield position


def test_the_solver_agrees_with_the_plain_search():
    compared, sizes = 0, set()
    for position in endings(2000):
        values = Endgame().values(position)
        best = max(values, key=values.get)
        try:
            plain = plain_value(position, budget=20_000)
            line = plain_value(position, first=best, budget=20_000)
        except TooLong:
            continue
        assert max(values.values()) == plain, position.to_text()
        assert line == plain, position.to_text()
        assert set(values.values()) <= {0, 50, 100}
        compared += 1
        sizes.add(live_cells(position))
        if compared == 300:
            break
    assert compared == 300
    assert max(sizes) >= 10  # the comparison reaches the larger endings too


def test_a_repetition_ends_with_the_scores_as_they_stand():
    # worked by hand: after A's 3, whatever B plays, A's 2 takes the 2 and encloses the 1
    # (5 of 8 cells); A's 4 takes nothing, and B then holds a draw
    position = Position.from_text("square 4x2 4 12BB/AA34 1,2 A")
    assert Endgame().values(position) == {3: 100, 4: 50}
    assert plain_value(position) == 100


def test_only_two_seat_games_past_the_swap_with_few_live_cells_are_solved():
    assert LIMIT == 12
    position = Position.from_text("square 4x2 4 12BB/AA34 1,2 A")
    assert live_cells(position) == 4
    assert solvable(position)
    assert not solvable(position, limit=3)
    over = Position.from_text("square 4x2 4 AABB/AAA4 1,2 B")
    assert over.is_over
    with pytest.raises(ValueError):
        Endgame().values(over)
