"""Seat letters (SPEC §1): seat 0 is A, 1 is B, 2 is C, 3 is D.

The lowest layer of the engine: FPN, the rules' error messages, the match and its record
all name seats by these letters, so the constant lives below all of them.

>>> seat_letters((0, 2))
'AC'
"""

from __future__ import annotations

from collections.abc import Iterable

LETTERS = "ABCD"


def seat_letters(seats: Iterable[int]) -> str:
    """The letters of ``seats``, in the order given."""
    return "".join(LETTERS[seat] for seat in seats)
