"""Telling a member's open sockets that their standing changed.

Every socket of a signed-in member joins two groups: one of the member and one of the
session it was opened with. A ban or an account deletion closes the member's sockets, a
logout closes that session's, within a second, with the close codes below
(docs/protocol.md). Each socket also re-reads the member's standing with every message,
so nothing sent before the close arrives acts (``games.store``: the seats are read with
the ban and the session).
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

CLOSE_SESSION_ENDED = 4401  # logged out, or the session expired
CLOSE_BANNED = 4403
CLOSE_ACCOUNT_DELETED = 4410
CLOSE_NOT_FOUND = 4404
CLOSE_SILENT = 4408  # sent nothing for PRESENCE_EXPIRY_SECONDS
CLOSE_TOO_MANY_SOCKETS = 4429


def member_group(member_id: int) -> str:
    return f"member-{member_id}"


def session_group(session_key: str) -> str:
    # Group names are limited in length and characters; the key itself never leaves here.
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def _close(group: str, code: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, {"type": "socket.close", "code": code})


def member_sockets_close(member_id: int, code: int) -> None:
    _close(member_group(member_id), code)


def session_sockets_close(session_key: str) -> None:
    _close(session_group(session_key), CLOSE_SESSION_ENDED)


def member_standing_changed(member_id: int) -> None:
    """The member's password or active flag changed: each of their sockets checks its own
    session again, and the ones it no longer authenticates close as at a logout."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(member_group(member_id), {"type": "socket.standing"})


def member_blocks_changed(member_id: int) -> None:
    """The member blocked or unblocked someone: each of their open tables reads again whose
    chat it hides (SPEC §14)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(member_group(member_id), {"type": "member.blocks"})


def member_chat_standing(member_id: int, muted: bool, until: datetime | None) -> None:
    """The moderators muted or unmuted the member's chat: their open tables disable or
    enable the chat box at once (a notice ``chat_standing``, docs/protocol.md)."""
    layer = get_channel_layer()
    if layer is not None:
        payload = {
            "kind": "chat_standing",
            "muted": muted,
            "until": until.isoformat() if until else None,
        }
        async_to_sync(layer.group_send)(
            member_group(member_id), {"type": "member.notify", "payload": payload}
        )


def token_group(token_id: int) -> str:
    """The API streams opened with one token (SPEC §15): revoking it ends them, and a new
    event stream replaces the one open before it."""
    return f"token-{token_id}"


def token_streams_end(token_id: int) -> None:
    """The token was revoked: its open streams end at once (each also checks its token at
    every keep-alive, so a lost message still ends it within seconds)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(token_group(token_id), {"type": "stream.end"})
