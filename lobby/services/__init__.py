"""The lobby's writes: tables that wait for players, challenges, Play now, and what
withdraws them (SPEC §10), by job:

- ``tables``: open, join, leave and cancel a waiting table, Play now, the computer in
  empty seats, the demo's table the computer hosts;
- ``challenges``: send, accept, decline, cancel, expire;
- ``withdrawals``: a member's waiting tables and challenges withdrawn when their match
  starts, they are banned or they have gone;
- ``members``: the checks every seat-taking action makes first;
- ``arenas``: arenas created, entered, withdrawn from, cancelled, started and ended;
- ``arena_play``: an arena's entrants paired, and its matches scored as they end;
- ``arena_rescoring``: an arena's results worked out again when ratings were
  recalculated (an annulment);
- ``bots``: a member becomes a bot account (SPEC §15);
- ``reports``: a member's report of another, checked against the tables (SPEC §14).

One transaction each; matches start through ``games.services.match_create``.
"""

from lobby.services.arena_play import arena_match_scored, arena_pair, arenas_pair
from lobby.services.arena_rescoring import arena_rescore, arenas_rescore
from lobby.services.arenas import (
    arena_cancel,
    arena_create,
    arena_join,
    arena_settings_check,
    arena_update,
    arena_withdraw,
    arenas_advance,
    arenas_schedule,
)
from lobby.services.bots import bot_upgrade
from lobby.services.challenges import (
    challenge_accept,
    challenge_cancel,
    challenge_decline,
    challenge_notice,
    challenge_send,
    challenges_between_end,
    challenges_expire,
)
from lobby.services.reports import member_report
from lobby.services.tables import (
    house_table_keep,
    play_now,
    table_cancel,
    table_fill_bots,
    table_join,
    table_leave,
    table_open,
)
from lobby.services.withdrawals import hosts_gone_withdraw, member_waiting_withdraw

__all__ = [
    "arena_cancel",
    "arena_create",
    "arena_join",
    "arena_match_scored",
    "arena_pair",
    "arena_rescore",
    "arena_settings_check",
    "arena_update",
    "arena_withdraw",
    "arenas_advance",
    "arenas_pair",
    "arenas_rescore",
    "arenas_schedule",
    "bot_upgrade",
    "challenge_accept",
    "challenge_cancel",
    "challenge_decline",
    "challenge_notice",
    "challenge_send",
    "challenges_between_end",
    "challenges_expire",
    "hosts_gone_withdraw",
    "house_table_keep",
    "member_report",
    "member_waiting_withdraw",
    "play_now",
    "table_cancel",
    "table_fill_bots",
    "table_join",
    "table_leave",
    "table_open",
]
