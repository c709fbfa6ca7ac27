"""The relay: the fake server hands every request to a person (or an outside model) through a
folder, so a capable model can be played by hand for a whole interview.

Each request is written as ``NNNN-<task>.request.md`` (what the model reads: system prompt,
messages, the forced tool's schema, how to reply) beside ``NNNN-<task>.request.json`` (the
body as the SDK sent it). The server then waits until ``NNNN-<task>.reply`` appears and answers
with it: for a structured task (extract, assess, propose_slots) a reply that is one JSON
object becomes the tool call's arguments, anything else is sent as the message text (a model
that wrote its JSON as prose); for a text task (a question, the opening) the reply is the
text, streamed when the request streams. Write a reply to a temporary name and rename it, so
the server never reads half a file.

Use::

    python -m tests.llm.fakeserver --dir /tmp/relay --port 8765 &
    INTERVIEW_LLM_CONFIG=/tmp/relay/llm.yaml interview run -c headphones_mec \\
        --provider openai-compatible --base-url http://127.0.0.1:8765/v1 --model relay

then read each ``*.request.md`` as it appears and write its ``.reply``. The relay writes
``llm.yaml`` into its folder: one attempt per call and timeouts of an hour, since a person
answers slower than a model (``--provider anthropic`` with ``ANTHROPIC_BASE_URL`` set to the
relay's address works alike).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .script import Step
from .tasks import TOOL_TASKS, schema_of, system_text, tool_name

REPLY_SUFFIX = ".reply"
SLOW_CLIENTS = "".join(
    f"  {client}: {{timeout_s: 3600, max_attempts: 1}}\n"
    for client in ("extraction", "scoring", "generation", "respondent")
)


@dataclass
class Relay:
    """Writes each request into ``folder`` and waits for its reply file there."""

    folder: Path
    poll_s: float = 0.1
    timeout_s: float | None = None  # None: wait as long as it takes
    _count: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        # Numbering carries on after the requests already in the folder (a resumed session).
        self._count = len(list(self.folder.glob("*.request.json")))

    def stop(self) -> None:
        self._stop.set()

    def exchange(self, api: str, task: str, body: dict[str, Any]) -> Step:
        """The step answering ``body``: the reply put in the folder, as the API sends it."""
        with self._lock:
            self._count += 1
            stem = f"{self._count:04d}-{task or 'unknown'}"
        (self.folder / f"{stem}.request.json").write_text(
            json.dumps(body, indent=2, ensure_ascii=False), encoding="utf-8"
        )
        (self.folder / f"{stem}.request.md").write_text(
            render_request(api, task, body, reply_name=stem + REPLY_SUFFIX), encoding="utf-8"
        )
        reply = self._wait(self.folder / f"{stem}{REPLY_SUFFIX}")
        if reply is None:
            return Step("server_error", message="the relay got no reply")
        return step_for(task, reply)

    def _wait(self, path: Path) -> str | None:
        started = time.monotonic()
        while not self._stop.is_set():
            if path.exists():
                return path.read_text(encoding="utf-8")
            if self.timeout_s is not None and time.monotonic() - started > self.timeout_s:
                return None
            self._stop.wait(self.poll_s)
        return None


def step_for(task: str, reply: str) -> Step:
    """How the server sends a reply: a tool call for a JSON object to a structured task,
    else text."""
    if task in TOOL_TASKS.values():
        try:
            value = json.loads(reply)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, dict):
            return Step(tool_input=value)
        return Step(content=reply)
    return Step(text=reply.strip())


def _message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return str(content or "")


def render_request(api: str, task: str, body: dict[str, Any], *, reply_name: str) -> str:
    """The request as the model reads it, with how to reply."""
    parts = [f"# {task or 'request'} ({api} API, model {body.get('model')})", ""]
    parts += ["## system", system_text(body).strip(), ""]
    for message in body.get("messages") or []:
        if not isinstance(message, dict) or message.get("role") == "system":
            continue
        parts += [f"## {message.get('role')}", _message_text(message).strip(), ""]
    schema = schema_of(api, body)
    tool = tool_name(api, body)
    if schema is not None:
        parts += [
            f"## tool {tool or '(json)'}: its arguments must match this schema",
            json.dumps(schema, indent=1, ensure_ascii=False),
            "",
        ]
        how = "one JSON object: the tool's arguments (anything else is sent as text)"
    else:
        how = "the text of your reply"
    parts += ["## reply", f"Write {how} to {reply_name} (write a temporary file, then rename)."]
    return "\n".join(parts) + "\n"
