"""VOG TV's own match: two computers the site keeps playing, so that /tv/ and the home
page always have a match to show (docs/architecture.md, "VOG TV").

Every function here follows the site's rule that nobody is seated without their own
action: only computers sit at the match (``Match.House.TV``). It starts through
``match_create`` like any match and is played like any table with computer seats, with
three differences kept where they apply: each computer move waits 2–4 s
(``commit.state_commit`` asks ``timing.computer_pause``), that pause runs on the
computer's clock as thinking time (``practice.bot_turn``), and the deserted rule never
ends it (``timeouts.deserted_end``: nobody sits there to desert it; its clock still ends
it if no worker plays). At most one is in play at a time: a partial unique index
(``one_tv_match_in_play``) refuses a second however many callers start one at once.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from games.models import ChatMessage, Match
from games.services.commit import ACTIVE
from games.services.seating import match_create

#: the variants VOG TV's computers play, one picked at random for each match
TV_VARIANTS = ("classic", "hex", "fast")
#: the computers' levels by seat: greedy (SPEC §11 level 2), quick to work out
TV_LEVELS = {0: 2, 1: 2}
TV_CLOCK = "3+2"
#: finished matches of the computers are deleted after this long (unless someone chatted)
TV_KEPT = timedelta(days=2)


def tv_house_match() -> Match | None:
    """VOG TV's match of two computers in play, if there is one."""
    return Match.objects.filter(house=Match.House.TV, status__in=ACTIVE).first()


def tv_match_keep(*, now: datetime) -> Match:
    """VOG TV's match of two computers: the one in play, else one started now (beat asks
    every few seconds; /tv/ asks when it finds nothing to show). Idempotent: when two
    callers start one at once, the unique index lets one in and the other returns it.

    >>> tv_match_keep(now=timezone.now()).house  # doctest: +SKIP
    'tv'
    """
    running = tv_house_match()
    if running is not None:
        return running
    _finished_removed(now)
    try:
        with transaction.atomic():
            return match_create(
                variant=secrets.choice(TV_VARIANTS),
                members=[],
                bots=TV_LEVELS,
                clock=TV_CLOCK,
                now=now,
                house=Match.House.TV,
            )
    except IntegrityError:
        # Another caller started it a moment ago (the index waited for its commit).
        running = tv_house_match()
        if running is None:
            raise
        return running


def _finished_removed(now: datetime) -> int:
    """Forget the computers' matches finished long ago: ~300 a day would pile up. One
    where someone chatted is kept (a report may name its lines)."""
    chatted = ChatMessage.objects.filter(match=OuterRef("pk"))
    old = Match.objects.filter(
        house=Match.House.TV,
        status__in=(Match.Status.FINISHED, Match.Status.ABORTED),
        finished_at__lt=now - TV_KEPT,
    ).exclude(Exists(chatted))
    return old.delete()[0]
