"""What every real provider does, independent of its SDK (seed 001 "Supported Providers").

A provider turns one :class:`ProviderRequest` (system prompt, messages, optional JSON schema
for a forced tool call, streaming or not) into one :class:`ProviderReply` (parsed tool input
or text, token usage), or raises one :class:`ProviderError` that says what went wrong and
whether trying again can help. Retrying is not its job (``retry.py``), nor is validating the
content (``validation.py``): a provider only checks that the *envelope* is what its API
promises, so a 200 with a body that is not JSON, has the wrong shape or is text/plain becomes
a retryable ``malformed`` error instead of slipping through (the SDKs do not check).

Keys: read from the environment once, at construction, kept as a ``SecretStr`` (masked in
any repr or dump), passed to the SDK client and scrubbed from every error message. SDKs are
imported inside methods: importing them costs about 1.5 s, which every CLI start would pay.
"""

from __future__ import annotations

import asyncio
import json
import os
import ssl
from abc import ABC, abstractmethod
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from pydantic import SecretStr

from interview_cli.errors import ConfigError
from interview_cli.llm.client_settings import ClientSettings, key_env_var, provider_info
from interview_cli.llm.failures import FailureKind, ProviderError
from interview_cli.llm.protocol import OnToken
from interview_cli.llm.providers.lanes import Lanes
from interview_cli.llm.retry import parse_retry_after

# What the SDK is given as the key of a server that needs none.
NO_KEY = "no-key-needed"
# The lane (its provider's ``Lanes``, the SDK client) of the call in progress in this task.
_LANE: ContextVar[tuple[Lanes, Any] | None] = ContextVar("provider_lane", default=None)


@dataclass(frozen=True)
class ChatMessage:
    role: Literal["user", "assistant"]
    content: str


@dataclass(frozen=True)
class ProviderRequest:
    """One model call, provider-neutral. ``schema`` set = forced tool call named ``tool_name``."""

    system: str
    messages: tuple[ChatMessage, ...]
    temperature: float
    max_tokens: int
    timeout_s: float
    schema: dict[str, Any] | None = None
    tool_name: str | None = None
    stream: bool = False


@dataclass
class ProviderReply:
    """What came back. ``data`` is the tool input (a dict for a well-behaved model) when a
    schema was asked for; ``problem`` says why it is missing (answered in text, arguments not
    JSON) so the caller can send a corrective message."""

    text: str = ""
    data: Any = None
    problem: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    stop_reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def redact(text: str, secrets: tuple[str, ...]) -> str:
    """Remove every secret (and its long prefixes, which some error bodies echo) from text."""
    for secret in secrets:
        if not secret:
            continue
        text = text.replace(secret, "[redacted]")
        if len(secret) >= 16:
            text = text.replace(secret[:12], "[redacted]")
    return text


def _status_kind(status: int) -> FailureKind:
    if status == 429:
        return "rate_limit"
    if status == 529:
        return "overloaded"
    if status == 408:
        return "timeout"
    if status == 409 or status >= 500:
        return "server"
    named: dict[int, FailureKind] = {401: "auth", 403: "permission", 404: "not_found"}
    return named.get(status, "bad_request")


def _error_message(exc: BaseException) -> str:
    # The SDKs put the server's error message in .body; fall back to str(exc).
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else None
        if isinstance(message, str):
            return message
    return str(exc)


def classify_exception(exc: BaseException) -> ProviderError | None:
    """Map an exception raised by either SDK (or the network below it) to a ProviderError.

    Both SDKs share their exception names (generated from the same template), so this works
    by class name without importing either. Returns None for anything that is not a transport
    failure: those are bugs and must surface as such.
    """
    if isinstance(exc, ProviderError):
        return exc
    names = {cls.__name__ for cls in type(exc).__mro__}
    if isinstance(exc, json.JSONDecodeError):
        # The SDKs raise a bare JSONDecodeError for a 200 whose body is not JSON.
        return ProviderError("malformed", f"body is not JSON ({exc.msg})")
    if isinstance(exc, TimeoutError) or "APITimeoutError" in names:
        return ProviderError("timeout", "no answer within the timeout")
    if "APIConnectionError" in names:
        return ProviderError("connection", type(exc).__name__)
    if "APIResponseValidationError" in names:
        return ProviderError("malformed", "response does not match the API schema")
    if "APIStatusError" in names:
        status = int(getattr(exc, "status_code", 0) or 0)
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None) or {}
        return ProviderError(
            _status_kind(status),
            _error_message(exc)[:300],
            status=status,
            retry_after=parse_retry_after(headers),
        )
    module = type(exc).__module__
    if module.startswith(("httpx", "httpcore")):
        # Raised unwrapped while a stream is read (anthropic 2.x): a dropped connection
        # (RemoteProtocolError, ReadError) or a read timeout. Both heal on a new attempt.
        kind: FailureKind = "timeout" if "Timeout" in type(exc).__name__ else "connection"
        return ProviderError(kind, type(exc).__name__)
    if module.startswith(("anthropic", "openai")):
        return ProviderError("other", type(exc).__name__)
    return None


