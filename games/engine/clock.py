"""Fischer clocks (SPEC §3), pure: times are plain milliseconds passed in by the caller.

A bank for the whole match plus an increment after each of a seat's own moves. No clock
runs before a seat's first move of game 1; after that the clock of the seat to move
always runs, except between games.

>>> clock = Clock.for_preset("3+2", seats=2)
>>> clock.remaining_ms
(180000, 180000)
>>> clock = clock.press(0, at_ms=1_000, next_seat=1)  # B has not moved yet: no clock runs
>>> clock.remaining_ms, clock.running
((182000, 180000), None)
>>> clock = clock.press(1, at_ms=5_000, next_seat=0)  # now A has moved: A's clock runs
>>> clock.running, clock.remaining(0, at_ms=8_000)
(0, 179000)

Berserk (arenas, SPEC §12): a seat's bank halved and no increment for it in this match.

>>> Clock.for_preset("1+1", seats=2).berserk(1).press(1, at_ms=0, next_seat=0).remaining_ms
(60000, 30000)

A clock of one's own: besides the presets, a table or a challenge may set its own clock,
written as the presets are, ``m+s``: ½ minute (``0.5``) or 1 to 60 whole minutes for the
match, plus 0 to 30 seconds a move. One text for one clock (``7+4``, never ``07+4``), so
the lobby, the table, the API and the history all show what was asked for. Arenas and
Play now keep to the presets. A clock, preset or not, never chooses a rating scale or a
format: those follow the variant (SPEC §2, §4); a rated table needs at least a minute.

>>> parse_preset("7+4"), parse_preset("0.5+0")
((420000, 4000), (30000, 0))
>>> parse_preset("61+0")
Traceback (most recent call last):
...
games.engine.clock.ClockError: a clock has 0.5 or 1 to 60 whole minutes, not '61+0'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Literal

PRESETS = ("1+1", "2+1", "3+2", "5+3", "10+5")
LONGEST_MINUTES = 60
LONGEST_INCREMENT_S = 30
#: a rated match needs at least this bank (SPEC §10: "rated only with at least 1 minute")
RATED_SHORTEST_MS = 60_000

_SHAPE = re.compile(r"(\d{1,3}(?:\.\d{1,3})?)\+(\d{1,3})", re.ASCII)

ClockReason = Literal["format", "minutes", "increment"]


class ClockError(ValueError):
    """A clock text the site does not play, with a machine-readable ``reason``:

    - ``"format"``: not ``m+s`` in its one written form (``abc``, ``7+``, ``07+4``, ``1e3+0``);
    - ``"minutes"``: minutes other than 0.5 or a whole 1 to 60;
    - ``"increment"``: an increment above 30 seconds.
    """

    def __init__(self, reason: ClockReason, message: str) -> None:
        super().__init__(message)
        self.reason: ClockReason = reason


def parse_preset(preset: str) -> tuple[int, int]:
    """'3+2' → (180000, 2000): the bank and the increment in milliseconds, for a preset
    or a clock of one's own ('7+4', '0.5+10'); else ``ClockError``."""
    shape = _SHAPE.fullmatch(preset) if isinstance(preset, str) else None
    if shape is None:
        raise ClockError("format", f"a clock is written minutes+seconds (7+4), not {preset!r}")
    minutes, seconds = Decimal(shape[1]), int(shape[2])
    if minutes == Decimal("0.5"):
        bank = 30_000
    elif minutes == minutes.to_integral_value() and 1 <= minutes <= LONGEST_MINUTES:
        bank = int(minutes) * 60_000
    else:
        raise ClockError(
            "minutes", f"a clock has 0.5 or 1 to {LONGEST_MINUTES} whole minutes, not {preset!r}"
        )
    if seconds > LONGEST_INCREMENT_S:
        raise ClockError(
            "increment", f"an increment is 0 to {LONGEST_INCREMENT_S} seconds, not {preset!r}"
        )
    if clock_text(bank, seconds * 1_000) != preset:
        raise ClockError("format", f"{preset!r} is written {clock_text(bank, seconds * 1_000)}")
    return bank, seconds * 1_000


