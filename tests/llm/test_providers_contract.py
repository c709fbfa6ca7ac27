"""Contract tests: the REAL SDK clients against the local fake server (issue 4, item 9).

Two levels. The wire level checks that each provider sends what its API expects (forced tool
use, JSON-string arguments, streaming, keys in headers, base URLs) and classifies every fault
in one attempt. The task level runs every task of ``RemoteLLM`` against every fault, on the
anthropic and openai-compatible paths, and checks the recorded outcome: retried to success,
corrected once, or replaced by an empty result with the failure recorded.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from conftest import FAKE_KEYS, TASKS, TEXT_TASKS, SleepRecorder, TaskKit
from fakeserver import CUT_STREAM, OUTPUT_FAULTS, TRANSPORT_FAULTS, FakeLLMServer, Step

from interview_cli.errors import ConfigError
from interview_cli.llm.providers import (
    ChatMessage,
    ProviderError,
    ProviderRequest,
    make_provider,
)
from interview_cli.llm.settings import ClientSettings, resolve_llm_settings

PROVIDERS = ("anthropic", "openai", "kimi", "deepseek")
SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "integer"}},
    "required": ["answer"],
    "additionalProperties": False,
}
TOOL = "record_answer"
EXPECTED_KIND = {
    "rate_limit": "rate_limit",
    "server_error": "server",
    "overloaded": "overloaded",
    "slow": "timeout",
    "invalid_json": "malformed",
    "wrong_shape": "malformed",
    "text_plain": "malformed",
}


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


def complete(provider: Any, req: ProviderRequest, tokens: list[str] | None = None) -> Any:
    async def go() -> Any:
        try:
            return await provider.complete(req, tokens.append if tokens is not None else None)
        finally:
            await provider.aclose()

    return asyncio.run(go())


# ------------------------------------------------------------------------------------------
# Wire level
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PROVIDERS)
def test_structured_output_by_forced_tool_call(
    name: str, fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    fake_server.tool_inputs[TOOL] = {"answer": 42}
    provider = make_provider(settings_for(name, provider_env), env=provider_env)
    reply = complete(provider, request())
    assert reply.data == {"answer": 42} and reply.problem is None
    assert reply.input_tokens > 0 and reply.output_tokens > 0
    sent = fake_server.requests[-1]
    key = FAKE_KEYS[f"{name.upper()}_API_KEY"]
    if name == "anthropic":
        assert sent.path == "/v1/messages"
        # anthropic 2.x sends the key as a bearer token (1.x used x-api-key)
        assert key in (
            sent.headers.get("x-api-key"),
            sent.headers.get("authorization", "")[len("Bearer ") :],
        )
        assert sent.body["tool_choice"] == {"type": "tool", "name": TOOL}
        assert sent.body["tools"][0]["input_schema"] == SCHEMA
        # The static blocks are cached: system and tool carry a cache breakpoint.
        assert sent.body["system"] == [
            {"type": "text", "text": "You are a test.", "cache_control": {"type": "ephemeral"}}
        ]
        assert sent.body["tools"][0]["cache_control"] == {"type": "ephemeral"}
        assert sent.body["max_tokens"] == 64
    else:
        assert sent.path == "/v1/chat/completions"
        assert sent.headers["authorization"] == f"Bearer {key}"
        assert sent.body["tool_choice"] == {"type": "function", "function": {"name": TOOL}}
        assert sent.body["tools"][0]["function"]["parameters"] == SCHEMA
        assert sent.body["tools"][0]["function"]["strict"] is True
        assert sent.body["messages"][0] == {"role": "system", "content": "You are a test."}
        limit = "max_completion_tokens" if name == "openai" else "max_tokens"
        assert sent.body[limit] == 64
    if name == "anthropic":
        assert "temperature" not in sent.body  # the 2.x SDK takes no sampling parameters
        assert sent.body["output_config"] == {"effort": "medium"}  # seed 001: extraction
    else:
        assert sent.body["temperature"] == 0.2
        assert "output_config" not in sent.body
    assert sent.headers.get("x-stainless-retry-count", "0") == "0"


@pytest.mark.parametrize("name", PROVIDERS)
def test_streamed_text_reaches_on_token_in_order(
    name: str, fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    provider = make_provider(settings_for(name, provider_env), env=provider_env)
    tokens: list[str] = []
    reply = complete(provider, request(schema=False, stream=True), tokens)
    assert len(tokens) > 3
    assert "".join(tokens) == reply.text == fake_server.text_reply
    assert fake_server.requests[-1].body["stream"] is True
    assert (reply.input_tokens, reply.output_tokens) == (
        (90, 15) if name == "anthropic" else (80, 12)
    )


@pytest.mark.parametrize("name", ["anthropic", "openai"])
def test_plain_text_without_streaming(
    name: str, fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    provider = make_provider(settings_for(name, provider_env), env=provider_env)
    reply = complete(provider, request(schema=False))
    assert reply.text == fake_server.text_reply and reply.data is None
    assert not fake_server.requests[-1].body.get("stream")


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("fault", TRANSPORT_FAULTS)
@pytest.mark.parametrize("name", ["anthropic", "openai"])
def test_every_transport_fault_is_classified(
    name: str, fault: str, stream: bool, fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    timeout = 0.1 if fault == "slow" else 5.0
    provider = make_provider(settings_for(name, provider_env, timeout_s=timeout), env=provider_env)
    fake_server.script(fault)
    with pytest.raises(ProviderError) as info:
        complete(
            provider,
            request(schema=not stream, stream=stream, timeout_s=timeout),
            [] if stream else None,
        )
    err = info.value
    assert err.kind == EXPECTED_KIND[fault] and err.retryable
    assert err.__context__ is None  # the SDK exception (holding the key) is not chained
    if fault == "rate_limit":
        assert (err.status, err.retry_after) == (429, 1.0)
    if fault == "overloaded":
        assert err.status == 529


@pytest.mark.parametrize("name", ["anthropic", "openai"])
def test_output_faults_come_back_as_problems_not_errors(
    name: str, fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    provider = make_provider(settings_for(name, provider_env), env=provider_env)
    fake_server.script("bad_args")
    reply = complete(provider, request())
    assert reply.data == fake_server.bad_args  # judging the content is validation's job
    fake_server.script("no_tool")
    reply = complete(provider, request())
    assert reply.data is None
    assert "instead of calling the tool 'record_answer'" in (reply.problem or "")
    assert reply.text == "I would rather just talk about it."


def test_openai_arguments_arrive_as_a_json_string(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    provider = make_provider(settings_for("openai", provider_env), env=provider_env)
    fake_server.script(Step(raw_arguments='{"answer": 7}'))
    assert complete(provider, request()).data == {"answer": 7}
    fake_server.script(Step(raw_arguments='{"answer": 7'))
    reply = complete(provider, request())
    assert reply.data is None and "not valid JSON" in (reply.problem or "")
    fake_server.script(Step(raw_arguments="[1, 2]"))
    assert "must be a JSON object" in (complete(provider, request()).problem or "")


def test_openai_compat_falls_back_to_json_object_when_tools_are_refused(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    fake_server.tool_inputs[TOOL] = {"answer": 5}
    provider = make_provider(settings_for("kimi", provider_env), env=provider_env)
    fake_server.script(
        Step("status", status=400, message="tool_choice 'specified' is incompatible with thinking")
    )

    async def twice() -> list[Any]:
        try:
            return [await provider.complete(request()), await provider.complete(request())]
        finally:
            await provider.aclose()

    first, second = asyncio.run(twice())
    assert first.data == second.data == {"answer": 5}
    refused, fallback, sticky = (r.body for r in fake_server.requests)
    assert "tools" in refused
    for body in (fallback, sticky):  # the fallback sticks: no second refusal per call
        assert "tools" not in body
        assert body["response_format"] == {"type": "json_object"}
        assert '"answer"' in body["messages"][0]["content"]  # the schema is spelled out


def test_other_bad_requests_do_not_trigger_the_fallback(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    provider = make_provider(settings_for("deepseek", provider_env), env=provider_env)
    fake_server.script(Step("status", status=400, message="context length exceeded"))
    with pytest.raises(ProviderError) as info:
        complete(provider, request())
    assert info.value.kind == "bad_request"
    assert len(fake_server.requests) == 1


@pytest.mark.parametrize("name", ["anthropic", "openai"])
def test_a_key_echoed_by_the_server_is_scrubbed(
    name: str, fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    key = FAKE_KEYS[f"{name.upper()}_API_KEY"]
    provider = make_provider(settings_for(name, provider_env), env=provider_env)
    fake_server.script(Step("status", status=401, message=f"invalid api key {key}"))
    with pytest.raises(ProviderError) as info:
        complete(provider, request())
    assert info.value.kind == "auth" and not info.value.retryable
    assert key not in str(info.value) and key[:12] not in str(info.value)
    assert key not in repr(provider) and key not in repr(vars(provider))


def test_provider_survives_a_new_event_loop(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    # A CLI may run several event loops (one per command step); a provider closed at the end
    # of one loop must work again in the next.
    fake_server.tool_inputs[TOOL] = {"answer": 1}
    provider = make_provider(settings_for("anthropic", provider_env), env=provider_env)
    assert complete(provider, request()).data == {"answer": 1}
    assert complete(provider, request()).data == {"answer": 1}
    assert len(fake_server.requests) == 2


def test_constructing_a_provider_without_its_key_names_the_variable() -> None:
    cs = ClientSettings(provider="openai", model="gpt-4o-mini")
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        make_provider(cs, env={})


def test_anthropic_base_url_is_the_host_openai_includes_v1(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    assert not provider_env["ANTHROPIC_BASE_URL"].endswith("/v1")
    assert provider_env["OPENAI_BASE_URL"].endswith("/v1")
    for name in ("anthropic", "openai"):
        complete(
            make_provider(settings_for(name, provider_env), env=provider_env), request(schema=False)
        )
    assert [r.path for r in fake_server.requests] == ["/v1/messages", "/v1/chat/completions"]


def test_fault_lists_cover_the_brief() -> None:
    assert set(TRANSPORT_FAULTS) | set(OUTPUT_FAULTS) == {
        "rate_limit",
        "server_error",
        "overloaded",
        "slow",
        "invalid_json",
        "wrong_shape",
        "text_plain",
        "bad_args",
        "no_tool",
    }
    assert json.loads(json.dumps(SCHEMA)) == SCHEMA


# ------------------------------------------------------------------------------------------
# Task level: RemoteLLM (render -> provider -> validate) for every task and every fault
# ------------------------------------------------------------------------------------------

PATHS = ("anthropic", "openai")  # the two wire protocols; kimi/deepseek share openai's


def build(
    path: str,
    env: dict[str, str],
    sleeps: SleepRecorder,
    *,
    timeout_s: float = 5.0,
    max_attempts: int = 3,
) -> Any:
    from interview_cli.llm.factory import build_llm
    from interview_cli.llm.settings import CLIENTS

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


def assert_valid(task: str, result: Any, kit: TaskKit, server: FakeLLMServer) -> None:
    from interview_cli.core.models import Assessment, Extraction
    from interview_cli.llm.protocol import SlotProposals

    value = result.value
    assert result.failures == []
    if task == "extract":
        assert isinstance(value, Extraction) and value.extractable
        assert [n.label for n in value.nodes] == ["creamy texture", "coffee feels like a treat"]
        assert [e.relation for e in value.edges] == ["leads_to"]
    elif task == "assess":
        assert isinstance(value, Assessment) and value.response_depth.score == 4
    elif task == "propose_slots":
        assert isinstance(value, SlotProposals)
        assert [p.slot_name for p in value.proposals] == ["creamy_texture"]
    else:
        assert value == server.text_reply


@pytest.fixture
def task_server(fake_server: FakeLLMServer, kit: TaskKit) -> FakeLLMServer:
    fake_server.tool_inputs.update(kit.tool_inputs)
    return fake_server


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("path", PATHS)
def test_every_task_succeeds_first_time(
    path: str,
    task: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    tokens: list[str] = []
    result = run_task(build(path, provider_env, sleeps), kit, task, tokens)
    assert_valid(task, result, kit, task_server)
    (call,) = result.calls
    assert (call.task, call.provider, call.attempts, call.ok, call.error) == (
        task,
        path,
        1,
        True,
        None,
    )
    assert call.input_tokens > 0 and call.output_tokens > 0 and call.latency_ms > 0
    assert call.cost_usd > 0  # both default models are priced
    if task == "generate_question":
        assert "".join(tokens) == result.value  # streamed to the screen as it arrived


@pytest.mark.parametrize("fault", TRANSPORT_FAULTS)
@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("path", PATHS)
def test_every_transport_fault_is_retried_to_success(
    path: str,
    task: str,
    fault: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    llm = build(path, provider_env, sleeps, timeout_s=0.1 if fault == "slow" else 5.0)
    task_server.script(fault)
    result = run_task(llm, kit, task)
    assert_valid(task, result, kit, task_server)
    (call,) = result.calls
    assert call.ok and call.attempts == 2
    assert call.error is not None and call.error.startswith("retried after:")
    assert len(task_server.requests) == 2
    assert len(sleeps.waits) == 1
    if fault == "rate_limit":
        assert sleeps.waits == [1.0]  # the server's Retry-After


@pytest.mark.parametrize("path", PATHS)
def test_a_stream_cut_midway_is_retried_and_the_final_text_wins(
    path: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    task_server.script(CUT_STREAM)
    tokens: list[str] = []
    result = run_task(build(path, provider_env, sleeps), kit, "generate_question", tokens)
    assert result.value == task_server.text_reply
    assert result.calls[0].attempts == 2
    # The first attempt's words were already shown; the screen must take the final value.
    assert "".join(tokens).endswith(task_server.text_reply)
    assert len("".join(tokens)) > len(task_server.text_reply)


@pytest.mark.parametrize("fault", OUTPUT_FAULTS)
@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("path", PATHS)
def test_every_output_fault_is_corrected_once(
    path: str,
    task: str,
    fault: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    task_server.bad_args = kit.bad_args.get(
        getattr(kit_prompt_tool(kit, task), "tool_name", None) or "", {}
    )
    task_server.script(fault)
    result = run_task(build(path, provider_env, sleeps), kit, task)
    assert_valid(task, result, kit, task_server)
    if task in TEXT_TASKS and fault == "no_tool":
        assert len(result.calls) == 1  # a text task has no tool to miss
        return
    first, second = result.calls
    assert not first.ok and first.error is not None and first.error.startswith("unusable:")
    assert second.ok
    retry = task_server.requests[1].body["messages"]
    roles = [m["role"] for m in retry if m["role"] != "system"]
    assert roles == ["user", "assistant", "user"]  # the bad reply, then the correction
    assert sleeps.waits == []  # a corrective retry is a new request, not a backoff


def kit_prompt_tool(kit: TaskKit, task: str) -> Any:
    from interview_cli.llm import prompts

    render = {
        "extract": prompts.render_extract,
        "assess": prompts.render_assess,
        "propose_slots": prompts.render_slots,
    }.get(task)
    return render(kit.requests[task]) if render else None


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("path", PATHS)
def test_a_persistently_unusable_response_gives_an_empty_result(
    path: str,
    task: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    from interview_cli.core.models import Assessment

    task_server.bad_args = kit.bad_args.get(
        getattr(kit_prompt_tool(kit, task), "tool_name", None) or "", {}
    )
    task_server.script("bad_args", "bad_args")
    result = run_task(build(path, provider_env, sleeps), kit, task)
    assert [c.ok for c in result.calls] == [False, False]
    (failure,) = result.failures
    assert failure.startswith(f"{task}: ")
    value = result.value
    if task == "extract":
        assert not value.extractable and value.nodes == [] and value.rejected
    elif task == "assess":
        assert value == Assessment.neutral()
    elif task == "propose_slots":
        assert value.proposals == []
    else:
        assert isinstance(value, str) and value.strip()  # the offline provider's words


@pytest.mark.parametrize("path", PATHS)
def test_a_provider_that_keeps_failing_raises_one_llm_error(
    path: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    from interview_cli.errors import LLMError

    task_server.script(*["server_error"] * 5)
    with pytest.raises(LLMError) as info:
        run_task(build(path, provider_env, sleeps), kit, "assess")
    err = info.value
    assert len(task_server.requests) == 3 and len(sleeps.waits) == 2
    assert (err.provider, err.task) == (path, "assess")
    assert err.model in err.message and "after 3 attempts" in err.message
    assert "server error (500)" in err.cause
    for key in FAKE_KEYS.values():
        assert key not in f"{err.message} {err.cause} {err!r}"


@pytest.mark.parametrize("path", PATHS)
def test_a_bad_key_fails_at_once_and_says_which_variable(
    path: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    from interview_cli.errors import LLMError

    key_var = f"{path.upper()}_API_KEY"
    task_server.script(Step("status", status=401, message=f"bad key {provider_env[key_var]}"))
    with pytest.raises(LLMError) as info:
        run_task(build(path, provider_env, sleeps), kit, "extract")
    assert len(task_server.requests) == 1 and sleeps.waits == []
    assert f"check {key_var}" in info.value.message
    assert provider_env[key_var] not in str(info.value)


def test_a_failed_corrective_round_still_returns_the_empty_result(
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    task_server.script("no_tool", *["server_error"] * 3)
    result = run_task(build("anthropic", provider_env, sleeps), kit, "extract")
    assert not result.value.extractable
    assert [c.ok for c in result.calls] == [False, False]
    assert "corrective retry failed" in result.failures[0]


def test_build_llm_routes_each_task_to_its_client(
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    from interview_cli.llm.factory import build_llm

    settings = resolve_llm_settings(
        env=provider_env,
        per_client={
            "extraction": "anthropic",
            "scoring": "offline",
            "generation": "openai",
            "respondent": "deepseek",
        },
    )
    llm = build_llm(settings, env=provider_env, sleep=sleeps)
    assert llm.provider_label == "anthropic:claude-sonnet-4-6 / offline / openai:gpt-4o-mini"
    expected = {
        "extract": ("anthropic", "/v1/messages"),
        "propose_slots": ("anthropic", "/v1/messages"),
        "assess": ("offline", None),
        "generate_opening": ("openai", "/v1/chat/completions"),
        "generate_question": ("openai", "/v1/chat/completions"),
        "respond_as_persona": ("deepseek", "/v1/chat/completions"),
    }
    for task, (provider, path) in expected.items():
        before = len(task_server.requests)
        result = run_task(llm, kit, task)
        assert {c.provider for c in result.calls} == {provider}
        sent = task_server.requests[before:]
        assert [r.path for r in sent] == ([path] if path else [])


def test_a_401_in_the_corrective_round_records_the_one_attempt_it_took(
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    task_server.script("no_tool", Step("status", status=401, message="bad key"))
    result = run_task(build("anthropic", provider_env, sleeps, max_attempts=3), kit, "extract")
    unusable, failed = result.calls
    assert (unusable.ok, unusable.attempts) == (False, 1)
    assert (failed.ok, failed.attempts) == (False, 1)  # not max_attempts: it failed at once
    assert len(task_server.requests) == 2 and sleeps.waits == []


def test_a_corrective_round_that_keeps_failing_records_every_attempt(
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    task_server.script("no_tool", *["server_error"] * 3)
    result = run_task(build("openai", provider_env, sleeps, max_attempts=3), kit, "extract")
    assert [c.attempts for c in result.calls] == [1, 3]


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


@pytest.mark.parametrize("path", PATHS)
def test_a_task_timeout_replaces_its_clients_for_that_task_only(
    path: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    from interview_cli.llm.factory import build_llm
    from interview_cli.llm.settings import CLIENTS

    settings = resolve_llm_settings(
        provider=path, env=provider_env, per_client={c: {"timeout_s": 5.0} for c in CLIENTS}
    )
    settings = settings.model_copy(update={"task_timeouts": {"generate_question": 0.1}})
    assert settings.timeout_for("generate_question") == 0.1

    def llm() -> Any:
        return build_llm(settings, env=provider_env, sleep=sleeps, rng=random.Random(3))

    task_server.script(Step("slow", delay_s=0.4))
    (call,) = run_task(llm(), kit, "generate_question").calls
    assert call.attempts == 2 and "timed out" in (call.error or "")
    task_server.script(Step("slow", delay_s=0.4))
    (call,) = run_task(llm(), kit, "generate_opening").calls  # the client's 5 s applies
    assert call.attempts == 1
