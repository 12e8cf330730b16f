"""The abandonment rule (SPEC §3): when the opponents of the seat to move may claim the
match. Asked by ``ending.match_claim`` and by every state a table sends (its ``claim``
field), so both always agree."""

from __future__ import annotations

from datetime import datetime

from games import timing
from games.engine.clock import Clock
from games.engine.match import PLAYING, MatchState
from games.models import Match
from games.state import SeatRow


def claim_from(
    match: Match, state: MatchState, seats: list[SeatRow], clock: Clock | None
) -> datetime | None:
    """When the opponents of the seat to move may claim the match (no present socket for
    a minute; at no-clock tables also no move for five minutes), or None."""
    if state.status != PLAYING or state.current.over or state.can_abort:
        return None
    to_move = seats[state.current.position.to_move]
    moments = []
    if not to_move.connected and to_move.absent_since is not None:
        moments.append(to_move.absent_since + timing.seconds("GAME_ABANDON_SECONDS"))
    if clock is None and match.turn_started_at is not None:
        moments.append(match.turn_started_at + timing.seconds("GAME_IDLE_SECONDS"))
    return min(moments) if moments else None
