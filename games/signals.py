"""Signals other apps answer; games itself knows nothing of them (the lobby sits above)."""

from django.dispatch import Signal

#: Sent inside the transaction that starts a match (``match``, ``members``): the lobby
#: withdraws the members' other waiting tables and challenges (SPEC §10).
match_started = Signal()

#: Sent inside the transaction that ends an arena's match, finished or aborted
#: (``match``, ``state``: the engine's ``MatchState``, ``seats``): the lobby scores it
#: for the arena (SPEC §12).
arena_match_ended = Signal()
