"""An arena's pairing (SPEC §12) as a plain function: the entrants waiting now, sorted by
their arena score then their rating, paired with their neighbours; two members who
have just played each other are not paired again unless nobody else waits. Pairs kept
apart (``apart``: two members of whom one blocked the other, SPEC §14) are never made.
Two members left over by those rules take one each of a pair made before, when the new
pairs are allowed: a block or a rematch keeps out only whom it must.

    >>> w = [Waiting(1, 4, 1500), Waiting(2, 2, 1700), Waiting(3, 2, 1600), Waiting(4, 0, 1400)]
    >>> pair(w)
    [(1, 2), (3, 4)]
    >>> pair(w, apart={frozenset((3, 4))})
    [(1, 3), (2, 4)]
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
    alone = len(queue) == 2  # nobody else waits: even a rematch is better than nothing

    def allowed(a: Waiting, b: Waiting) -> bool:
        if frozenset((a.member, b.member)) in apart:
            return False
        return alone or (b.member != a.last_opponent and a.member != b.last_opponent)

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