class Provider(ABC):
    """One provider family over its official SDK. Subclasses implement :meth:`_complete`.

    Capabilities, as class attributes: ``can_stream``, ``supports_tools``.
    """

    name: str = ""
    can_stream: bool = True
    supports_tools: bool = True

    def __init__(self, settings: ClientSettings, *, env: Mapping[str, str] | None = None) -> None:
        environ = os.environ if env is None else env
        var = key_env_var(settings.provider)
        key = (environ.get(var) or "").strip() if var else ""
        if not key and provider_info(settings.provider).own_server:
            # A server of your own that checks no key (Ollama, vLLM): the SDK insists on one,
            # so it gets a placeholder, which such servers ignore.
            key = NO_KEY
        if not key:
            raise ConfigError(
                f"{settings.provider} needs {var}: set it, or choose another "
                "provider (offline needs no key)"
            )
        self.settings = settings
        self.key_env_var = var or ""
        # SecretStr: shows as '**********' in repr(), vars() and any accidental dump.
        self._key = SecretStr(key)
        self._lanes = Lanes(lambda: self._make_client(self._key.get_secret_value()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.settings.provider}:{self.settings.model})"

    # -- the SDK clients: lanes (``lanes``), per event loop ----------------------------------
    @abstractmethod
    def _make_client(self, api_key: str) -> Any:
        """Build the SDK's async client (import the SDK here, not at module level)."""

    def client(self) -> Any:
        """The SDK client of the call in progress (its lane), else the first lane's."""
        current = _LANE.get()
        if current is not None and current[0] is self._lanes:
            return current[1]
        return self._lanes.first()

    async def aclose(self) -> None:
        for sdk in self._lanes.take_all():
            await sdk.close()

    def scrub(self, text: str) -> str:
        key = self._key.get_secret_value()
        return redact(text, (key,) if key != NO_KEY else ())

    # -- one call --------------------------------------------------------------------------
    async def complete(
        self, request: ProviderRequest, on_token: OnToken | None = None
    ) -> ProviderReply:
        """Run one attempt; raise ProviderError (key scrubbed) on any transport failure."""
        # The lane is taken outside the timeout: the first call imports the SDK (~1.5 s).
        with self._lanes.lane() as sdk:
            token = _LANE.set((self._lanes, sdk))
            try:
                return await self._attempt(request, on_token)
            finally:
                _LANE.reset(token)

    async def _attempt(self, request: ProviderRequest, on_token: OnToken | None) -> ProviderReply:
        error: ProviderError | None = None
        try:
            # The SDK's timeout bounds each read; this bounds the whole attempt, which for a
            # stream that trickles could otherwise run far past the client's budget.
            async with asyncio.timeout(request.timeout_s):
                return await self._complete(request, on_token)
        except Exception as exc:  # noqa: BLE001 - classified below, unknowns re-raised
            error = classify_exception(exc)
            if error is None:
                raise
        # Raised outside the except block so the SDK exception is not chained as __context__.
        raise ProviderError(
            error.kind, self.scrub(error.detail), status=error.status, retry_after=error.retry_after
        )

    @abstractmethod
    async def _complete(self, request: ProviderRequest, on_token: OnToken | None) -> ProviderReply:
        """Call the API once. Raise ProviderError('malformed', ...) for a bad envelope."""


@lru_cache(maxsize=1)
def shared_ssl_context() -> ssl.SSLContext:
    """One TLS context for every SDK client of the process.

    Loading the CA bundle costs ~0.13 s, and each SDK client would otherwise load its own
    (up to four clients per run, one per test). Same trust as the default: the system CAs,
    or ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set.
    """
    return ssl.create_default_context()


def malformed(detail: str) -> ProviderError:
    return ProviderError("malformed", detail)


def tool_description(tool_name: str) -> str:
    return (
        f"Record the result of the {tool_name.replace('_', ' ')} task. Call this tool "
        "exactly once with arguments that match its schema."
    )
