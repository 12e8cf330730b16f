"""An arena's pairing (SPEC §12) as a plain function: the entrants waiting now, sorted by
their arena score then their rating, paired with their neighbours. Pairs kept apart
(``apart``: a block, SPEC §14, the daily limit, three meetings) are never made. Two
members who have just played each other are not paired again while either of them has
another opponent this round (another waiting member not kept apart from them): only
when each has nobody else. Two members left over by those rules take one each of a
pair made before, when the new pairs are allowed: a block or a rematch keeps out only
whom it must.

    >>> w = [Waiting(1, 4, 1500), Waiting(2, 2, 1700), Waiting(3, 2, 1600), Waiting(4, 0, 1400)]
    >>> pair(w)
    [(1, 2), (3, 4)]
    >>> pair(w, apart={frozenset((3, 4))})
    [(1, 3), (2, 4)]
    >>> pair([Waiting(1, 2, 1500, last_opponent=2), Waiting(2, 0, 1500, 1), Waiting(3, 0, 1500)])
    [(1, 3)]
    >>> rematch = [Waiting(1, 2, 1500, 2), Waiting(2, 0, 1500, 1), Waiting(3, 0, 1500)]
    >>> pair(rematch, apart={frozenset((1, 3)), frozenset((2, 3))})  # 3 can play neither
    [(1, 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class Waiting:
    member: int
    points: int
    rating: float
    last_opponent: int | None = None


def pair(
    waiting: Sequence[Waiting], *, apart: Collection[frozenset[int]] = ()
) -> list[tuple[int, int]]:
    """Pairs of member ids, the stronger (by score, then rating) first."""
    queue = sorted(waiting, key=lambda w: (-w.points, -w.rating, w.member))
    rank = {w.member: index for index, w in enumerate(queue)}
    apart = set(apart)
    # How many each could play this round: a rematch only between two who have nobody
    # else, as even a rematch is better than nothing.
    others = dict.fromkeys(rank, len(rank) - 1)
    for kept in apart:
        if len(kept) == 2 and all(member in rank for member in kept):
            for member in kept:
                others[member] -= 1

    def allowed(a: Waiting, b: Waiting) -> bool:
        if frozenset((a.member, b.member)) in apart:
            return False
        if b.member != a.last_opponent and a.member != b.last_opponent:
            return True
        return others[a.member] == 1 and others[b.member] == 1  # each other's only one

    pairs: list[tuple[Waiting, Waiting]] = []
    left: list[Waiting] = []
    while queue:
        first = queue.pop(0)
        other = next((o for o in queue if allowed(first, o)), None)
        if other is None:
            left.append(first)
            continue
        queue.remove(other)
        pairs.append((first, other))
    while len(left) >= 2 and _regroup(pairs, left, allowed):
        pass
    return [tuple(sorted((a.member, b.member), key=rank.__getitem__)) for a, b in pairs]


def _regroup(
    pairs: list[tuple[Waiting, Waiting]],
    left: list[Waiting],
    allowed: Callable[[Waiting, Waiting], bool],
) -> bool:
    """Two members left over take one each of a pair made before (the nearest in the
    order first), if all the new pairs are allowed; whether two could."""
    for x, y in combinations(left, 2):
        for index in reversed(range(len(pairs))):
            for a, b in (pairs[index], pairs[index][::-1]):
                if allowed(a, x) and allowed(b, y):
                    pairs[index] = (a, x)
                    pairs.append((b, y))
                    left.remove(x)
                    left.remove(y)
                    return True
    return False
