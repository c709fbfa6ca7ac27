"""Soak: every task against a server that answers 20% of requests with a random fault.

Done-when of issue 4: no task raises anything but a recorded, retried outcome or a final
``LLMError``, and no key appears in any output, exception, log line or serialised setting.
Seeded and bounded (a fixed number of calls, waits injected), so it is fast and repeatable.
"""

from __future__ import annotations

import asyncio
import logging
import random
import traceback
from typing import Any

import pytest
from conftest import FAKE_KEYS, TASKS, SleepRecorder, TaskKit
from fakeserver import FAULTS, FakeLLMServer

from interview_cli.errors import LLMError
from interview_cli.llm.config_file import CLIENTS
from interview_cli.llm.factory import build_llm
from interview_cli.llm.pricing import summarize_usage
from interview_cli.llm.settings import resolve_llm_settings

ROUNDS = 8  # x 6 tasks x 2 paths = 96 task calls


def secrets() -> list[str]:
    # The keys and the prefixes some error bodies echo.
    return [*FAKE_KEYS.values(), *(key[:12] for key in FAKE_KEYS.values())]


@pytest.mark.parametrize(
    ("rate", "seed"), [(0.2, 11), (0.2, 2024), (0.6, 7)], ids=["20%-a", "20%-b", "60%"]
)
def test_faulty_server(
    rate: float,
    seed: int,
    fake_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake_server.tool_inputs.update(kit.tool_inputs)
    # Error bodies echo the key back, as some proxies and auth errors do.
    fake_server.echo_key = True
    fake_server.randomize(rate, seed=seed, kinds=FAULTS)
    caplog.set_level(logging.DEBUG)
    limits = {"timeout_s": 0.1, "max_attempts": 3}
    llms = {
        path: build_llm(
            resolve_llm_settings(
                provider=path, env=provider_env, per_client={c: limits for c in CLIENTS}
            ),
            env=provider_env,
            sleep=sleeps,
            rng=random.Random(seed),
        )
        for path in ("anthropic", "openai")
    }
    order = [(path, task) for _ in range(ROUNDS) for path in llms for task in TASKS]
    random.Random(seed).shuffle(order)
    outputs: list[str] = []
    results: list[Any] = []
    errors: list[LLMError] = []

    async def soak() -> None:
        try:
            for path, task in order:
                tokens: list[str] = []
                try:
                    result = await kit.call(llms[path], task, tokens.append)
                except LLMError as exc:  # the only exception allowed out of a task
                    errors.append(exc)
                    outputs.append("".join(traceback.format_exception(exc)))
                    outputs.append(f"{exc.message} {exc.cause} {exc!r}")
                    continue
                results.append(result)
                outputs.append(result.model_dump_json())
                outputs.append("".join(tokens))
        finally:
            for llm in llms.values():
                await llm.aclose()

    asyncio.run(soak())

    assert len(results) + len(errors) == len(order)
    calls = [c for r in results for c in r.calls]
    for result in results:
        assert result.calls, "every outcome records its calls"
        assert all(1 <= c.attempts <= 3 for c in result.calls)
        # Anything unusable was either corrected (a failed call then a good one) or recorded.
        if any(not c.ok for c in result.calls):
            assert result.failures or result.calls[-1].ok
    for exc in errors:
        assert exc.provider in ("anthropic", "openai") and exc.task in TASKS
        assert exc.__cause__ is None
    # The faults really happened and were really retried: the test can fail.
    totals = summarize_usage(calls)
    assert totals.attempts > totals.calls
    assert sleeps.waits and max(sleeps.waits) <= 20.0
    faulted = [r for r in fake_server.requests if r.step.kind != "ok"]
    assert (rate - 0.1) * len(fake_server.requests) < len(faulted)
    assert len(faulted) < (rate + 0.15) * len(fake_server.requests)
    if rate > 0.5:
        # a harsher server reaches every outcome: final errors and recorded empty results
        assert errors and any(r.failures for r in results)

    settings_text = [llm.settings.model_dump_json() for llm in llms.values()]
    settings_text += [repr(llm.clients) for llm in llms.values()]
    haystack = "\n".join(outputs + settings_text + [caplog.text])
    for secret in secrets():
        assert secret not in haystack
    # ...while the server did receive the keys: they were used, just never shown.
    sent = " ".join(str(r.headers) for r in fake_server.requests)
    assert FAKE_KEYS["ANTHROPIC_API_KEY"] in sent and FAKE_KEYS["OPENAI_API_KEY"] in sent


def test_a_validator_tripping_on_odd_output_does_not_crash_the_turn(
    fake_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import interview_cli.llm.remote as remote
    from interview_cli.core.models import Assessment

    def broken(data: object) -> Assessment:
        raise ValueError("a shape nobody foresaw")

    monkeypatch.setattr(remote, "validate_assessment", broken)
    fake_server.tool_inputs.update(kit.tool_inputs)
    llm = build_llm(
        resolve_llm_settings(provider="openai", env=provider_env), env=provider_env, sleep=sleeps
    )

    async def go() -> Any:
        try:
            return await kit.call(llm, "assess")
        finally:
            await llm.aclose()

    result = asyncio.run(go())
    assert result.value == Assessment.neutral()
    assert result.failures == ["assess: validation failed (ValueError)"]
    assert [c.ok for c in result.calls] == [False, False]


def test_concurrent_tasks_share_a_client_safely(
    fake_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    # The turn runs extract and assess concurrently (ARCHITECTURE "The turn"); with one
    # provider for every client they share an SDK client and its connection pool.
    fake_server.tool_inputs.update(kit.tool_inputs)
    fake_server.randomize(0.2, seed=5, kinds=("rate_limit", "server_error", "invalid_json"))
    llm = build_llm(
        resolve_llm_settings(provider="anthropic", env=provider_env), env=provider_env, sleep=sleeps
    )

    async def go() -> list[Any]:
        try:
            batches = [
                asyncio.gather(
                    kit.call(llm, "extract"),
                    kit.call(llm, "assess"),
                    kit.call(llm, "propose_slots"),
                    return_exceptions=True,
                )
                for _ in range(6)
            ]
            return [r for batch in batches for r in await batch]
        finally:
            await llm.aclose()

    outcomes = asyncio.run(go())
    assert len(outcomes) == 18
    # Which request meets which fault depends on timing here, so three faults in a row for
    # one task (a final LLMError) is possible; anything else escaping is not.
    assert all(isinstance(o, LLMError) or not o.failures for o in outcomes)
    results = [o for o in outcomes if not isinstance(o, LLMError)]
    assert len(results) >= 12
    assert sum(c.attempts for r in results for c in r.calls) > len(results)  # retried
