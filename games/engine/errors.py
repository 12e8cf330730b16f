"""The one error the rules raise for a move that may not be played."""

from __future__ import annotations

from typing import Literal

Reason = Literal["own", "opponent", "palette", "game_over", "swap"]


class IllegalMove(ValueError):
    """A move the rules forbid, with a stable machine-readable ``reason``:

    - ``"own"``: the seat's own current colour;
    - ``"opponent"``: the current colour of an active seat of another side;
    - ``"palette"``: not a colour 1..k (or not an int at all);
    - ``"game_over"``: the game has ended;
    - ``"swap"``: ``"swap"`` asked for when the pie rule does not allow it.

    >>> err = IllegalMove("opponent", "colour 3 is B's current colour")
    >>> err.reason, str(err)
    ('opponent', "colour 3 is B's current colour")
    """

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason: Reason = reason
