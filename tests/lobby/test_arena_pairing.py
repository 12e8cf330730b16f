"""An arena's pairing (SPEC §12) as a pure function: neighbours by score then rating, no
immediate rematch unless nobody else waits, pairs kept apart never made, and two left over
by those rules paired with the members of a pair made before."""

import doctest
import random
from itertools import combinations

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


def test_a_rematch_only_between_two_who_have_nobody_else_this_round():
    just_met = [Waiting(1, 4, 1600, last_opponent=2), Waiting(2, 4, 1590, last_opponent=1)]
    # 3 can play neither of them: rather a rematch than nothing for either.
    apart = {frozenset((1, 3)), frozenset((2, 3))}
    assert pair([*just_met, Waiting(3, 0, 1500)], apart=apart) == [(1, 2)]
    # 3 can play 2: then 1 waits, 2 plays 3.
    assert pair([*just_met, Waiting(3, 0, 1500)], apart={frozenset((1, 3))}) == [(2, 3)]


def test_never_twice_in_a_row_while_either_has_another_opponent_and_else_always():
    """Small rounds drawn at random (last opponents, pairs kept apart): a pair who just
    met is made exactly when neither has another waiting member not kept apart."""
    rng = random.Random(12)
    for _ in range(3000):
        ids = list(range(1, rng.randint(2, 6) + 1))
        last = {i: rng.choice([None, *(j for j in ids if j != i)]) for i in ids}
        waiting = [Waiting(i, rng.randint(0, 3), rng.choice((1500, 1600)), last[i]) for i in ids]
        apart = {frozenset(p) for p in combinations(ids, 2) if rng.random() < 0.3}
        made = {frozenset(p) for p in pair(waiting, apart=apart)}
        options = {i: {o for o in ids if o != i and frozenset((i, o)) not in apart} for i in ids}
        for a, b in combinations(ids, 2):
            if frozenset((a, b)) in apart or (last[a] != b and last[b] != a):
                continue
            alone = options[a] == {b} and options[b] == {a}
            assert (frozenset((a, b)) in made) == alone, (waiting, apart, made)


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