def clock_text(bank_ms: int, increment_ms: int) -> str:
    """The one way a clock is written: (420000, 4000) → '7+4', (30000, 0) → '0.5+0'."""
    minutes = "0.5" if bank_ms == 30_000 else str(bank_ms // 60_000)
    return f"{minutes}+{increment_ms // 1_000}"


@dataclass(frozen=True, slots=True)
class Clock:
    remaining_ms: tuple[int, ...]
    increment_ms: int
    running: int | None = None  # the seat whose clock runs
    since_ms: int | None = None  # when it started running
    #: seats that made their first move of game 1: only their clocks ever run
    started: frozenset[int] = frozenset()
    #: seats gone berserk: half their bank, no increment
    berserks: frozenset[int] = frozenset()

    @classmethod
    def for_preset(cls, preset: str, seats: int) -> Clock:
        bank, increment = parse_preset(preset)
        return cls(remaining_ms=(bank,) * seats, increment_ms=increment)

    def remaining(self, seat: int, at_ms: int) -> int:
        """Time left for ``seat`` at ``at_ms`` (never below zero)."""
        left = self.remaining_ms[seat]
        if self.running == seat and self.since_ms is not None:
            left -= at_ms - self.since_ms
        return max(0, left)

    def deadline_ms(self) -> int | None:
        """When the running clock reaches zero, or None when no clock runs."""
        if self.running is None or self.since_ms is None:
            return None
        return self.since_ms + self.remaining_ms[self.running]

    def flagged(self, at_ms: int) -> int | None:
        """The seat whose time is up at ``at_ms``, if any."""
        if self.running is not None and self.remaining(self.running, at_ms) <= 0:
            return self.running
        return None

    def press(self, seat: int, *, at_ms: int, next_seat: int | None) -> Clock:
        """``seat`` moved at ``at_ms``: charge its thinking time, add the increment, and
        start ``next_seat``'s clock if that seat has made its first move (None: game over)."""
        left = self.remaining(seat, at_ms)
        remaining = list(self.remaining_ms)
        remaining[seat] = left + (0 if seat in self.berserks else self.increment_ms)
        started = self.started | {seat}
        running = next_seat if next_seat in started else None
        return replace(
            self,
            remaining_ms=tuple(remaining),
            running=running,
            since_ms=at_ms if running is not None else None,
            started=started,
        )

    def stop(self, *, at_ms: int) -> Clock:
        """Stop the running clock, charging the time spent so far."""
        if self.running is None:
            return self
        remaining = list(self.remaining_ms)
        remaining[self.running] = self.remaining(self.running, at_ms)
        return replace(self, remaining_ms=tuple(remaining), running=None, since_ms=None)

    def start_next_game(self, first_seat: int, *, at_ms: int) -> Clock:
        """Game 2: the clock of the seat to move always runs, from its first turn on."""
        everyone = frozenset(range(len(self.remaining_ms)))
        return replace(self.stop(at_ms=at_ms), running=first_seat, since_ms=at_ms, started=everyone)

    def switch_to(self, seat: int | None, *, at_ms: int) -> Clock:
        """The turn passed without a move (a seat went out): run ``seat``'s clock if it has
        started."""
        stopped = self.stop(at_ms=at_ms)
        if seat is None or seat not in self.started:
            return stopped
        return replace(stopped, running=seat, since_ms=at_ms)

    def berserk(self, seat: int) -> Clock:
        """``seat`` goes berserk: its time left halved (rounded down to the second), and
        no increment for it from now on. Once only."""
        if seat in self.berserks:
            return self
        remaining = list(self.remaining_ms)
        remaining[seat] = remaining[seat] // 2 // 1000 * 1000
        return replace(self, remaining_ms=tuple(remaining), berserks=self.berserks | {seat})

    def to_dict(self) -> dict[str, Any]:
        data = {
            "remaining_ms": list(self.remaining_ms),
            "increment_ms": self.increment_ms,
            "running": self.running,
            "since_ms": self.since_ms,
            "started": sorted(self.started),
        }
        if self.berserks:  # arenas only: other clocks keep their shape
            data["berserks"] = sorted(self.berserks)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Clock:
        return cls(
            remaining_ms=tuple(data["remaining_ms"]),
            increment_ms=data["increment_ms"],
            running=data["running"],
            since_ms=data["since_ms"],
            started=frozenset(data["started"]),
            berserks=frozenset(data.get("berserks", ())),
        )
