"""API use on the wire, against the local fake server: strict tool schemas on the
OpenAI-compatible path, prompt caching on Anthropic's static blocks, and cache tokens counted
in usage and cost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import TASKS, SleepRecorder, TaskKit
from fakeserver import FakeLLMServer, Step
from provider_fixtures import build, request, run_task, settings_for

from interview_cli.config.loader import load_concept, load_methodology
from interview_cli.llm.pricing import cost_usd, load_pricing, summarize_usage
from interview_cli.llm.prompts import assessment_schema, extraction_schema, slots_schema
from interview_cli.llm.providers import make_provider

REPO = Path(__file__).resolve().parents[2]
REPO_METHODS = ("means_end_chain", "jobs_to_be_done", "critical_incident")
STRUCTURED = ("extract", "assess", "propose_slots")
# Keywords OpenAI's strict mode accepts in a schema (others are refused with a 400).
STRICT_KEYWORDS = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "description",
    "anyOf",
    "$defs",
    "$ref",
    "const",
}


def strict_problems(schema: Any, path: str = "$") -> list[str]:
    """Where ``schema`` breaks OpenAI strict mode: an object not closed, a property not
    required, an unsupported keyword."""
    problems: list[str] = []
    if not isinstance(schema, dict):
        return problems
    problems += [f"{path}: keyword {k!r}" for k in schema if k not in STRICT_KEYWORDS]
    if schema.get("type") == "object":
        if schema.get("additionalProperties") is not False:
            problems.append(f"{path}: additionalProperties must be false")
        props = schema.get("properties", {})
        if sorted(schema.get("required", [])) != sorted(props):
            problems.append(f"{path}: every property must be required")
        for name, sub in props.items():
            problems += strict_problems(sub, f"{path}.{name}")
    if "items" in schema:
        problems += strict_problems(schema["items"], f"{path}[]")
    return problems


@pytest.mark.parametrize("method", REPO_METHODS)
def test_every_shipped_schema_is_accepted_by_strict_mode(method: str) -> None:
    methodology = load_methodology(REPO / "methodologies" / f"{method}.yaml").value
    concept = load_concept(REPO / "concepts" / "plant_yoghurt_concept_mec.yaml").value
    for schema in (
        extraction_schema(methodology, concept),
        extraction_schema(methodology),
        assessment_schema(),
        slots_schema(),
    ):
        assert strict_problems(schema) == []
    # Optional values are nullable rather than left out.
    node = extraction_schema(methodology, concept)["properties"]["nodes"]["items"]
    assert "null" in node["properties"]["element_id"]["type"]
    assert None in node["properties"]["reaction"]["enum"]


@pytest.mark.parametrize("task", STRUCTURED)
def test_openai_compatible_tools_are_strict(
    task: str,
    fake_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    fake_server.tool_inputs.update(kit.tool_inputs)
    result = run_task(build("openai", provider_env, sleeps), kit, task)
    assert result.calls[0].ok and not result.failures
    (tool,) = fake_server.requests[-1].body["tools"]
    assert tool["function"]["strict"] is True
    assert strict_problems(tool["function"]["parameters"]) == []


def test_an_api_refusing_strict_gets_plain_tools_from_then_on(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    fake_server.tool_inputs["record_answer"] = {"answer": 42}
    fake_server.script(
        Step("status", status=400, message="Unknown parameter: 'tools[0].function.strict'.")
    )
    provider = make_provider(settings_for("deepseek", provider_env), env=provider_env)

    async def twice() -> list[Any]:
        try:
            return [await provider.complete(request(), None) for _ in range(2)]
        finally:
            await provider.aclose()

    import asyncio

    replies = asyncio.run(twice())
    assert [r.data for r in replies] == [{"answer": 42}] * 2
    sent = [r.body["tools"][0]["function"] for r in fake_server.requests]
    assert [f.get("strict") for f in sent] == [True, None, None]
    assert "tool_choice" in fake_server.requests[-1].body  # still a forced tool call


@pytest.mark.parametrize("task", TASKS)
def test_anthropic_caches_the_static_blocks(
    task: str,
    fake_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    fake_server.tool_inputs.update(kit.tool_inputs)
    run_task(build("anthropic", provider_env, sleeps), kit, task, [])
    body = fake_server.requests[-1].body
    (system,) = body["system"]
    assert system["cache_control"] == {"type": "ephemeral"} and system["text"].strip()
    if task in STRUCTURED:
        assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    # The per-turn part (the answer, the brief) is not in the cached block.
    assert all("cache_control" not in m for m in body["messages"])


@pytest.mark.parametrize("task", ["extract", "generate_question"])
def test_anthropic_cache_tokens_are_counted_in_usage_and_cost(
    task: str,
    fake_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    fake_server.tool_inputs.update(kit.tool_inputs)
    fake_server.cache_tokens = (2000, 0)
    first = run_task(build("anthropic", provider_env, sleeps), kit, task, []).calls[0]
    fake_server.cache_tokens = (0, 2000)
    second = run_task(build("anthropic", provider_env, sleeps), kit, task, []).calls[0]
    assert (first.cache_write_tokens, first.cache_read_tokens) == (2000, 0)
    assert (second.cache_write_tokens, second.cache_read_tokens) == (0, 2000)
    table = load_pricing(env={})
    price = table.price_for("anthropic", first.model)
    assert price is not None and price.cache_write and price.cache_read
    plain = cost_usd("anthropic", first.model, first.input_tokens, first.output_tokens, table=table)
    assert first.cost_usd == pytest.approx(plain + 2000 * price.cache_write / 1e6)
    assert second.cost_usd == pytest.approx(
        cost_usd("anthropic", second.model, second.input_tokens, second.output_tokens, table=table)
        + 2000 * price.cache_read / 1e6
    )
    assert second.cost_usd < first.cost_usd  # a cache read costs a fraction of a write
    totals = summarize_usage([first, second], table=table)
    assert (totals.cache_write_tokens, totals.cache_read_tokens) == (2000, 2000)


def test_openai_cached_prompt_tokens_count_as_cache_reads(
    fake_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    fake_server.tool_inputs.update(kit.tool_inputs)
    fake_server.cache_tokens = (0, 1024)
    (call,) = run_task(build("openai", provider_env, sleeps), kit, "extract").calls
    assert call.cache_read_tokens == 1024 and call.input_tokens == 110  # not counted twice
    table = load_pricing(env={})
    price = table.price_for("openai", call.model)
    assert price is not None and price.cache_read is not None
    assert call.cost_usd == pytest.approx(
        cost_usd("openai", call.model, 110, call.output_tokens, table=table)
        + 1024 * price.cache_read / 1e6
    )


def test_session_usage_adds_cache_tokens() -> None:
    from interview_cli.llm.protocol import LLMCall
    from interview_cli.session.schema import Usage

    usage = Usage()
    usage.add(
        LLMCall(
            task="extract",
            provider="anthropic",
            model="m",
            input_tokens=10,
            cache_write_tokens=300,
            cache_read_tokens=0,
        )
    )
    usage.add(
        LLMCall(
            task="extract",
            provider="anthropic",
            model="m",
            input_tokens=10,
            cache_write_tokens=0,
            cache_read_tokens=300,
        )
    )
    assert (usage.input_tokens, usage.cache_write_tokens, usage.cache_read_tokens) == (20, 300, 300)
