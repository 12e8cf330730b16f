"""An arena's scoring and ranking (SPEC §12) as pure functions: points per outcome, the
streak, berserk, aborts, performance and the order of the table."""

import pytest

from lobby.scoring import (
    Played,
    performance,
    played,
    ranked,
    score,
    standing,
)


def points(*matches: Played) -> list[int]:
    return [s.points for s in score(matches)]


def test_loss_draw_win_score_0_1_2():
    assert points(played("loss"), played("draw"), played("win")) == [0, 1, 2]


def test_two_wins_in_a_row_set_a_member_on_fire_until_a_match_that_is_not_a_win():
    w, d, lo = played("win"), played("draw"), played("loss")
    assert points(w, w, w, w, d, w, w, w) == [2, 2, 4, 4, 2, 2, 2, 4]
    assert points(w, w, lo, w) == [2, 2, 0, 2]
    fire = [s.on_fire for s in score([w, w, w, d, w])]
    assert fire == [False, False, True, True, False]


def test_an_aborted_match_scores_nothing_and_neither_counts_nor_breaks_a_streak():
    w, a = played("win"), played("aborted")
    assert points(w, a, w, a, w) == [2, 0, 2, 0, 4]
    assert points(a, a, w) == [0, 0, 2]
    assert standing(1, [w, w, a], entered=0).fire is True


def test_an_annulled_match_counts_for_nothing_whatever_its_outcome():
    w, lo = played("win"), played("loss")
    annulled_win = played("win", annulled=True, berserk=True, moves=9, opponent_rating=1500)
    annulled_loss = played("loss", annulled=True, opponent_rating=1500)
    assert points(w, annulled_win, w, w) == [2, 0, 2, 4]
    assert points(w, annulled_loss, w, w) == [2, 0, 2, 4]  # the streak goes on
    assert points(w, lo, w, w) == [2, 0, 2, 2]
    assert standing(1, [w, w, annulled_loss], entered=0).fire is True
    assert performance([annulled_win, annulled_loss]) is None


@pytest.mark.parametrize(
    ("moves", "outcome", "bonus"),
    [(7, "win", 1), (6, "win", 0), (30, "draw", 0), (30, "loss", 0)],
)
def test_a_berserk_win_after_seven_moves_adds_one(moves, outcome, bonus):
    plain = points(played(outcome, moves=moves))[0]
    berserk = points(played(outcome, moves=moves, berserk=True))[0]
    assert berserk - plain == bonus


def test_a_berserk_win_on_fire_scores_five():
    w = played("win")
    assert points(w, w, played("win", berserk=True, moves=9)) == [2, 2, 5]


def test_performance_is_the_linear_one_and_skips_aborted_matches():
    matches = [
        played("win", opponent_rating=1500),
        played("loss", opponent_rating=1700),
        played("draw", opponent_rating=1600),
        played("aborted", opponent_rating=2400),
    ]
    assert performance(matches) == pytest.approx((1900 + 1300 + 1600) / 3)
    assert performance([played("aborted", opponent_rating=1500)]) is None
    assert performance([]) is None


def test_ranking_by_points_then_performance_then_the_earlier_entry():
    win = played("win", opponent_rating=1500)
    strong_win = played("win", opponent_rating=1900)
    table = ranked(
        [
            standing(1, [win], entered=3),
            standing(2, [strong_win], entered=4),
            standing(3, [win], entered=1),
            standing(4, [], entered=0),
            standing(5, [win, win], entered=9),
        ]
    )
    assert [s.member for s in table] == [5, 2, 3, 1, 4]
    assert [s.points for s in table] == [4, 2, 2, 2, 0]


def test_the_modules_example_holds():
    import doctest

    import lobby.scoring

    result = doctest.testmod(lobby.scoring)
    assert result.attempted > 0 and result.failed == 0
