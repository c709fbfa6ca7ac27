"""A local fake of the two provider HTTP APIs, scriptable per request (issue 4, item 9).

respx cannot intercept the installed SDK versions (they ship their own HTTP stack), so the
contract tests point the *real* ``AsyncAnthropic`` / ``AsyncOpenAI`` clients at this server on
127.0.0.1 and an ephemeral port. It speaks:

- anthropic ``POST /v1/messages``: forced tool use (``tool_use`` block with an ``input`` dict)
  and ``stream: true`` server-sent events (message_start ... message_stop);
- openai-compatible ``POST /v1/chat/completions``: ``tool_calls`` with JSON-string
  ``arguments``, ``response_format`` json_object, and ``stream: true`` chunks ending in
  ``[DONE]`` (with a usage chunk when ``stream_options.include_usage`` is set).

Each request takes the next scripted :class:`Step` (``ok`` when the script is empty, or a
seeded random fault when ``fault_rate`` is set). Every request is recorded (path, headers,
JSON body) so tests can assert what the SDK actually sent.
"""

from __future__ import annotations

import json
import random
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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
    # Answer only once this is set (or the server stops): a request the test holds the client
    # at for as long as it needs, whatever the load; recorded before it waits.
    hold: threading.Event | None = None


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    step: Step


@dataclass
class FakeLLMServer:
    """Start with :meth:`start`; point SDKs at ``anthropic_base_url`` / ``openai_base_url``."""

    text_reply: str = "What does having that routine give you on a busy morning?"
    tool_inputs: dict[str, Any] = field(default_factory=dict)
    bad_args: Any = field(default_factory=lambda: {"unexpected": "shape"})
    slow_s: float = 0.5
    fault_rate: float = 0.0
    fault_kinds: tuple[str, ...] = FAULTS
    echo_key: bool = False  # error bodies repeat the key they received, as some proxies do
    seed: int = 0
    # A model's context, in request-body characters: a longer request gets the 400 that real
    # providers send for a prompt that does not fit (None: no limit).
    context_chars: int | None = None
    # Prompt caching as the APIs report it: (tokens written to the cache, tokens read from it).
    # Anthropic reports both apart from input_tokens; OpenAI reports reads inside
    # prompt_tokens as prompt_tokens_details.cached_tokens.
    cache_tokens: tuple[int, int] = (0, 0)
    requests: list[Recorded] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._script: deque[Step] = deque()
        self._lock = threading.Lock()
        self._rng = random.Random(self.seed)
        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._serving = False

    # -- lifecycle -------------------------------------------------------------------------
    def start(self, *, serve: bool = True) -> FakeLLMServer:
        """Listen on an ephemeral port and, unless ``serve`` is False, answer (:meth:`serve`):
        until then connections wait in the listen queue, accepted by no one."""
        server = self

        class Handler(_Handler):
            fake = server

        httpd = _Listener(("127.0.0.1", 0), Handler)
        httpd.daemon_threads = True
        httpd.block_on_close = False  # a slow handler must not hold up the test's teardown
        self._httpd = httpd
        if serve:
            self.serve()
        return self

    def serve(self) -> None:
        """Accept and answer connections, from now on."""
        assert self._httpd is not None, "server not started"
        self._serving = True
        threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    def stop(self) -> None:
        self._stop.set()  # releases handlers waiting in a "slow" step
        if self._httpd is not None:
            if self._serving:
                self._httpd.shutdown()  # waits for serve_forever to end: only if it runs
            self._httpd.server_close()

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def anthropic_base_url(self) -> str:
        return self.url  # the anthropic SDK appends /v1 itself

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"

    def reset(self) -> None:
        """Back to a fresh server's behaviour (the fixture shares one server per session:
        starting and stopping one per test would cost more than the tests themselves)."""
        fresh = FakeLLMServer()
        with self._lock:
            for name in (
                "text_reply",
                "tool_inputs",
                "bad_args",
                "slow_s",
                "fault_rate",
                "fault_kinds",
                "echo_key",
                "seed",
                "context_chars",
                "cache_tokens",
                "requests",
            ):
                setattr(self, name, getattr(fresh, name))
            self._script.clear()
            self._rng = random.Random(self.seed)

    def randomize(self, rate: float, *, seed: int, kinds: tuple[str, ...] = FAULTS) -> None:
        """From now on, answer each unscripted request with a fault at ``rate`` (seeded)."""
        with self._lock:
            self.fault_rate, self.fault_kinds, self.seed = rate, kinds, seed
            self._rng = random.Random(seed)

    # -- scripting -------------------------------------------------------------------------
    def script(self, *steps: Step | str) -> None:
        with self._lock:
            self._script.extend(Step(s) if isinstance(s, str) else s for s in steps)

    def next_step(self) -> Step:
        with self._lock:
            if self._script:
                return self._script.popleft()
            if self.fault_rate and self._rng.random() < self.fault_rate:
                return Step(self._rng.choice(self.fault_kinds))
            return Step("ok")

    def wait(self, seconds: float) -> None:
        self._stop.wait(seconds)


