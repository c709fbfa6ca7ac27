"""Retries and backoff for provider calls (seed 001 "LLM Timeout and Retry").

The SDKs' own retries are off (``max_retries=0``): they would honour a Retry-After of an hour
and hide attempts from the usage record. Here, with tenacity:

- retried: rate limits (429), overload and server errors (5xx, 529), connection errors,
  timeouts and malformed bodies, i.e. every ``ProviderError`` whose ``retryable`` is true;
- waits: exponential backoff with equal jitter (half fixed, half random, so a crowd of
  clients spreads out but none hammers the server at once), or the server's Retry-After
  (seconds, milliseconds or an HTTP date) when given, capped at ``retry_after_cap_s``;
- bounded: ``max_attempts`` in all, then ONE ``LLMError`` (a ``FinalLLMError``, which also
  says how many attempts were made) naming provider, model, task and cause; non-retryable
  failures (400, 401, 403, 404) fail at once with a hint where one helps.

Sleeping and jitter are injectable (``RetryPolicy.sleep``, ``RetryPolicy.rng``) so tests run
the whole ladder in microseconds.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from interview_cli.errors import LLMError
from interview_cli.llm.failures import ProviderError

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]


def parse_retry_after(
    headers: Mapping[str, str] | Any, *, now: datetime | None = None
) -> float | None:
    """Seconds the server asks us to wait, from ``retry-after-ms`` or ``retry-after``
    (a number of seconds or an HTTP date); None when absent or unreadable."""
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000.0)
        value = headers.get("retry-after")
    except AttributeError:
        return None
    if value is None:
        return None
    value = str(value).strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 3
    base_delay_s: float = 1.0
    max_delay_s: float = 16.0
    retry_after_cap_s: float = 20.0
    sleep: Sleep = asyncio.sleep
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Wait after failed attempt number ``attempt`` (1-based)."""
        if retry_after is not None:
            # The server knows when it will take us again: its word replaces the backoff,
            # shorter or longer, up to the cap (an hour-long Retry-After must not hang a turn).
            return min(retry_after, self.retry_after_cap_s)
        backoff = min(self.max_delay_s, self.base_delay_s * (1 << max(0, attempt - 1)))
        return backoff / 2 + self.rng.uniform(0, backoff / 2)


@dataclass(frozen=True)
class CallContext:
    """Who is calling, for the final error message (never the key)."""

    provider: str
    model: str
    task: str
    key_env_var: str = ""
    endpoint: str = ""  # the base URL in use ("" for the SDK's default)


@dataclass
class Outcome:
    """Result of a retried call plus how many attempts it took and what the retries were."""

    value: Any
    attempts: int
    retried: list[str] = field(default_factory=list)


_HINTS = {
    "auth": "check {key}",
    "permission": "check that {key} may use this model",
    "not_found": "check the model name and the base URL",
    "bad_request": "the request was refused; try another model or report this",
    "connection": "check that {endpoint} is running and reachable (and the base URL is right)",
}


class FinalLLMError(LLMError):
    """The ``LLMError`` of a call that failed for good, with the attempts it made (a 401 fails
    at the first, a 503 after the whole budget): the usage record of a failed call keeps it."""

    def __init__(self, message: str, *, attempts: int, **about: str) -> None:
        super().__init__(message, **about)
        self.attempts = attempts


def final_error(error: ProviderError, ctx: CallContext, attempts: int) -> FinalLLMError:
    """The one user-facing error after the retries ran out (or a failure that cannot heal)."""
    who = f"{ctx.provider} {ctx.model}"
    if error.retryable:
        message = (
            f"{who} failed the {ctx.task} task after {attempts} attempt"
            f"{'s' if attempts != 1 else ''}: {error.describe()}"
        )
    else:
        message = f"{who} refused the {ctx.task} task: {error.describe()}"
    hint = _HINTS.get(error.kind)
    if hint:
        message += "; " + hint.format(
            key=ctx.key_env_var or "the API key", endpoint=ctx.endpoint or "the provider's API"
        )
    return FinalLLMError(
        message,
        attempts=attempts,
        provider=ctx.provider,
        model=ctx.model,
        task=ctx.task,
        cause=error.describe(),
    )


async def call_with_retries(
    attempt: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    ctx: CallContext,
    on_retry: Callable[[int, ProviderError, float], None] | None = None,
) -> Outcome:
    """Run ``attempt`` until it succeeds, a non-retryable ProviderError, or the attempt budget
    is spent; return an :class:`Outcome` or raise one :class:`LLMError`."""
    retried: list[str] = []

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        retry_after = exc.retry_after if isinstance(exc, ProviderError) else None
        return policy.delay(state.attempt_number, retry_after)

    def before_sleep(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, ProviderError):
            retried.append(exc.describe())
            if on_retry is not None:
                sleep_for = state.next_action.sleep if state.next_action else 0.0
                on_retry(state.attempt_number, exc, sleep_for)

    retrying = AsyncRetrying(
        stop=stop_after_attempt(policy.max_attempts),
        wait=wait,
        retry=retry_if_exception(lambda e: isinstance(e, ProviderError) and e.retryable),
        sleep=policy.sleep,
        before_sleep=before_sleep,
        reraise=True,
    )
    failure: ProviderError | None = None
    attempts = 0
    try:
        async for state in retrying:
            with state:
                attempts = state.retry_state.attempt_number
                value = await attempt()
    except ProviderError as exc:
        failure = exc
    if failure is None:
        return Outcome(value=value, attempts=attempts, retried=retried)
    # Outside the except block: the LLMError carries no chained SDK exception.
    raise final_error(failure, ctx, attempts)
