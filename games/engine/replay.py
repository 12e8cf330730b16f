"""A match step by step: every position of every game, for replays.

:func:`steps` plays a match again from game 1's start, through :class:`MatchState` (moves,
and the resignations, flags and abandonment recorded between them), and returns each game
as its start followed by one :class:`Step` per move or event.

>>> from games.engine import VARIANTS
>>> state = MatchState.new(VARIANTS["fast"].new_position(seed=1), games=1)
>>> position = state.current.position
>>> colour = next(c for c, why in position.legal_colors().items() if why is None)
>>> state = state.play(position.to_move, colour)
>>> [step.ply for step in steps(state)[0]]
[0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.letters import LETTERS
from games.engine.match import MatchState
from games.engine.position import Position


@dataclass(frozen=True)
class Step:
    """A game after ``ply`` moves (and the events up to there)."""

    ply: int
    position: Position
    seat: int | None = None  # who moved or what seat an event was about; None at the start
    move: int | str | None = None  # the colour or "swap"; None for an event
    event: str | None = None  # resign_game, resign_match, flag, abandon, abort
    gained: frozenset[int] = frozenset()  # the cells the move took (chain and enclosure)

    @property
    def label(self) -> str:
        """ "A 3", "B swap", "C resign_match", or "" at the start."""
        if self.seat is None and self.event is None:
            return ""
        who = LETTERS[self.seat] if self.seat is not None else ""
        return f"{who} {self.move if self.event is None else self.event}".strip()


def steps(state: MatchState) -> list[list[Step]]:
    """Every game of ``state`` step by step: its start, then each move and event."""
    replayed = MatchState.new(state.board, games=state.games_planned)
    games: list[list[Step]] = []
    for game in state.games:
        if game.number > 1:
            replayed = replayed.start_next_game()
        current = replayed.current.position
        timeline = [Step(0, current)]
        for ply in range(game.ply + 1):
            for at, seat, event in game.events:
                if at == ply:
                    replayed = replayed.event(seat, event)
                    after = replayed.games[game.number - 1].position
                    timeline.append(Step(ply, after, seat=seat, event=event))
            if ply < game.ply:
                before = replayed.current.position
                seat = before.to_move
                replayed = replayed.play(seat, game.moves[ply])
                after = replayed.games[game.number - 1].position
                gained = (
                    frozenset()
                    if game.moves[ply] == "swap"
                    else after.territory(seat) - before.territory(seat)
                )
                timeline.append(
                    Step(ply + 1, after, seat=seat, move=game.moves[ply], gained=gained)
                )
        games.append(timeline)
    return games
