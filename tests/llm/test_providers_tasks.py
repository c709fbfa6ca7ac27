"""Contract tests at task level: every task of ``RemoteLLM`` (render -> provider -> validate)
against every fault of the local fake server, on the anthropic and openai-compatible paths,
checking the recorded outcome: retried to success, corrected once, or replaced by an empty
result with the failure recorded; and a task's own timeout. The wire level is in
test_providers_contract.py, streaming under faults in test_providers_streaming.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import FAKE_KEYS, TASKS, TEXT_TASKS, SleepRecorder, TaskKit
from fakeserver import CUT_STREAM, OUTPUT_FAULTS, TRANSPORT_FAULTS, FakeLLMServer, Step
from provider_fixtures import PATHS, build, run_task

from interview_cli.llm.settings import resolve_llm_settings

# ------------------------------------------------------------------------------------------
# Task level: RemoteLLM (render -> provider -> validate) for every task and every fault
# ------------------------------------------------------------------------------------------


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


# A slow answer waits out a real timeout (1.2 s a test), and the timeout is the request's, not
# the task's: one structured task and one text task stand for the others there.
TASK_FAULTS = [
    (task, fault)
    for task in TASKS
    for fault in TRANSPORT_FAULTS
    if fault != "slow" or task in ("extract", "generate_question")
]


@pytest.mark.parametrize(("task", "fault"), TASK_FAULTS)
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
    # (a slow answer comes well after the timeout, and the retry's answer well within it: a
    # loaded CI machine timed the retry out at 0.1 s and again at 0.5 s, three attempts where
    # two were meant; the timeout covers the whole call, client and parsing included)
    task_server.slow_s = 6.0
    llm = build(path, provider_env, sleeps, timeout_s=1.2 if fault == "slow" else 5.0)
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
    elif task == "respond_as_persona":
        assert value == ""  # the simulated respondent answers in its place
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


@pytest.mark.parametrize("path", PATHS)
def test_a_task_timeout_replaces_its_clients_for_that_task_only(
    path: str,
    task_server: FakeLLMServer,
    provider_env: dict[str, str],
    kit: TaskKit,
    sleeps: SleepRecorder,
) -> None:
    from interview_cli.llm.config_file import CLIENTS
    from interview_cli.llm.factory import build_llm

    settings = resolve_llm_settings(
        provider=path, env=provider_env, per_client={c: {"timeout_s": 5.0} for c in CLIENTS}
    )
    # (a task timeout wide enough that the quick retry meets it on a loaded machine: at 0.1 s
    # the retry too timed out once under a full suite run)
    settings = settings.model_copy(update={"task_timeouts": {"generate_question": 0.3}})
    assert settings.timeout_for("generate_question") == 0.3

    def llm() -> Any:
        return build_llm(settings, env=provider_env, sleep=sleeps, rng=random.Random(3))

    task_server.script(Step("slow", delay_s=0.7))
    (call,) = run_task(llm(), kit, "generate_question").calls
    assert call.attempts == 2 and "timed out" in (call.error or "")
    task_server.script(Step("slow", delay_s=0.4))
    (call,) = run_task(llm(), kit, "generate_opening").calls  # the client's 5 s applies
    assert call.attempts == 1
