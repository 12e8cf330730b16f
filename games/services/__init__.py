"""Every write at a table: one transaction each, the match row locked for every change.

Services drive the engine's pure :class:`MatchState` and store what it returns
(``commit``); the events they cause go out after the transaction commits
(``games.events``), so a rolled-back change is never broadcast. Times are passed in
(``now``, ``received_at``): the consumer stamps a move when it arrives, tests inject the
time they need.

The functions live in modules by job and are all importable from here:

- ``seating``: creating a match and seating its players (``match_create``);
- ``playing``: a move, the computer's move, ready, resigning;
- ``timeouts``: what a deadline brings by itself (a flag, an abort, game 2);
- ``ending``: a claim, a moderator's abort, leaving the site, the rematch;
- ``practice``: the computer at practice tables, hints and takebacks;
- ``presence``: sockets that come, send and go, a table shown to its player; ``chat``;
- ``analysis``: the computer's review of a finished match and colours tried in it;
- ``house``: VOG TV's match of two computers, which the site keeps going by itself;
- ``commit``: every change ends there, with the clock and deadline rules it applies;
- ``underway``: work that must not run twice at once (the computer's move, a hint, a
  tried colour), held as a database row.

The lobby's own writes (waiting tables, challenges, Play now) are in ``lobby.services``.
"""

from games.services.analysis import analysis_request, analysis_run, analysis_try
from games.services.chat import chat_post
from games.services.ending import (
    match_abort,
    match_abort_unplayed,
    match_berserk,
    match_claim,
    member_leave_all,
    member_matches_end,
    member_seats_renamed,
    rematch_lapse,
    rematch_offer,
    rematch_offers_between_end,
    rematch_offers_withdraw,
    rematch_refuse,
    rematches_lapse,
    table_refresh,
)
from games.services.house import tv_match_keep
from games.services.playing import bot_move, game_resign, match_ready, match_resign, move_play
from games.services.practice import (
    bot_turn,
    computer_turns_resume,
    hint_work,
    practice_hint,
    practice_start,
    practice_takeback,
)
from games.services.presence import (
    presence_refresh,
    presence_sweep,
    seat_shown,
    socket_close,
    socket_open,
    socket_seen,
)
from games.services.seating import match_create, match_url, table_settings_check
from games.services.timeouts import deserted_end, match_tick

__all__ = [
    "analysis_request",
    "analysis_run",
    "analysis_try",
    "bot_move",
    "bot_turn",
    "chat_post",
    "computer_turns_resume",
    "deserted_end",
    "game_resign",
    "hint_work",
    "match_abort",
    "match_abort_unplayed",
    "match_berserk",
    "match_claim",
    "match_create",
    "match_ready",
    "match_resign",
    "match_tick",
    "match_url",
    "member_leave_all",
    "member_matches_end",
    "member_seats_renamed",
    "move_play",
    "practice_hint",
    "practice_start",
    "practice_takeback",
    "presence_refresh",
    "presence_sweep",
    "rematch_lapse",
    "rematch_offer",
    "rematch_offers_between_end",
    "rematch_offers_withdraw",
    "rematch_refuse",
    "rematches_lapse",
    "seat_shown",
    "socket_close",
    "socket_open",
    "socket_seen",
    "table_refresh",
    "table_settings_check",
    "tv_match_keep",
]
