"""The analysis' pure parts (SPEC §13): judgements and accuracy by the spec's thresholds
and formula, the win-chance model, and verdicts that value every legal move."""

import math
from itertools import pairwise

import pytest

from games.engine import VARIANTS, Position
from games.engine.analysis import (
    WinModel,
    accuracy,
    judgement,
    review_game,
    review_move,
    summary,
    verdict,
)
from games.engine.bots import searcher
from games.engine.bots.duel import Duel
from games.engine.bots.search import WON, Search
from games.engine.endgame import Endgame, result


@pytest.mark.parametrize(
    ("drop", "expected"),
    [(0, None), (9.9, None), (10, "inaccuracy"), (19.9, "inaccuracy"), (20, "mistake"),
     (29.9, "mistake"), (30, "blunder"), (100, "blunder")],
)  # fmt: skip
def test_judgements_by_the_thresholds(drop, expected):
    assert judgement(drop) == expected


def test_accuracy_by_the_formula_limited_to_0_100():
    for drop in (0.0, 1.5, 7.0, 33.3, 80.0):
        expected = 103.1668 * math.exp(-0.04354 * drop) - 3.1669
        assert accuracy(drop) == pytest.approx(min(100.0, max(0.0, expected)))
    assert accuracy(0) == pytest.approx(99.9999)  # the formula at no drop
    assert accuracy(100) == 0.0  # below zero, limited
    assert accuracy(-5) == accuracy(0)  # a move never scores above the best


def test_the_model_is_a_logistic_curve_of_the_share_of_what_is_needed():
    model = WinModel(4.0, 0.5)
    assert model.chances(0, 29) == pytest.approx(100 / (1 + math.exp(-0.5)))
    assert model.chances(29, 29) == pytest.approx(100 / (1 + math.exp(-4.5)))
    assert model.chances(WON, 29) == 100.0
    assert model.chances(-WON, 29) == 0.0
    assert model.chances(10, 29) > model.chances(5, 29) > model.chances(-5, 29)


def test_a_verdict_values_every_legal_move_and_the_best_is_the_highest():
    position = VARIANTS["fast"].new_position(seed=4)
    found = verdict(position, WinModel(8.0), nodes=600)
    assert set(found.chances) == set(position.legal_moves())
    assert found.before == max(found.chances.values())
    assert not found.exact
    assert all(0 <= c <= 100 for c in found.chances.values())
    # the same position and budget give the same verdict
    assert verdict(position, WinModel(8.0), nodes=600) == found


def test_the_analysis_values_moves_with_level_4s_own_search():
    position = VARIANTS["fast"].new_position(seed=6)
    position = position.play(position.legal_moves()[0])
    position = position.play(position.legal_moves()[1])
    model = WinModel(8.0)
    found = verdict(position, model, nodes=2000)
    search = searcher(position, budget=2000)
    assert isinstance(search, Duel)  # two seats: the bitboard search level 4 plays with
    values, depth = search.each(position.legal_moves())
    assert found.depth == depth >= 3
    needed = position.needed_to_win
    assert found.chances == {m: round(model.chances(v, needed), 1) for m, v in values.items()}
    # the paranoid search would have valued them otherwise
    other, _ = Search(position, budget=2000).each(position.legal_moves())
    assert other != values


def test_an_ending_is_exact():
    position = Position.from_text("square 4x2 4 12BB/AA34 1,2 A")
    found = verdict(position, WinModel(8.0), endgame=Endgame())
    assert found.exact
    assert found.chances == {3: 100.0, 4: 50.0}
    assert found.best == 3


def test_a_review_and_its_summary():
    position = Position.from_text("square 4x2 4 12BB/AA34 1,2 A")
    found = verdict(position, WinModel(8.0))
    bad = review_move(1, position, 4, found)
    assert (bad.before, bad.after, bad.drop, bad.judgement) == (100.0, 50.0, 50.0, "blunder")
    good = review_move(3, position, 3, found)
    assert good.judgement is None and good.accuracy == accuracy(0)
    seats = summary([bad, good])
    assert seats[0].blunders == 1 and seats[0].mistakes == 0
    assert seats[0].accuracy == round((bad.accuracy + accuracy(0)) / 2, 1)
    assert seats[1].accuracy is None


def test_the_swap_is_a_move_like_any_other():
    position = VARIANTS["vinco"].new_position(seed=2)
    position = position.play(position.legal_moves()[0])
    assert position.can_swap
    found = verdict(position, WinModel(8.0), nodes=300)
    assert "swap" in found.chances


def test_every_move_is_valued_even_when_the_time_is_up_at_once():
    position = VARIANTS["classic"].new_position(seed=5)
    ticks = iter(range(1_000_000))
    found = verdict(position, WinModel(8.0), time_limit=0.0, clock=lambda: next(ticks))
    assert set(found.chances) == set(position.legal_moves())
    assert found.depth == 1


# --- a game's review agrees with itself ------------------------------------------------------


def _played_game(variant: str, seed: int, plies: int | None = None) -> list:
    """A game of greedy moves with some random ones (the swap taken where it may be), as
    (position, move) pairs; ``plies`` stops it early, as a resignation would."""
    import random

    rng = random.Random(seed)
    position = VARIANTS[variant].new_position(seed=seed)
    moves = []
    while not position.is_over and (plies is None or len(moves) < plies):
        legal = [m for m in position.legal_moves() if m != "swap"]
        if position.can_swap:
            move = "swap"
        elif rng.random() < 0.3:
            move = rng.choice(legal)
        else:
            move = max(legal, key=lambda m: (len(position.preview(m)), -m))
        moves.append((position, move))
        position = position.play(move)
    return moves


def _chained(reviews, moves) -> None:
    """Each move's ``after`` is the next move's ``before`` seen from its mover's side, and
    its judgement is the thresholds' of those two numbers."""
    for review, following in pairwise(reviews):
        same = following.seat == review.seat
        assert review.after == (following.before if same else round(100 - following.before, 1))
    for review, (position, played) in zip(reviews, moves, strict=False):
        assert review.seat == position.to_move and review.played == played
        assert 0 <= review.after <= review.before <= 100
        assert review.judgement == judgement(round(review.before - review.after, 1))
        # The best colour is the one played exactly when nothing would have kept more.
        assert (review.best == review.played) == (review.before == review.after)


@pytest.mark.parametrize(("variant", "seed"), [("fast", 3), ("fast", 11), ("vinco", 2)])
def test_a_reviewed_games_after_is_the_next_moves_before(variant, seed):
    moves = _played_game(variant, seed)
    reviews = review_game(moves, WinModel(8.0), nodes=300)
    assert [r.ply for r in reviews] == list(range(1, len(moves) + 1))
    _chained(reviews, moves)
    # The last move ended the game: its after is the mover's result, exact.
    last_position, last_move = moves[-1]
    end = last_position.play(last_move)
    assert end.is_over
    assert reviews[-1].after == float(result(end, last_position.to_move))


def test_a_game_that_ended_by_a_resignation_and_a_review_stopped_early_chain_too():
    moves = _played_game("fast", 5, plies=9)  # the game goes on after move 9: resigned
    reviews = review_game(moves, WinModel(8.0), nodes=300)
    assert len(reviews) == 9
    _chained(reviews, moves)
    calls = iter(range(100))
    stopped = review_game(moves, WinModel(8.0), nodes=300, stop=lambda: next(calls) >= 6)
    assert len(stopped) == 5  # six positions valued: the sixth gives the fifth its after
    _chained(stopped, moves)
