"""The shipped fakes: a scripted model per task (``ScriptedLLM``) and a provider whose API is
a function (``FakeProvider``) under the real remote client."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from capable_model import extraction, node
from conftest import TaskKit

from interview_cli.core.models import Extraction
from interview_cli.errors import LLMError
from interview_cli.llm.client_settings import ClientSettings
from interview_cli.llm.fakes import FakeProvider, ScriptedLLM
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.providers import ProviderError, ProviderRequest
from interview_cli.llm.remote import RemoteLLM


def test_a_scripted_model_answers_in_order_and_keeps_its_requests(kit: TaskKit) -> None:
    request = kit.requests["extract"]
    raw = extraction([node("creamy texture", "attribute", "the creamy texture")])
    llm = ScriptedLLM().enqueue(
        "extract", [Extraction(extractable=False, reason="scripted"), json.dumps(raw)]
    )

    async def go() -> tuple[Any, Any]:
        return await llm.extract(request), await llm.extract(request)

    first, second = asyncio.run(go())
    assert first.value.reason == "scripted"
    # Raw model output goes through the real validator: the quote is checked, the node kept.
    assert [n.label for n in second.value.nodes] == ["creamy texture"]
    assert llm.requests("extract") == [request, request] and llm.pending("extract") == 0
    with pytest.raises(LookupError, match="nothing enqueued for extract"):
        asyncio.run(llm.extract(request))


def test_a_scripted_model_raises_what_it_is_given_and_falls_back(kit: TaskKit) -> None:
    down = LLMError("down (test)", provider="scripted", task="assess")
    llm = ScriptedLLM(fallback=OfflineLLM(0)).enqueue("assess", [down])
    with pytest.raises(LLMError):
        asyncio.run(llm.assess(kit.requests["assess"]))
    assert asyncio.run(llm.assess(kit.requests["assess"])).value.answer_kind == "answer"
    assert [c.scripted for c in llm.history] == [True, False]


def test_a_fake_provider_runs_the_real_remote_client(kit: TaskKit) -> None:
    raw = extraction([node("creamy texture", "attribute", "the creamy texture")])
    sent: list[ProviderRequest] = []

    def handler(request: ProviderRequest) -> Any:
        sent.append(request)
        if request.tool_name == "record_extraction" and len(sent) == 1:
            return ProviderError("rate_limit", "slow down", status=429)
        if request.tool_name == "record_extraction":
            return f"Here is the extraction:\n```json\n{json.dumps(raw)}\n```"
        return "Thanks, that helps.\n\nWhat does the creamy texture give you?"

    settings = ClientSettings(provider="openai-compatible", model="fake", max_attempts=2)

    async def nap(_: float) -> None:
        return None

    llm = RemoteLLM(settings, provider=FakeProvider(handler, settings=settings), sleep=nap)
    tokens: list[str] = []

    async def go() -> tuple[Any, Any]:
        extracted = await llm.extract(kit.requests["extract"])
        asked = await llm.generate_question(kit.requests["generate_question"], tokens.append)
        return extracted, asked

    extracted, asked = asyncio.run(go())
    assert [n.label for n in extracted.value.nodes] == ["creamy texture"]
    assert extracted.calls[0].attempts == 2  # retried after the 429, then read from the text
    assert asked.value == "Thanks, that helps. What does the creamy texture give you?"
    assert "".join(tokens).startswith("Thanks, that helps.")
    assert sent[0].schema is not None and sent[-1].stream
