"""Every write at a table: one transaction each, the match row locked for every change.

Services drive the engine's pure :class:`MatchState` and store what it returns; the
events they cause go out after the transaction commits (``games.events``), so a
rolled-back change is never broadcast. Times are passed in (``now``, ``received_at``):
the consumer stamps a move when it arrives, tests inject the time they need.

The functions live in modules by concern and are all importable from here:
``matches`` (create, move, ready, resign, claim, the clock's tick, rematch),
``tables`` (waiting tables, challenges, Play now), ``practice`` (the computer at the
table: its moves, hints, takebacks), ``presence`` (sockets that come,
send and go) and ``chat``.
"""

from games.services.chat import chat_post
from games.services.matches import (
    bot_move,
    game_resign,
    match_abort,
    match_claim,
    match_create,
    match_ready,
    match_resign,
    match_tick,
    member_leave_all,
    move_play,
    rematch_offer,
    table_refresh,
)
from games.services.practice import (
    bot_turn,
    practice_hint,
    practice_start,
    practice_takeback,
    table_fill_bots,
)
from games.services.presence import (
    presence_refresh,
    presence_sweep,
    socket_close,
    socket_open,
    socket_seen,
)
from games.services.tables import (
    challenge_accept,
    challenge_cancel,
    challenge_decline,
    challenge_send,
    challenges_expire,
    play_now,
    table_cancel,
    table_join,
    table_leave,
    table_open,
)

__all__ = [
    "bot_move",
    "bot_turn",
    "challenge_accept",
    "challenge_cancel",
    "challenge_decline",
    "challenge_send",
    "challenges_expire",
    "chat_post",
    "game_resign",
    "match_abort",
    "match_claim",
    "match_create",
    "match_ready",
    "match_resign",
    "match_tick",
    "member_leave_all",
    "move_play",
    "play_now",
    "practice_hint",
    "practice_start",
    "practice_takeback",
    "presence_refresh",
    "presence_sweep",
    "rematch_offer",
    "socket_close",
    "socket_open",
    "socket_seen",
    "table_cancel",
    "table_fill_bots",
    "table_join",
    "table_leave",
    "table_open",
    "table_refresh",
]
