"""The fake server itself: :class:`FakeLLMServer` (lifecycle, scripting, resetting between
tests) and the HTTP handler that records each request, takes its step and has
:mod:`.replies` answer it."""

from __future__ import annotations

import json
import random
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from .replies import respond
from .script import FAULTS, Recorded, Step
from .tasks import task_of

if TYPE_CHECKING:
    from .relay import Relay


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
    # Set: every request is written to the relay's folder and answered with the reply a person
    # (or an outside model) puts there (``relay``), instead of from the script.
    relay: Relay | None = None

    def __post_init__(self) -> None:
        self._script: deque[Step] = deque()
        self._by_task: dict[str, deque[Step]] = {}
        self._lock = threading.Lock()
        self._rng = random.Random(self.seed)
        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._serving = False

    # -- lifecycle -------------------------------------------------------------------------
    def start(self, *, serve: bool = True, port: int = 0) -> FakeLLMServer:
        """Listen on ``port`` (0: an ephemeral one) and, unless ``serve`` is False, answer
        (:meth:`serve`): until then connections wait in the listen queue, accepted by no one."""
        server = self

        class Handler(RequestHandler):
            fake = server

        httpd = _Listener(("127.0.0.1", port), Handler)
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
            self._by_task.clear()
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

    def script_task(self, task: str, *steps: Step | str) -> None:
        """Steps for the requests of one task only (``tasks.task_of``: extract, assess,
        propose_slots, generate_question, generate_opening, respond_as_persona), taken before
        the general script: how a model answers each task, whatever order they come in."""
        with self._lock:
            queue = self._by_task.setdefault(task, deque())
            queue.extend(Step(s) if isinstance(s, str) else s for s in steps)

    def next_step(self, task: str = "") -> Step:
        with self._lock:
            queue = self._by_task.get(task)
            if queue:
                return queue.popleft()
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


class RequestHandler(BaseHTTPRequestHandler):
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
        path = self.path.rstrip("/")
        api = {"/v1/messages": "anthropic", "/v1/chat/completions": "openai"}.get(path, "")
        task = task_of(api, body) if api else ""
        relay = self.fake.relay
        step = relay.exchange(api, task, body) if relay is not None and api else None
        step = step or self.fake.next_step(task)
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
        if not api:
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        if step.hold is not None:
            while not step.hold.wait(0.05) and not self.fake._stop.is_set():
                pass
        if step.delay_s:
            self.fake.wait(step.delay_s)
        respond(self, api, body, step)

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
