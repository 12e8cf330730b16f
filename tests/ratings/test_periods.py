"""Match results into rating periods (SPEC §4); pure, no database."""

from datetime import UTC, datetime, timedelta

import pytest

from ratings.glicko2 import Rating, rate, rd_after_inactivity
from ratings.periods import (
    InvalidPairings,
    Standing,
    rate_match,
    results_by_player,
    validate_pairings,
)

T0 = datetime(2026, 11, 1, tzinfo=UTC)
ALICE = Standing(Rating(1600, 80, 0.06), T0)
BOB = Standing(Rating(1550, 90, 0.06), T0)


def two(score):
    return rate_match({"a": ALICE, "b": BOB}, [("a", "b", score)], T0)


@pytest.mark.parametrize(
    ("name", "score"), [("2-0", 1.0), ("1½-½", 1.0), ("1-1 on totals", 0.6), ("drawn", 0.5)]
)
def test_two_sides_move_by_what_one_glicko2_period_gives(name, score):
    changes = two(score)
    assert changes["a"].after == rate(ALICE.rating, [(BOB.rating, score)])
    assert changes["b"].after == rate(BOB.rating, [(ALICE.rating, 1 - score)])
    assert changes["a"].before == ALICE.rating


def test_directions_and_sizes_of_the_two_sided_results():
    full, totals, drawn = two(1.0)["a"], two(0.6)["a"], two(0.5)["a"]
    lost_on_totals = two(0.4)["a"]
    # The favourite gains from a win, less from a win on totals, and loses rating on a draw.
    assert full.after.rating > totals.after.rating > ALICE.rating.rating > drawn.after.rating
    assert lost_on_totals.after.rating < drawn.after.rating
    assert two(0.6)["b"].after.rating < BOB.rating.rating < two(0.5)["b"].after.rating
    assert (full.outcome, totals.outcome, drawn.outcome, lost_on_totals.outcome) == (
        "win",
        "win",
        "draw",
        "loss",
    )


def test_a_drawn_match_between_equals_keeps_ratings_and_shrinks_rd():
    changes = rate_match({}, [(1, 2, 0.5)], T0)
    for change in changes.values():
        assert change.after.rating == pytest.approx(1500, abs=1e-9)
        assert change.after.rd < 350


def test_first_match_between_newcomers_gives_the_known_amounts():
    changes = rate_match({}, [(1, 2, 1.0)], T0)
    assert round(changes[1].after.rating, 2) == 1662.31
    assert round(changes[2].after.rating, 2) == 1337.69
    assert round(changes[1].after.rd, 2) == 290.32


def test_four_players_each_rated_against_the_other_three_at_once():
    start = {
        seat: Standing(Rating(1500 + 50 * i, 100 + 10 * i, 0.06), T0)
        for i, seat in enumerate("ABCD")
    }
    # A won the match, B beat C on totals at equal points, C and D drew, D lost to B.
    pairings = [
        ("A", "B", 1.0),
        ("A", "C", 1.0),
        ("A", "D", 1.0),
        ("B", "C", 0.6),
        ("B", "D", 1.0),
        ("C", "D", 0.5),
    ]
    changes = rate_match(start, pairings, T0)
    assert changes["C"].after == rate(
        start["C"].rating,
        [(start["A"].rating, 0.0), (start["B"].rating, 0.4), (start["D"].rating, 0.5)],
    )
    assert [changes[s].opponents for s in "ABCD"] == [3, 3, 3, 3]
    assert [changes[s].outcome for s in "ABCD"] == ["win", "win", "loss", "loss"]
    assert changes["A"].after.rating > start["A"].rating.rating
    assert changes["D"].after.rating < start["D"].rating.rating


def test_pairs_each_player_against_both_opponents_with_the_team_result():
    start = {seat: Standing(Rating(1500 + 40 * i, 120, 0.06), T0) for i, seat in enumerate("ABCD")}
    # Team A+C won 1½–½: each winner scores 1 against both B and D; partners never meet.
    pairings = [(winner, loser, 1.0) for winner in "AC" for loser in "BD"]
    changes = rate_match(start, pairings, T0)
    assert changes["A"].after == rate(
        start["A"].rating, [(start["B"].rating, 1.0), (start["D"].rating, 1.0)]
    )
    assert changes["D"].after == rate(
        start["D"].rating, [(start["A"].rating, 0.0), (start["C"].rating, 0.0)]
    )
    assert {changes[s].opponents for s in "ABCD"} == {2}
    assert "C" not in dict(results_by_player(pairings)["A"])


def test_rd_grows_with_the_days_since_the_last_rated_match_before_rating():
    rested = Standing(Rating(1500, 60, 0.06), T0 - timedelta(days=40))
    fresh = Standing(Rating(1500, 60, 0.06), T0)
    changes = rate_match({"r": rested, "f": fresh}, [("r", "f", 0.5)], T0)
    grown = Rating(1500, rd_after_inactivity(60, 40), 0.06)
    assert changes["r"].after == rate(grown, [(fresh.rating, 0.5)])
    assert changes["f"].after == rate(fresh.rating, [(grown, 0.5)])
    # The change stores the rating as it stood, before the growth.
    assert changes["r"].before.rd == 60


@pytest.mark.parametrize(
    "pairings",
    [
        [],
        [(1, 1, 1.0)],
        [(1, 2, 0.7)],
        [(1, 2, 1.0), (2, 1, 0.0)],
    ],
)
def test_impossible_pairings_are_refused(pairings):
    with pytest.raises(InvalidPairings):
        validate_pairings(pairings)
