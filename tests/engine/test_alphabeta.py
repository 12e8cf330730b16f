"""Level 4's two-seat search (``games.engine.bots.alphabeta``): it plays the exact best
colour where the endgame solver of the analysis knows it, it is the same for the same
seed and budget, and it plays bare FPN positions of boards that belong to no variant."""

from games.engine import VARIANTS, Position
from games.engine.bots import choose, decide
from games.engine.endgame import Endgame, solvable
from games.engine.variants import Variant

TINY = Variant("tiny", "Tiny", "square", 6, 5, 5, 2)


def endings(count: int):
    """Positions of heuristic games (level 3) once they have at most 10 live cells,
    where the solver tells the colours apart."""
    for seed in range(count):
        position = VARIANTS["fast"].new_position(seed) if seed % 2 else TINY.new_position(seed)
        ply = 0
        while not position.is_over and not solvable(position, 10):
            position = position.play(choose(position, 3, seed=ply))
            ply += 1
        if position.is_over:
            continue
        values = Endgame().values(position)
        if max(values.values()) != min(values.values()):
            yield position, values


def test_level_4_plays_the_exact_best_colour_near_the_end():
    checked = 0
    for position, values in endings(160):
        colour = choose(position, 4, seed=0)
        assert values[colour] == max(values.values()), (position.to_text(), values, colour)
        checked += 1
    assert checked >= 20
    # the same check would catch a level 4 that played like greedy
    misses = sum(
        values[choose(position, 2, seed=0)] != max(values.values())
        for position, values in endings(160)
    )
    assert misses >= 1


def test_the_same_seed_and_budget_give_the_same_decision():
    position = VARIANTS["classic"].new_position(5)
    for ply in range(6):
        position = position.play(choose(position, 2, seed=ply))
    first = decide(position, 4, seed=3, nodes=3000)
    assert decide(position, 4, seed=3, nodes=3000) == first
    assert first.nodes == 3000 and first.depth >= 3


def test_a_bare_8x7_board_of_no_variant_is_played_to_its_end():
    position = Position.from_text(
        "square 8x7 6 2142515B/6513253B/34314625/16162543/51353425/15632346/A1456162 2,1 A"
    )
    ply = 0
    while not position.is_over:
        colour = choose(position, 4, seed=ply, nodes=2000)
        assert position.legal_colors()[colour] is None
        position = position.play(colour)
        ply += 1
    assert sum(position.scores) > position.needed_to_win
