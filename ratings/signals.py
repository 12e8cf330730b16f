"""Signals other apps answer; ratings itself knows nothing of them (``games`` and the
lobby sit above)."""

from django.dispatch import Signal

#: Sent inside the transaction of a recalculation, under the scale's lock, once a replay
#: rewrote ratings it had stored or went over annulled matches (an annulment, a result
#: that came after later ones, ``recalculate_ratings``): ``scale`` and ``match_ids``,
#: every match of the scale from where the replay started, annulled ones included. The
#: ratings before each of them may have changed; the lobby works out its arenas' results
#: again (SPEC §12).
scale_recalculated = Signal()