class _Listener(ThreadingHTTPServer):
    # socketserver's default backlog is 5: a client that opens more connections at once (a
    # batch at concurrency 16 or 64) gets its SYNs dropped and retries each after a second,
    # which would time the fake's accept queue instead of the client.
    request_queue_size = 1024


class _Handler(BaseHTTPRequestHandler):
    fake: FakeLLMServer
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without TCP_NODELAY every response waits
    # ~40 ms for a delayed ACK, which would dominate the suite's run time.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet test output
        return

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {}
        step = self.fake.next_step()
        limit = self.fake.context_chars
        if limit is not None and len(raw) > limit:
            step = Step(
                "status",
                status=400,
                message=f"prompt is too long: {len(raw)} "
                f"characters > {limit} maximum context length",
            )
        self.fake.requests.append(
            Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body, step)
        )
        if self.path.rstrip("/") == "/v1/messages":
            api = "anthropic"
        elif self.path.rstrip("/") == "/v1/chat/completions":
            api = "openai"
        else:
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        if step.hold is not None:
            while not step.hold.wait(0.05) and not self.fake._stop.is_set():
                pass
        if step.delay_s:
            self.fake.wait(step.delay_s)
        _respond(self, api, body, step)

    # -- low-level writers -----------------------------------------------------------------
    def _send(
        self,
        status: int,
        payload: Any,
        *,
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
    ) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout): nothing to do

    def _send_sse(self, events: list[bytes], *, cut: bool = False) -> None:
        data = b"".join(events)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        # cut: promise more than is sent, then hang up (a connection dropped mid-stream)
        self.send_header("content-length", str(len(data) * (2 if cut else 1)))
        self.end_headers()
        if cut:
            self.close_connection = True
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


def _tool_name(api: str, body: dict[str, Any]) -> str | None:
    choice = body.get("tool_choice")
    if api == "anthropic":
        if isinstance(choice, dict) and choice.get("type") == "tool":
            return str(choice.get("name"))
    elif isinstance(choice, dict):
        return str(choice.get("function", {}).get("name"))
    tools = body.get("tools") or []
    if tools:
        first = tools[0]
        return str(first.get("name") or first.get("function", {}).get("name"))
    return None


def _named_in_prompt(fake: FakeLLMServer, body: dict[str, Any]) -> str:
    """json_object mode sends no tool: find which scripted tool the prompt talks about."""
    text = json.dumps(body.get("messages", []))
    return next((name for name in fake.tool_inputs if name in text), "")


def _error_body(api: str, status: int, message: str) -> dict[str, Any]:
    if api == "anthropic":
        kind = {
            429: "rate_limit_error",
            529: "overloaded_error",
            401: "authentication_error",
            400: "invalid_request_error",
            404: "not_found_error",
        }.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": "server_error", "code": str(status)}}


