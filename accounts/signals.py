"""Signals other apps answer; accounts itself knows nothing of them."""

from django.dispatch import Signal

#: Sent inside the deletion's transaction, before the member row goes
#: (``member`` argument). The games app ends the member's matches in play, the lobby
#: withdraws their waiting tables and challenges.
member_deleting = Signal()

#: Sent inside the ban's transaction (``member`` argument): the games app ends the
#: member's matches in play, the lobby withdraws their waiting tables and challenges.
member_banned = Signal()

#: Sent inside the block's transaction (``blocker`` and ``blocked`` arguments): the lobby
#: ends the challenges waiting between the two, the games app the rematch offers of their
#: finished matches. Nothing starts between them that one of them asked for before.
member_blocked = Signal()
