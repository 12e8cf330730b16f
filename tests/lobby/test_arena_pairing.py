"""An arena's pairing (SPEC §12) as a pure function: neighbours by score then rating, no
immediate rematch unless nobody else waits, pairs kept apart never made, and two left over
by those rules paired with the members of a pair made before."""

import doctest

import lobby.pairing
from lobby.pairing import Waiting, pair


def test_neighbours_by_score_then_rating_are_paired():
    waiting = [
        Waiting(1, 0, 1500),
        Waiting(2, 6, 1400),
        Waiting(3, 6, 1800),
        Waiting(4, 2, 1900),
        Waiting(5, 0, 1550),
    ]
    assert pair(waiting) == [(3, 2), (4, 5)]  # 1 waits for the next round


def test_no_immediate_rematch_while_someone_else_waits():
    waiting = [
        Waiting(1, 4, 1600, last_opponent=2),
        Waiting(2, 4, 1590, last_opponent=1),
        Waiting(3, 0, 1500),
    ]
    assert pair(waiting) == [(1, 3)]
    # either side remembering the other is enough
    assert pair([Waiting(1, 4, 1600, 2), Waiting(2, 4, 1590), Waiting(3, 4, 1500)]) == [(1, 3)]


def test_a_rematch_when_nobody_else_waits():
    assert pair([Waiting(1, 4, 1600, last_opponent=2), Waiting(2, 2, 1500, 1)]) == [(1, 2)]


def test_pairs_kept_apart_are_never_made_even_alone():
    waiting = [Waiting(1, 4, 1600), Waiting(2, 4, 1590), Waiting(3, 0, 1500)]
    assert pair(waiting, apart={frozenset((1, 2))}) == [(1, 3)]
    assert pair(waiting[:2], apart={frozenset((1, 2))}) == []


def test_two_left_over_take_one_each_of_a_pair_made_before():
    waiting = [Waiting(1, 6, 1500), Waiting(2, 4, 1500), Waiting(3, 2, 1500), Waiting(4, 0, 1500)]
    assert pair(waiting, apart={frozenset((3, 4))}) == [(1, 3), (2, 4)]
    rematch = [*waiting[:2], Waiting(3, 2, 1500, last_opponent=4), Waiting(4, 0, 1500)]
    assert pair(rematch) == [(1, 3), (2, 4)]
    # No new pairs allowed either: the two wait.
    apart = {frozenset((3, 4)), frozenset((1, 3)), frozenset((1, 4))}
    assert pair(waiting, apart=apart) == [(1, 2)]


def test_nobody_is_paired_twice_and_one_or_none_waiting_gives_nothing():
    waiting = [Waiting(i, i % 3, 1500 + i) for i in range(1, 12)]
    pairs = pair(waiting)
    members = [m for p in pairs for m in p]
    assert len(members) == len(set(members)) == 10
    assert pair([Waiting(1, 0, 1500)]) == [] and pair([]) == []


def test_the_modules_example_holds():
    result = doctest.testmod(lobby.pairing)
    assert result.attempted > 0 and result.failed == 0
