"""What a socket refuses to read: a deeply nested frame (refused, not logged), and chat
lines with bidirectional controls or nothing visible (``bad_message``)."""

import json
import logging

import pytest
from asgiref.sync import sync_to_async

from games.models import ChatMessage

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_deeply_nested_frame_is_refused_and_not_logged(connect, fast_table, alice, caplog):
    socket = await connect(fast_table, alice)
    frame = {"type": "chat", "text": "x", "extra": json.loads("[" * 9 + "1" + "]" * 9)}
    frame["marker"] = "SECRET-FRAME-TEXT"
    with caplog.at_level(logging.DEBUG):
        await socket.send(frame)
        assert (await socket.receive_type("error"))["code"] == "bad_message"
    assert "SECRET-FRAME-TEXT" not in caplog.text
    shallow = {"type": "chat", "text": "eight deep", "extra": json.loads("[" * 6 + "]" * 6)}
    await socket.send(shallow)
    assert (await socket.receive_type("chat"))["text"] == "eight deep"


@pytest.mark.parametrize(
    "text", ["\u202egg", "a\u2066b", "\u200b\u200b", "\u2060", "   ", "\u3164"]
)
async def test_chat_refuses_bidi_controls_and_invisible_lines(connect, fast_table, alice, text):
    socket = await connect(fast_table, alice)
    await socket.send({"type": "chat", "text": text})
    assert (await socket.receive_type("error"))["code"] == "bad_message"
    await socket.send({"type": "chat", "text": "gg\u00a0wp"})
    assert (await socket.receive_type("chat"))["text"] == "gg\u00a0wp"
    assert await sync_to_async(ChatMessage.objects.count)() == 1
