"""Issue 20 items 4-5 in units: the openai-compatible provider's settings, unpriced costs,
prices in the settings file, the spend cap's arithmetic and the dry run's low/high figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from interview_cli.errors import ConfigError, UsageError
from interview_cli.llm.pricing import Price, call_cost, load_pricing
from interview_cli.llm.protocol import LLMCall
from interview_cli.llm.settings import resolve_llm_settings
from interview_cli.llm.spend import (
    SPEND_CAP_EXIT,
    SpendCap,
    SpendCapReached,
    cost_bound,
    format_cost,
    prompt_token_bound,
    require_prices,
)
from interview_cli.session.schema import Usage
from interview_cli.simulation.estimate import estimate_batch

URL = "http://127.0.0.1:11434/v1"


# -- the provider's settings -------------------------------------------------------------------
def test_openai_compatible_needs_a_url_and_a_model_but_no_key() -> None:
    with pytest.raises(ConfigError, match="needs your server's URL: --base-url URL or "):
        resolve_llm_settings("openai-compatible", env={})
    with pytest.raises(ConfigError, match="needs a model name: --model MODEL or OPENAI_COMP"):
        resolve_llm_settings("openai-compatible", env={"OPENAI_COMPATIBLE_BASE_URL": URL})
    env = {"OPENAI_COMPATIBLE_BASE_URL": URL, "OPENAI_COMPATIBLE_MODEL": "llama3.1:8b"}
    s = resolve_llm_settings("openai-compatible", env=env)
    assert {
        (s.client(c).provider, s.client(c).model, s.client(c).base_url)
        for c in ("extraction", "scoring", "generation", "respondent")
    } == {("openai-compatible", "llama3.1:8b", URL)}


def test_flags_name_the_server_and_a_bad_url_names_the_flag() -> None:
    flags = {"base_url": URL, "model": "qwen2.5:7b"}
    env = {"OPENAI_COMPATIBLE_BASE_URL": "http://other:1/v1", "OPENAI_COMPATIBLE_MODEL": "m"}
    s = resolve_llm_settings("openai-compatible", per_client={"extraction": flags}, env=env)
    assert (s.extraction.base_url, s.extraction.model) == (URL, "qwen2.5:7b")
    assert (s.scoring.base_url, s.scoring.model) == ("http://other:1/v1", "m")
    bad = {"base_url": "localhost:11434", "model": "m"}
    with pytest.raises(ConfigError, match="^--base-url='localhost:11434' is not a valid"):
        resolve_llm_settings("openai-compatible", per_client={"extraction": bad}, env={})


def test_a_set_base_url_makes_it_available_after_the_keyed_providers() -> None:
    env = {"OPENAI_COMPATIBLE_BASE_URL": URL, "OPENAI_COMPATIBLE_MODEL": "gpt-oss:20b"}
    s = resolve_llm_settings(env=env)
    assert s.generation.provider == "openai-compatible"
    assert s.notes["generation"] == "ANTHROPIC_API_KEY not set"
    assert "openai-compatible gpt-oss:20b" in s.describe()
    # A provider with a key comes first; without the URL it is not a candidate at all.
    assert resolve_llm_settings(env={**env, "OPENAI_API_KEY": "k"}).generation.provider == "openai"
    assert resolve_llm_settings(env={"OPENAI_COMPATIBLE_MODEL": "m"}).all_offline


def test_a_model_family_name_is_not_refused_on_your_own_server() -> None:
    env = {"OPENAI_COMPATIBLE_BASE_URL": URL, "LLM_SCORING_MODEL": "claude-sonnet-4-6"}
    s = resolve_llm_settings("openai-compatible", env={**env, "OPENAI_COMPATIBLE_MODEL": "m"})
    assert s.scoring.model == "claude-sonnet-4-6"  # a proxy may serve any family


# -- prices ------------------------------------------------------------------------------------
def config(tmp_path: Path, text: str) -> dict[str, str]:
    path = tmp_path / "llm.yaml"
    path.write_text(text, encoding="utf-8")
    return {"INTERVIEW_LLM_CONFIG": str(path)}


def test_an_unlisted_model_has_an_unknown_cost_not_zero() -> None:
    assert call_cost("openai-compatible", "llama3.1:8b", 1000, 1000) is None
    assert call_cost("offline", "heuristic-v1", 1000, 1000) == 0.0
    assert call_cost("openai", "gpt-4o-mini", 1_000_000, 0) == pytest.approx(0.15)


def test_prices_of_your_own_in_the_settings_file(tmp_path: Path) -> None:
    env = config(
        tmp_path,
        "retry: {base_delay_s: 0}\nprices:\n  openai-compatible:\n"
        '    "llama3.1:8b": {input: 0, output: 0}\n    big: {input: 2.5, output: 10}\n'
        "  openai:\n    gpt-4o-mini: {input: 1, output: 1}\n",
    )
    table = load_pricing(env)
    assert call_cost("openai-compatible", "llama3.1:8b", 10**6, 10**6, table=table) == 0.0
    assert call_cost("openai-compatible", "big", 10**6, 10**6, table=table) == 12.5
    assert table.price_for("openai", "gpt-4o-mini") == Price(input=1, output=1)  # overrides
    assert table.price_for("anthropic", "claude-sonnet-4-6") is not None  # shipped kept
    # The settings still resolve: prices are not LLM defaults.
    assert resolve_llm_settings(env=env).retry.base_delay_s == 0
    # A pricing file (INTERVIEW_PRICING) is laid over the settings file's prices.
    pricing = tmp_path / "pricing.yaml"
    pricing.write_text("prices:\n  openai-compatible:\n    big: {input: 1, output: 1}\n")
    over = load_pricing({**env, "INTERVIEW_PRICING": str(pricing)})
    assert over.price_for("openai-compatible", "big") == Price(input=1, output=1)
    assert over.price_for("openai-compatible", "llama3.1:8b") == Price(input=0, output=0)


def test_a_bad_price_names_the_settings_file_and_key(tmp_path: Path) -> None:
    env = config(tmp_path, "prices:\n  openai-compatible:\n    m: {input: -1, output: 1}\n")
    with pytest.raises(ConfigError) as caught:
        load_pricing(env)
    assert caught.value.message.startswith(f"{tmp_path / 'llm.yaml'}: prices.openai-compatible")
    assert "input" in caught.value.message


def test_usage_keeps_unpriced_models_apart() -> None:
    usage = Usage()
    usage.add(LLMCall(task="extract", provider="openai", model="gpt-4o-mini", cost_usd=0.25))
    usage.add(LLMCall(task="assess", provider="openai-compatible", model="m", cost_usd=None))
    usage.add(LLMCall(task="assess", provider="openai-compatible", model="m", cost_usd=None))
    assert (usage.cost_usd, usage.unpriced, usage.calls) == (None, ["openai-compatible:m"], 3)
    assert usage.priced_cost_usd == 0.25
    assert (
        usage.by_task["extract"]["cost_usd"] == 0.25 and usage.by_task["assess"]["cost_usd"] is None
    )
    assert format_cost(usage.priced_cost_usd, usage.unpriced) == "$0.2500 + unknown"
    assert format_cost(0.0, ["openai-compatible:m"]) == "unknown"
    assert format_cost(None) == "unknown"
    assert format_cost(0.0) == "$0.0000"  # offline: free, and known to be
    # A usage record of an older file (no `unpriced`) reads as all priced.
    assert Usage.model_validate({"calls": 2, "cost_usd": 0.5}).unpriced == []


# -- the cap -----------------------------------------------------------------------------------
def test_the_prompt_bound_is_generous_for_english_and_for_cjk() -> None:
    english = "What does the quiet on the train give you? " * 20
    assert prompt_token_bound(english) >= len(english) / 3.5  # real: about len / 4
    assert prompt_token_bound("静かな電車") >= 2 * 5
    assert prompt_token_bound("a", "b") == 1 + 2 * 8  # 2 characters round up, + overheads
    assert cost_bound(Price(input=1, output=10), 1000, 500) == pytest.approx(0.006)


def test_the_cap_reserves_bounds_and_closes_once_refused() -> None:
    cap = SpendCap(1.0, already_spent=0.25)
    cap.reserve(0.5, what="extract on openai:gpt-4o-mini")
    with pytest.raises(SpendCapReached) as caught:
        cap.reserve(0.3, what="assess on openai:gpt-4o-mini")  # 0.25 + 0.5 + 0.3 > 1
    assert caught.value.exit_code == SPEND_CAP_EXIT == 3
    # Numbers that add up: 0.25 spent + 0.50 in flight + 0.30 next > 1.00.
    assert caught.value.message == (
        "spend cap reached: $0.2500 spent and $0.5000 reserved for calls in flight, of the "
        "$1.0000 --max-cost (the next call, assess on openai:gpt-4o-mini, up to $0.3000, "
        "could pass it)"
    )
    cap.settle(0.5, 0.01)  # the call in flight cost far less than its bound
    assert cap.spent_usd == pytest.approx(0.26) and cap.reserved_usd == 0
    with pytest.raises(SpendCapReached):
        cap.reserve(0.001, what="a small call")  # closed: a batch stops as a whole
    with pytest.raises(UsageError):
        SpendCap(float("nan"))


def test_a_cap_refuses_models_without_a_price() -> None:
    env = {"OPENAI_COMPATIBLE_BASE_URL": URL, "OPENAI_COMPATIBLE_MODEL": "llama3.1:8b"}
    settings = resolve_llm_settings("openai-compatible", env=env)
    with pytest.raises(UsageError, match=r"openai-compatible:llama3.1:8b has none: add it under"):
        require_prices(settings, ["extraction"], load_pricing({}))
    require_prices(resolve_llm_settings("offline", env={}), ["extraction"], load_pricing({}))


# -- the dry run -------------------------------------------------------------------------------
def test_the_dry_run_gives_low_and_high_and_no_zero_for_unpriced() -> None:
    env = {"OPENAI_COMPATIBLE_BASE_URL": URL, "OPENAI_COMPATIBLE_MODEL": "llama3.1:8b"}
    unpriced = estimate_batch(
        resolve_llm_settings("openai-compatible", per_client={"respondent": "offline"}, env=env),
        to_run=2,
        skipped=0,
        max_turns=5,
        table=load_pricing({}),
    )
    tasks = {t["task"]: t for t in unpriced["tasks"]}
    assert tasks["extract"]["cost_usd"] is None and tasks["extract"]["cost_high_usd"] is None
    assert tasks["respond_as_persona"]["cost_usd"] == 0.0  # offline is free, and known to be
    assert unpriced["total"]["cost_usd"] is None
    assert unpriced["unpriced"] == ["openai-compatible:llama3.1:8b"]
    priced = estimate_batch(
        resolve_llm_settings("openai", env={"OPENAI_API_KEY": "k"}),
        to_run=2,
        skipped=0,
        max_turns=5,
        table=load_pricing({}),
    )
    extract = next(t for t in priced["tasks"] if t["task"] == "extract")
    assert extract["output_tokens_high"] == 10 * 2048  # the client's whole max_tokens
    assert extract["input_tokens_high"] == int(1.5 * extract["input_tokens"])
    assert 0 < priced["total"]["cost_usd"] < priced["total"]["cost_high_usd"]
    assert any("reasoning models" in a for a in priced["assumptions"])


def test_an_older_usage_record_with_unpriced_calls_reads_as_unknown() -> None:
    # Written before the total became null: cost_usd was the priced part beside `unpriced`.
    old = {
        "calls": 3,
        "cost_usd": 0.25,
        "unpriced": ["openai-compatible:m"],
        "by_task": {
            "extract": {"calls": 1, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.25},
            "assess": {"calls": 2, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0},
        },
    }
    usage = Usage.model_validate(old)
    assert (usage.cost_usd, usage.priced_cost_usd) == (None, 0.25)
    assert (
        usage.by_task["assess"]["cost_usd"] is None and usage.by_task["extract"]["cost_usd"] == 0.25
    )
    assert Usage.model_validate({"calls": 2, "cost_usd": 0.5}).priced_cost_usd == 0.5
    # Read again as written now, nothing changes.
    again = Usage.model_validate(usage.model_dump(mode="json"))
    assert again == usage
