"""Contract tests, streaming under faults at task level: ``generate_question`` WITH
``on_token`` (issue 4, item 9) against the local fake server, on the anthropic and
openai-compatible paths: a fault never shows text twice, a stream that keeps breaking clears
the draft, a fallback is not left under an old draft.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from conftest import SleepRecorder, TaskKit
from fakeserver import CUT_STREAM, FakeLLMServer, Step
from provider_fixtures import PATHS, build

# ------------------------------------------------------------------------------------------
# Streaming under faults, at task level: generate_question WITH on_token (issue 4 item 9)
# ------------------------------------------------------------------------------------------


class DraftSink:
    """An ``on_token`` with ``reset()`` (``protocol.ResettableOnToken``), as a screen would
    wire it: ``draft`` is what the respondent sees while the question streams."""

    def __init__(self) -> None:
        self.draft = ""
        self.tokens: list[str] = []
        self.resets = 0

    def __call__(self, token: str) -> None:
        self.tokens.append(token)
        self.draft += token

    def reset(self) -> None:
        self.resets += 1
        self.draft = ""


def stream_question(llm: Any, kit: TaskKit, on_token: Any) -> Any:
    async def go() -> Any:
        try:
            return await kit.call(llm, "generate_question", on_token)
        finally:
            await llm.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize("fault", ["rate_limit", "server_error", CUT_STREAM])
@pytest.mark.parametrize("path", PATHS)
def test_a_streamed_question_survives_a_fault_without_showing_text_twice(
    path: str,
    fault: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    from interview_cli.llm.protocol import ResettableOnToken

    sink = DraftSink()
    assert isinstance(sink, ResettableOnToken)
    task_server.script(Step("rate_limit", retry_after="2") if fault == "rate_limit" else fault)
    result = stream_question(build(path, provider_env, sleeps), kit, sink)
    assert result.value == task_server.text_reply and result.failures == []
    (call,) = result.calls
    assert (call.ok, call.attempts) == (True, 2)
    assert call.error is not None and call.error.startswith("retried after:")
    assert [r.body.get("stream") for r in task_server.requests] == [True, True]
    # What is on screen at the end is the question, once.
    assert sink.draft == result.value
    if fault == CUT_STREAM:
        # The cut attempt had shown words: the screen was told to drop them, once.
        assert sink.resets == 1
        assert len("".join(sink.tokens)) > len(result.value)
    else:
        # An error status comes before any token: nothing to take back.
        assert sink.resets == 0 and "".join(sink.tokens) == result.value
    if fault == "rate_limit":
        assert sleeps.waits == [2.0]  # the server's Retry-After, under the cap


@pytest.mark.parametrize("path", PATHS)
def test_a_stream_that_keeps_breaking_raises_one_error_and_clears_the_draft(
    path: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    from interview_cli.errors import LLMError

    task_server.script(*[CUT_STREAM] * 3)
    sink = DraftSink()
    with pytest.raises(LLMError) as info:
        stream_question(build(path, provider_env, sleeps), kit, sink)
    assert info.value.task == "generate_question" and "after 3 attempts" in info.value.message
    assert sink.draft == "" and sink.resets == 3  # before attempts 2 and 3, and at the end


@pytest.mark.parametrize("path", PATHS)
def test_a_streamed_question_that_stays_unusable_falls_back_with_a_clean_draft(
    path: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    # A reply that streams words but is no question (a label only), twice: the corrective
    # round streams again and the fallback (not streamed) must not sit under an old draft.
    task_server.script(Step(text="Question:"), Step(text="Question:"))
    sink = DraftSink()
    result = stream_question(build(path, provider_env, sleeps), kit, sink)
    assert [c.ok for c in result.calls] == [False, False]
    assert result.failures and result.value.strip()
    assert sink.draft == "" and sink.resets == 2
