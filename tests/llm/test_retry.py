"""Retry policy: what is retried, how long it waits, and the one error at the end."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from conftest import SleepRecorder

from interview_cli.errors import LLMError
from interview_cli.llm.providers.base import ProviderError, classify_exception, redact
from interview_cli.llm.retry import (
    CallContext,
    FinalLLMError,
    RetryPolicy,
    call_with_retries,
    parse_retry_after,
)

CTX = CallContext(
    provider="anthropic", model="claude-sonnet-4-6", task="extract", key_env_var="ANTHROPIC_API_KEY"
)


class Scripted:
    """An attempt function that raises the scripted errors in turn, then returns 'ok'."""

    def __init__(self, *errors: ProviderError) -> None:
        self.errors = list(errors)
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "ok"


def policy(sleeps: SleepRecorder, **kw: object) -> RetryPolicy:
    return RetryPolicy(sleep=sleeps, rng=random.Random(7), **kw)  # type: ignore[arg-type]


def run(coro):  # noqa: ANN001, ANN201 - tiny helper
    return asyncio.run(coro)


@pytest.mark.parametrize(
    "kind", ["rate_limit", "overloaded", "server", "timeout", "connection", "malformed"]
)
def test_transient_failures_are_retried(kind: str, sleeps: SleepRecorder) -> None:
    attempt = Scripted(ProviderError(kind, "x"), ProviderError(kind, "x"))  # type: ignore[arg-type]
    outcome = run(call_with_retries(attempt, policy=policy(sleeps), ctx=CTX))
    assert (outcome.value, outcome.attempts, attempt.calls) == ("ok", 3, 3)
    assert len(sleeps.waits) == 2
    assert len(outcome.retried) == 2


@pytest.mark.parametrize(
    ("kind", "status", "hint"),
    [
        ("auth", 401, "check ANTHROPIC_API_KEY"),
        ("permission", 403, "check that ANTHROPIC_API_KEY may use this model"),
        ("not_found", 404, "check the model name"),
        ("bad_request", 400, "request was refused"),
    ],
)
def test_client_errors_fail_at_once_with_a_hint(
    kind: str, status: int, hint: str, sleeps: SleepRecorder
) -> None:
    attempt = Scripted(ProviderError(kind, "nope", status=status))  # type: ignore[arg-type]
    with pytest.raises(LLMError) as info:
        run(call_with_retries(attempt, policy=policy(sleeps), ctx=CTX))
    assert attempt.calls == 1 and sleeps.waits == []
    err = info.value
    assert isinstance(err, FinalLLMError) and err.attempts == 1  # for the usage record
    assert hint in err.message
    assert f"({status})" in err.message
    assert (err.provider, err.model, err.task) == ("anthropic", "claude-sonnet-4-6", "extract")


def test_attempts_are_bounded_then_one_llm_error(sleeps: SleepRecorder) -> None:
    attempt = Scripted(*[ProviderError("server", "boom", status=503) for _ in range(9)])
    with pytest.raises(LLMError) as info:
        run(call_with_retries(attempt, policy=policy(sleeps, max_attempts=4), ctx=CTX))
    assert attempt.calls == 4
    assert len(sleeps.waits) == 3
    err = info.value
    assert isinstance(err, FinalLLMError) and err.attempts == 4  # for the usage record
    assert err.message.startswith(
        "anthropic claude-sonnet-4-6 failed the extract task after 4 attempts: server error (503)"
    )
    assert err.cause == "server error (503): boom"
    assert err.__cause__ is None and err.__context__ is None  # no SDK exception chained


def test_backoff_is_exponential_with_jitter_and_capped(sleeps: SleepRecorder) -> None:
    p = policy(sleeps, base_delay_s=1.0, max_delay_s=8.0)
    for attempt, full in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, 8.0), (9, 8.0)]:
        delays = {p.delay(attempt, None) for _ in range(20)}
        assert all(full / 2 <= d <= full for d in delays)
        assert len(delays) > 1  # jitter


def test_retry_after_is_honoured_and_capped(sleeps: SleepRecorder) -> None:
    attempt = Scripted(
        ProviderError("rate_limit", "slow down", status=429, retry_after=3.0),
        ProviderError("rate_limit", "slow down", status=429, retry_after=3600.0),
    )
    outcome = run(
        call_with_retries(attempt, policy=policy(sleeps, retry_after_cap_s=20.0), ctx=CTX)
    )
    assert outcome.attempts == 3
    assert sleeps.waits == [3.0, 20.0]


def test_parse_retry_after_forms() -> None:
    now = datetime(2030, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after({"retry-after": "7"}) == 7.0
    assert parse_retry_after({"retry-after": "1.5"}) == 1.5
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    date = format_datetime(now + timedelta(seconds=30), usegmt=True)
    assert parse_retry_after({"retry-after": date}, now=now) == pytest.approx(30.0)
    past = format_datetime(now - timedelta(seconds=30), usegmt=True)
    assert parse_retry_after({"retry-after": past}, now=now) == 0.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None
    assert parse_retry_after(None) is None


def test_classification_of_sdk_and_network_errors() -> None:
    assert classify_exception(json.JSONDecodeError("x", "doc", 0)).kind == "malformed"
    assert classify_exception(TimeoutError()).kind == "timeout"
    assert classify_exception(ValueError("a bug")) is None  # bugs are not provider failures

    class APIStatusError(Exception):  # same class name as both SDKs' status error
        def __init__(self, status: int, headers: dict[str, str]) -> None:
            super().__init__(f"Error code: {status}")
            self.status_code = status
            self.response = type("R", (), {"headers": headers})()
            self.body = {"error": {"message": "server says no"}}

    limited = classify_exception(APIStatusError(429, {"retry-after": "2"}))
    assert (limited.kind, limited.retry_after, limited.retryable) == ("rate_limit", 2.0, True)
    assert limited.detail == "server says no"
    assert classify_exception(APIStatusError(529, {})).kind == "overloaded"
    assert classify_exception(APIStatusError(502, {})).kind == "server"
    assert classify_exception(APIStatusError(408, {})).retryable
    assert not classify_exception(APIStatusError(401, {})).retryable
    assert classify_exception(APIStatusError(422, {})).kind == "bad_request"


def test_redact_removes_keys_and_their_echoed_prefixes() -> None:
    key = "sk-ant-test-K3Y-anthropic-5e1b7f0c9d"
    text = f"bad key {key}; also saw {key[:12]}****"
    cleaned = redact(text, (key,))
    assert key not in cleaned and key[:12] not in cleaned
    assert cleaned.count("[redacted]") == 2
