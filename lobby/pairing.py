"""An arena's pairing (SPEC §12) as a plain function: the entrants waiting now, sorted by
their arena score then their rating, paired with their neighbours; two members who
have just played each other are not paired again unless nobody else waits. Pairs kept
apart (``apart``: blocks, once members can block one another) are never made.

    >>> w = [Waiting(1, 4, 1500), Waiting(2, 2, 1700), Waiting(3, 2, 1600), Waiting(4, 0, 1400)]
    >>> pair(w)
    [(1, 2), (3, 4)]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


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
    alone = len(queue) == 2  # nobody else waits: even a rematch is better than nothing
    pairs = []
    while len(queue) >= 2:
        first = queue.pop(0)
        for index, other in enumerate(queue):
            if frozenset((first.member, other.member)) in apart:
                continue
            again = other.member == first.last_opponent or first.member == other.last_opponent
            if again and not alone:
                continue
            pairs.append((first.member, queue.pop(index).member))
            break
    return pairs
