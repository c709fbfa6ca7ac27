"""Contract tests: the REAL SDK clients against the local fake server (issue 4, item 9).

The wire level: each provider sends what its API expects (forced tool use, JSON-string
arguments, streaming, keys in headers, base URLs) and classifies every fault in one attempt.
The task level (every task of ``RemoteLLM`` against every fault, on the anthropic and
openai-compatible paths) is in test_providers_tasks.py, streaming under faults at task level
in test_providers_streaming.py.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from conftest import FAKE_KEYS
from fakeserver import OUTPUT_FAULTS, TRANSPORT_FAULTS, FakeLLMServer, Step
from provider_fixtures import SCHEMA, TOOL, request, settings_for

from interview_cli.errors import ConfigError
from interview_cli.llm.client_settings import ClientSettings
from interview_cli.llm.providers import ProviderError, ProviderRequest, make_provider

PROVIDERS = ("anthropic", "openai", "kimi", "deepseek")
EXPECTED_KIND = {
    "rate_limit": "rate_limit",
    "server_error": "server",
    "overloaded": "overloaded",
    "slow": "timeout",
    "invalid_json": "malformed",
    "wrong_shape": "malformed",
    "text_plain": "malformed",
}


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