def _respond(h: _Handler, api: str, body: dict[str, Any], step: Step) -> None:
    fake = h.fake
    kind = step.kind
    if kind in ("rate_limit", "server_error", "overloaded", "status"):
        status = {"rate_limit": 429, "server_error": 500, "overloaded": 529}.get(kind, step.status)
        assert status is not None
        headers = {}
        if kind == "rate_limit" or step.retry_after is not None:
            headers["retry-after"] = step.retry_after if step.retry_after is not None else "1"
        message = step.message or f"fake {status}"
        if fake.echo_key:
            sent = h.headers.get("x-api-key") or h.headers.get("authorization", "")
            message += f" (request made with key {sent.removeprefix('Bearer ')})"
        h._send(status, _error_body(api, status, message), headers=headers)
        return
    if kind == "cut_stream":
        events = (
            _anthropic_stream
            if api == "anthropic"
            else lambda m, t: _openai_stream(m, t, include_usage=False)
        )(str(body.get("model")), fake.text_reply)
        h._send_sse(events[: len(events) // 2], cut=True)
        return
    if kind == "slow":
        fake.wait(step.delay_s or fake.slow_s)
        kind = "ok"  # if the client is still listening, it gets a good answer
    stream = bool(body.get("stream"))
    if kind == "invalid_json":
        if stream:
            h._send_sse([_sse("message_start" if api == "anthropic" else None, '{"type": "mess')])
        else:
            h._send(200, b'{"id": "msg_1", "content": [', content_type="application/json")
        return
    if kind == "text_plain":
        h._send(200, b"upstream proxy says hello", content_type="text/plain")
        return
    if kind == "wrong_shape":
        if stream:
            h._send_sse([_sse("surprise" if api == "anthropic" else None, {"unexpected": 1})])
        else:
            h._send(200, {"unexpected": ["shape"], "status": "fine"})
        return

    tool = _tool_name(api, body)
    wants_json = (body.get("response_format") or {}).get("type") == "json_object"
    text = step.text if step.text is not None else fake.text_reply
    tool_input: Any = None
    if (tool or wants_json) and kind != "no_tool":
        if kind == "bad_args":
            tool_input = fake.bad_args
        elif step.tool_input is not None:
            tool_input = step.tool_input
        else:
            tool_input = fake.tool_inputs.get(tool or _named_in_prompt(fake, body), {})
    if kind == "no_tool" and tool:
        text = "I would rather just talk about it."
    if kind == "bad_args" and not (tool or wants_json):
        text = ""  # the text tasks' schema violation: an empty answer
    model = str(body.get("model", "fake-model"))
    write, read = fake.cache_tokens
    if api == "anthropic":
        cache = {"cache_creation_input_tokens": write, "cache_read_input_tokens": read}
        if stream:
            events = _anthropic_stream(model, text)
            start = json.loads(events[0].decode().split("data: ", 1)[1])
            start["message"]["usage"].update(cache)
            events[0] = _sse("message_start", start)
            h._send_sse(events)
        else:
            payload = _anthropic_message(model, tool, tool_input, text)
            payload["usage"].update(cache)
            h._send(200, payload)
    else:
        if stream:
            h._send_sse(
                _openai_stream(
                    model,
                    text,
                    include_usage=bool((body.get("stream_options") or {}).get("include_usage")),
                )
            )
        else:
            payload = _openai_completion(model, tool, tool_input, text, wants_json)
            if read:
                payload["usage"]["prompt_tokens"] += read
                payload["usage"]["prompt_tokens_details"] = {"cached_tokens": read}
            if step.raw_arguments is not None and tool:
                payload["choices"][0]["message"]["tool_calls"] = [
                    {
                        "id": "call_fake1",
                        "type": "function",
                        "function": {"name": tool, "arguments": step.raw_arguments},
                    }
                ]
            h._send(200, payload)


# -- anthropic payloads ------------------------------------------------------------------------
def _anthropic_message(model: str, tool: str | None, tool_input: Any, text: str) -> dict[str, Any]:
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


def _sse(event: str | None, data: Any) -> bytes:
    head = f"event: {event}\n" if event else ""
    payload = data if isinstance(data, str) else json.dumps(data)
    return f"{head}data: {payload}\n\n".encode()


def _chunks(text: str) -> list[str]:
    words = text.split(" ")
    return [w if i == 0 else " " + w for i, w in enumerate(words)]


def _anthropic_stream(model: str, text: str) -> list[bytes]:
    events = [
        _sse(
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
        _sse(
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
            _sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": piece},
                },
            )
        )
    events += [
        _sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        _sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 15},
            },
        ),
        _sse("message_stop", {"type": "message_stop"}),
    ]
    return events


# -- openai payloads ---------------------------------------------------------------------------
def _openai_completion(
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


def _openai_stream(model: str, text: str, *, include_usage: bool) -> list[bytes]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-fake1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    events = [_sse(None, chunk({"role": "assistant", "content": ""}))]
    events += [_sse(None, chunk({"content": piece})) for piece in _chunks(text)]
    events.append(_sse(None, chunk({}, "stop")))
    if include_usage:
        events.append(
            _sse(
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
    events.append(_sse(None, "[DONE]"))
    return events
