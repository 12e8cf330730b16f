"""The websocket messages of a table (SPEC §7), parsed and validated in one place.

>>> parse('{"type": "move", "color": 3, "ply": 12}')
Move(color=3, ply=12)
>>> parse('{"type": "dance"}')
Traceback (most recent call last):
...
games.errors.TableError: unknown message type 'dance'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from games.errors import TableError

MAX_MESSAGE_BYTES = 4096
MAX_CHAT_LENGTH = 500


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
    """A message with no fields: ready, sync, claim, rematch, hint, takeback."""

    type: str


SIMPLE_TYPES = {"ready", "sync", "claim", "rematch", "hint", "takeback"}
Message = Move | Resign | Chat | Simple


def _bad(message: str) -> TableError:
    return TableError("bad_message", message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse(text: str | None, data: bytes | None = None) -> Message:
    """Turn one websocket frame into a message or raise ``TableError``."""
    if text is None:
        raise _bad("send JSON text frames")
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise _bad(f"a message may not be longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        payload = json.loads(text)
    except ValueError:
        raise _bad("a message must be JSON") from None
    if not isinstance(payload, dict):
        raise _bad("a message must be a JSON object")
    kind = payload.get("type")
    if not isinstance(kind, str):
        raise _bad("a message needs a string 'type'")
    if kind == "move":
        return _move(payload)
    if kind == "resign":
        scope = payload.get("scope")
        if scope not in ("game", "match"):
            raise _bad("'scope' must be 'game' or 'match'")
        return Resign(scope)
    if kind == "chat":
        text = payload.get("text")
        if not isinstance(text, str):
            raise _bad("'text' must be a string")
        if not text.strip() or len(text) > MAX_CHAT_LENGTH:
            raise _bad(f"a chat message has 1 to {MAX_CHAT_LENGTH} characters")
        return Chat(text)
    if kind in SIMPLE_TYPES:
        return Simple(kind)
    raise _bad(f"unknown message type {kind[:40]!r}")


def _move(payload: dict[str, Any]) -> Move:
    color, ply = payload.get("color"), payload.get("ply")
    if not _is_int(ply) or ply < 0:
        raise _bad("'ply' must be a whole number, the moves already played in this game")
    if color == "swap":
        return Move(color, ply)
    if not _is_int(color):
        raise _bad("'color' must be a colour number 1-9 or 'swap'")
    if not 1 <= color <= 9:
        raise TableError("illegal_color", f"there is no colour {color}; colours are 1-9")
    return Move(color, ply)


def error(code: str, message: str) -> dict[str, str]:
    return {"type": "error", "code": code, "message": message}
