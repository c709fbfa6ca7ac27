"""What the provider contract tests share (test_providers_contract.py, test_providers_tasks.py,
test_providers_streaming.py, test_api_use.py): one wire request with a forced tool and the
client settings to send it with, the two wire protocols, an ``InterviewLLM`` built by the
factory for one path with fast retries, and one task run to completion on it."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from conftest import SleepRecorder, TaskKit

from interview_cli.llm.client_settings import ClientSettings
from interview_cli.llm.providers import ChatMessage, ProviderRequest
from interview_cli.llm.settings import resolve_llm_settings

SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "integer"}},
    "required": ["answer"],
    "additionalProperties": False,
}
TOOL = "record_answer"


def settings_for(provider: str, env: dict[str, str], *, timeout_s: float = 5.0) -> ClientSettings:
    s = resolve_llm_settings(provider=provider, env=env)
    return s.extraction.model_copy(update={"timeout_s": timeout_s})


def request(
    *, schema: bool = True, stream: bool = False, timeout_s: float = 5.0
) -> ProviderRequest:
    return ProviderRequest(
        system="You are a test.",
        messages=(ChatMessage("user", "Say 42."),),
        temperature=0.2,
        max_tokens=64,
        timeout_s=timeout_s,
        schema=SCHEMA if schema else None,
        tool_name=TOOL if schema else None,
        stream=stream,
    )


PATHS = ("anthropic", "openai")  # the two wire protocols; kimi/deepseek share openai's


def build(
    path: str,
    env: dict[str, str],
    sleeps: SleepRecorder,
    *,
    timeout_s: float = 5.0,
    max_attempts: int = 3,
) -> Any:
    from interview_cli.llm.config_file import CLIENTS
    from interview_cli.llm.factory import build_llm

    limits = {"timeout_s": timeout_s, "max_attempts": max_attempts}
    settings = resolve_llm_settings(provider=path, env=env, per_client={c: limits for c in CLIENTS})
    return build_llm(settings, env=env, sleep=sleeps, rng=random.Random(3))


def run_task(llm: Any, kit: TaskKit, task: str, tokens: list[str] | None = None) -> Any:
    async def go() -> Any:
        try:
            return await kit.call(llm, task, tokens.append if tokens is not None else None)
        finally:
            await llm.aclose()

    return asyncio.run(go())
