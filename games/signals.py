"""Signals other apps answer; games itself knows nothing of them (the lobby sits above)."""

from django.dispatch import Signal

#: Sent inside the transaction that starts a match (``match``, ``members``): the lobby
#: withdraws the members' other waiting tables and challenges (SPEC §10).
match_started = Signal()
