"""The websocket messages of a table (SPEC §7), parsed and validated in one place.

>>> parse('{"type": "move", "color": 3, "ply": 12}')
Move(color=3, ply=12)
>>> parse('{"type": "dance"}')
Traceback (most recent call last):
...
games.errors.TableError: Unknown message type 'dance'.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games.errors import TableError, interpolated

MAX_MESSAGE_BYTES = 4096
MAX_CHAT_LENGTH = 500
MAX_NESTING = 8  # no message of the protocol nests deeper than 2
# Control characters (NUL among them: PostgreSQL refuses it in text), lone surrogates and
# private-use characters have no place in a chat line.
_FORBIDDEN_CATEGORIES = {"Cc", "Cs", "Co", "Cn"}
# Characters that reorder the text around them: a line could show other words than it has.
_BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e") | set(
    "\u2066\u2067\u2068\u2069"
)
# What draws nothing: spaces, formatting, combining marks alone, and the blank letters.
_INVISIBLE_CATEGORIES = {"Zs", "Zl", "Zp", "Cf", "Mn", "Me"}
_BLANK_LETTERS = set("\u115f\u1160\u3164\uffa0\u2800\u180e")


@dataclass(frozen=True, slots=True)
class Move:
    color: int | str
    ply: int


@dataclass(frozen=True, slots=True)
class Resign:
    scope: str  # "game" or "match"


@dataclass(frozen=True, slots=True)
class Chat:
    text: str


@dataclass(frozen=True, slots=True)
class Simple:
    """A message with no fields: ready, sync, claim, rematch, hint, takeback, abort,
    berserk, ping."""

    type: str


SIMPLE_TYPES = {
    "ready",
    "sync",
    "claim",
    "rematch",
    "hint",
    "takeback",
    "abort",
    "berserk",
    "ping",
}
Message = Move | Resign | Chat | Simple


def _bad(message) -> TableError:
    return TableError("bad_message", message)


def check_text(text: str) -> str:
    """A chat line as it may be stored: trimmed, 1–500 characters, no control characters,
    nothing that reorders the text, something visible."""
    text = text.strip()
    if not text or len(text) > MAX_CHAT_LENGTH:
        raise _bad(
            interpolated(_("A chat message has 1 to %(max)d characters."), {"max": MAX_CHAT_LENGTH})
        )
    if any(unicodedata.category(char) in _FORBIDDEN_CATEGORIES for char in text):
        raise _bad(_("A chat message cannot hold control characters."))
    if any(char in _BIDI_CONTROLS for char in text):
        raise _bad(_("A chat message cannot hold characters that reorder the text."))
    if all(
        unicodedata.category(char) in _INVISIBLE_CATEGORIES or char in _BLANK_LETTERS
        for char in text
    ):
        raise _bad(_("A chat message needs something to read."))
    return text


def _nesting(text: str) -> int:
    """How deeply the frame's objects and lists nest (strings skipped), read before the
    JSON parser so that a deep frame costs no recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse(text: str | None, data: bytes | None = None) -> Message:
    """Turn one websocket frame into a message or raise ``TableError``."""
    if text is None:
        raise _bad(_("Send JSON text frames."))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise _bad(
            interpolated(
                _("A message may not be longer than %(max)d bytes."), {"max": MAX_MESSAGE_BYTES}
            )
        )
    if _nesting(text) > MAX_NESTING:
        raise _bad(_("A message may not nest objects and lists this deeply."))
    try:
        payload = json.loads(text)
    except ValueError:
        raise _bad(_("A message must be JSON.")) from None
    if not isinstance(payload, dict):
        raise _bad(_("A message must be a JSON object."))
    return message(payload)


def message(payload: dict[str, Any]) -> Message:
    """A decoded message (a frame's JSON object, or the fields of an API call, SPEC §15)
    checked as a frame is, or ``TableError``.

    >>> message({"type": "move", "color": "swap", "ply": 1})
    Move(color='swap', ply=1)
    """
    kind = payload.get("type")
    if not isinstance(kind, str):
        raise _bad(_("A message needs a string 'type'."))
    if kind == "move":
        return _move(payload)
    if kind == "resign":
        scope = payload.get("scope")
        if scope not in ("game", "match"):
            raise _bad(_("'scope' must be 'game' or 'match'."))
        return Resign(scope)
    if kind == "chat":
        text = payload.get("text")
        if not isinstance(text, str):
            raise _bad(_("'text' must be a string."))
        return Chat(check_text(text))
    if kind in SIMPLE_TYPES:
        return Simple(kind)
    raise _bad(interpolated(_("Unknown message type %(type)r."), {"type": kind[:40]}))


def _move(payload: dict[str, Any]) -> Move:
    color, ply = payload.get("color"), payload.get("ply")
    if not _is_int(ply) or ply < 0:
        raise _bad(_("'ply' must be a whole number: the moves already played in this game."))
    if color == "swap":
        return Move(color, ply)
    if not _is_int(color):
        raise _bad(_("'color' must be a colour number 1-9 or 'swap'."))
    if not 1 <= color <= 9:
        raise TableError("illegal_color", _("There is no such colour: colours are 1-9."))
    return Move(color, ply)


def error(code: str, message) -> dict[str, str]:
    """An error message for the socket, in the language active now."""
    return {"type": "error", "code": code, "message": str(message)}


#: The quick messages a player sends with one press. A line is one of them exactly as
#: written here (in English, as programs and moderators read it), and each page shows it in
#: its reader's language: players who share no language can still greet and thank.
CHAT_PRESETS = (
    gettext_noop("Hello!"),
    gettext_noop("Good luck!"),
    gettext_noop("Have fun!"),
    gettext_noop("Good game!"),
    gettext_noop("Well played!"),
    gettext_noop("Thank you!"),
)


def chat(
    pk: int, username: str | None, text: str, at: datetime, spectators_only: bool
) -> dict[str, Any]:
    """A chat line as sockets send it."""
    return {
        "type": "chat",
        "id": pk,
        "username": username,
        "text": text,
        "at": at.isoformat(),
        "spectators_only": spectators_only,
    }
