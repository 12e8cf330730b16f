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
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

PRESETS = ("1+1", "2+1", "3+2", "5+3", "10+5")


def parse_preset(preset: str) -> tuple[int, int]:
    """'3+2' → (180000, 2000): the bank and the increment in milliseconds."""
    if preset not in PRESETS:
        raise ValueError(f"unknown clock {preset!r}; choose one of {', '.join(PRESETS)}")
    minutes, seconds = preset.split("+")
    return int(minutes) * 60_000, int(seconds) * 1_000


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
