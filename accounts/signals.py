"""Signals other apps answer; accounts itself knows nothing of them."""

from django.dispatch import Signal

#: Sent inside the deletion's transaction, before the member row goes
#: (``member`` argument). The games app resigns the member's running matches.
member_deleting = Signal()
