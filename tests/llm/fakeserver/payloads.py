"""The two APIs' wire payloads as the real services send them: an anthropic message or its
server-sent events, an openai-compatible chat completion or its chunks."""

from __future__ import annotations

import json
from typing import Any


# -- anthropic payloads ------------------------------------------------------------------------
def anthropic_message(model: str, tool: str | None, tool_input: Any, text: str) -> dict[str, Any]:
    if tool_input is not None and tool:
        content: list[dict[str, Any]] = [
            {"type": "tool_use", "id": "toolu_fake1", "name": tool, "input": tool_input}
        ]
        stop = "tool_use"
    else:
        content = [{"type": "text", "text": text}]
        stop = "end_turn"
    return {
        "id": "msg_fake1",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 120, "output_tokens": 40},
    }


def sse(event: str | None, data: Any) -> bytes:
    head = f"event: {event}\n" if event else ""
    payload = data if isinstance(data, str) else json.dumps(data)
    return f"{head}data: {payload}\n\n".encode()


def _chunks(text: str) -> list[str]:
    words = text.split(" ")
    return [w if i == 0 else " " + w for i, w in enumerate(words)]


def anthropic_stream(model: str, text: str) -> list[bytes]:
    events = [
        sse(
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "msg_fake1",
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 90, "output_tokens": 1},
                },
            },
        ),
        sse(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
    ]
    for piece in _chunks(text):
        events.append(
            sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": piece},
                },
            )
        )
    events += [
        sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 15},
            },
        ),
        sse("message_stop", {"type": "message_stop"}),
    ]
    return events


# -- openai payloads ---------------------------------------------------------------------------
def openai_completion(
    model: str, tool: str | None, tool_input: Any, text: str, wants_json: bool
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None}
    finish = "stop"
    if tool_input is not None and tool and not wants_json:
        message["tool_calls"] = [
            {
                "id": "call_fake1",
                "type": "function",
                "function": {"name": tool, "arguments": json.dumps(tool_input)},
            }
        ]
        finish = "tool_calls"
    elif tool_input is not None and wants_json:
        message["content"] = json.dumps(tool_input)
    else:
        message["content"] = text
    return {
        "id": "chatcmpl-fake1",
        "object": "chat.completion",
        "created": 1,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 110, "completion_tokens": 35, "total_tokens": 145},
    }


def openai_stream(model: str, text: str, *, include_usage: bool) -> list[bytes]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-fake1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    events = [sse(None, chunk({"role": "assistant", "content": ""}))]
    events += [sse(None, chunk({"content": piece})) for piece in _chunks(text)]
    events.append(sse(None, chunk({}, "stop")))
    if include_usage:
        events.append(
            sse(
                None,
                {
                    "id": "chatcmpl-fake1",
                    "object": "chat.completion.chunk",
                    "created": 1,
                    "model": model,
                    "choices": [],
                    "usage": {"prompt_tokens": 80, "completion_tokens": 12, "total_tokens": 92},
                },
            )
        )
    events.append(sse(None, "[DONE]"))
    return events
