"""The fake server's script: the faults it can play, what it does with one request
(:class:`Step`) and what it keeps of each request (:class:`Recorded`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

# Every fault the contract tests cover, by name.
FAULTS: tuple[str, ...] = (
    "rate_limit",  # 429 with Retry-After
    "server_error",  # 500
    "overloaded",  # 529
    "slow",  # answers after the client's timeout
    "invalid_json",  # 200, application/json, body is not JSON
    "wrong_shape",  # 200, JSON of the wrong shape
    "text_plain",  # 200, text/plain
    "bad_args",  # 200, tool arguments that violate the schema (text tasks: an empty answer)
    "no_tool",  # 200, a text answer where a tool call was forced
)
# Not in FAULTS (it only applies to streamed requests): the connection drops mid-stream.
CUT_STREAM = "cut_stream"
TRANSPORT_FAULTS = (
    "rate_limit",
    "server_error",
    "overloaded",
    "slow",
    "invalid_json",
    "wrong_shape",
    "text_plain",
)
OUTPUT_FAULTS = ("bad_args", "no_tool")


@dataclass
class Step:
    """What the server does with one request."""

    kind: str = "ok"
    status: int | None = None  # for kind "status": any HTTP status with an error body
    retry_after: str | None = None
    delay_s: float = 0.0
    tool_input: Any = None  # overrides the tool input of an ok answer
    text: str | None = None  # overrides the text of an ok answer
    message: str | None = None  # the error message of a "status" step
    raw_arguments: str | None = None  # openai: send this string as the tool arguments
    # Answer in text with exactly this content, whatever was asked: a model that writes its
    # JSON as text (fenced, or with prose around it) instead of calling the forced tool.
    content: str | None = None
    # Answer only once this is set (or the server stops): a request the test holds the client
    # at for as long as it needs, whatever the load; recorded before it waits.
    hold: threading.Event | None = None


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    step: Step
