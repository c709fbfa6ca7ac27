"""Fixtures of the LLM contract tests: the fake provider server, fake keys, instant retries."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from fakeserver import FakeLLMServer

# Distinctive fake keys: the tests search every output for them (and the prefixes that some
# error bodies echo), so they must be recognisable and never occur by chance.
FAKE_KEYS: dict[str, str] = {
    "ANTHROPIC_API_KEY": "sk-ant-test-K3Y-anthropic-5e1b7f0c9d",
    "OPENAI_API_KEY": "sk-test-K3Y-openai-8a2c4e6f10b3",
    "KIMI_API_KEY": "sk-test-K3Y-kimi-77d1a09c3e5b",
    "DEEPSEEK_API_KEY": "sk-test-K3Y-deepseek-4b9e2d61f07a",
}


@pytest.fixture
def fake_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def provider_env(fake_server: FakeLLMServer) -> dict[str, str]:
    """An environment whose four providers all point at the fake server."""
    return {
        **FAKE_KEYS,
        "ANTHROPIC_BASE_URL": fake_server.anthropic_base_url,
        "OPENAI_BASE_URL": fake_server.openai_base_url,
        "KIMI_BASE_URL": fake_server.openai_base_url,
        "DEEPSEEK_BASE_URL": fake_server.openai_base_url,
    }


class SleepRecorder:
    """Stands in for asyncio.sleep in retry policies: records the waits, waits for nothing."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
def sleeps() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)
