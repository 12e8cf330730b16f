"""The errors a table answers with, in the person's language."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.errors import Refusal
from accounts.errors import interpolated as interpolated  # where the tables import it from
from games.engine.clock import ClockError
from games.engine.errors import IllegalMove
from games.engine.match import MatchError


class TableError(Refusal):
    """A request the table refuses. ``code`` is the protocol's error code (SPEC §7);
    ``message`` is for the person (translated when shown)."""


class Revoked(TableError):
    """The member may no longer act on this socket (banned, logged out, deleted): the
    socket is closed with ``close_code`` (docs/protocol.md)."""

    def __init__(self, close_code: int) -> None:
        super().__init__("not_allowed", _("You can no longer act here."))
        self.close_code = close_code


# The engine speaks English for logs; people read these. Keys: the engine's messages
# (fixed strings) and, for an illegal colour, the reason the engine gives.
ENGINE_MESSAGES = {
    "this seat is out": _("You are out of this match."),
    "it is not your turn": _("It is not your turn."),
    "there is no next game to be ready for": _("There is no next game to be ready for."),
    "there is no next game to start": _("There is no next game to start."),
    "this seat is already out of this game": _("You are already out of this game."),
    "the match can no longer be aborted": _("The match can no longer be aborted."),
    "the match is not finished": _("The match is not finished."),
    "no such seat": _("There is no such seat at this table."),
    "this game is over; the next one has not started": _(
        "This game is over; the next one has not started."
    ),
    "the match is over": _("The match is over."),
    "this seat is already out": _("You are already out of this match."),
}
ILLEGAL_MESSAGES = {
    "own": _("That is your own colour: choose another."),
    "opponent": _("An opponent has that colour now: choose another."),
    "palette": _("There is no such colour on this board."),
    "swap": _("Swapping is allowed only as the answer to the first move (pie rule)."),
    "game_over": _("The game is over."),
}


def illegal_message(reason: str) -> Promise:
    """Why a colour cannot be chosen (the engine's reason), in words people read."""
    return ILLEGAL_MESSAGES.get(reason, _("You cannot choose that colour now."))


def from_engine(error: MatchError) -> TableError:
    """The engine's refusal as the table's error, with a message people can read."""
    cause = error.__cause__
    if isinstance(cause, IllegalMove):
        message = illegal_message(cause.reason)
    else:
        message = ENGINE_MESSAGES.get(str(error), _("That is not possible here or now."))
    return TableError(error.code, message)


CLOCK_MESSAGES = {
    "format": _("Write the clock as minutes+seconds, for example 7+4 (half a minute: 0.5+4)."),
    "minutes": _("A clock has half a minute or 1 to 60 whole minutes."),
    "increment": _("A clock adds 0 to 30 seconds a move."),
}


def clock_message(error: ClockError) -> Promise:
    """Why a clock text is refused (the engine's reason), in words people read."""
    return CLOCK_MESSAGES.get(error.reason, CLOCK_MESSAGES["format"])
