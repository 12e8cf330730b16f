"""Notifications sent after a transaction commits. They are only hints: a client that
misses one sees a gap in ``version`` and asks for the whole state again."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def group_name(match_id: int) -> str:
    return f"table-{match_id}"


def _send(match_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(match_id), message)


def table_changed(match_id: int) -> None:
    """Every socket at the table gets the new public state (each adds its own ``you``)."""
    from games.selectors import table_state

    state = table_state(match_id)
    if state is not None:
        _send(match_id, {"type": "table.state", "state": state})


def chat_posted(message_id: int) -> None:
    from games.models import ChatMessage
    from games.selectors import chat_payload

    message = ChatMessage.objects.select_related("author").filter(pk=message_id).first()
    if message is not None:
        _send(
            message.match_id,
            {"type": "table.chat", "audience": message.audience, "message": chat_payload(message)},
        )


def between_games_started(match_id: int) -> None:
    """Game 2 starts 60 s after game 1 ended if the players have not all pressed ready."""
    from games.services import NEXT_GAME_WAIT
    from games.tasks import next_game_start

    next_game_start.apply_async(args=[match_id], countdown=NEXT_GAME_WAIT.total_seconds() + 1)
