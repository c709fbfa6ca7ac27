"""Pricing table, cost per call, usage totals and batch estimates."""

from __future__ import annotations

import os

import pytest

from interview_cli.errors import ConfigError
from interview_cli.llm.pricing import (
    PRICING_ENV,
    cost_usd,
    estimate_cost,
    is_priced,
    load_pricing,
    summarize_usage,
)
from interview_cli.llm.protocol import LLMCall
from interview_cli.llm.settings import offline_settings, resolve_llm_settings


def test_seed_prices_per_million_tokens() -> None:
    assert cost_usd("anthropic", "claude-sonnet-4-6", 1_000_000, 0) == pytest.approx(3.0)
    assert cost_usd("anthropic", "claude-sonnet-4-6", 0, 1_000_000) == pytest.approx(15.0)
    assert cost_usd("kimi", "kimi-k2-0905-preview", 1_000_000, 1_000_000) == pytest.approx(3.1)
    assert cost_usd("deepseek", "deepseek-chat", 2_000_000, 1_000_000) == pytest.approx(0.56)
    assert cost_usd("openai", "gpt-4o-mini", 1000, 500) == pytest.approx(0.00045)


def test_dated_snapshots_price_like_their_family_other_variants_do_not() -> None:
    assert cost_usd("anthropic", "claude-sonnet-4-6-20260101", 1_000_000, 0) == pytest.approx(3.0)
    assert cost_usd("openai", "gpt-4o-mini-2024-07-18", 1_000_000, 0) == pytest.approx(0.15)
    assert not is_priced("openai", "gpt-4.1-nano")


def test_unknown_model_costs_zero_and_is_flagged() -> None:
    assert cost_usd("openai", "gpt-99", 10_000, 10_000) == 0.0
    assert not is_priced("openai", "gpt-99")
    assert not is_priced("nobody", "x")
    assert is_priced("offline", "offline")
    totals = summarize_usage(
        [
            LLMCall(task="extract", provider="openai", model="gpt-99", input_tokens=10),
            LLMCall(
                task="assess",
                provider="kimi",
                model="kimi-k2-0905-preview",
                cost_usd=0.5,
                attempts=3,
                ok=False,
            ),
        ]
    )
    assert totals.unpriced == ["openai:gpt-99"]
    assert (totals.calls, totals.failed_calls, totals.attempts) == (2, 1, 4)
    assert totals.cost_usd == pytest.approx(0.5)


def test_override_file_wins_and_extends(tmp_path, monkeypatch) -> None:
    override = tmp_path / "prices.yaml"
    override.write_text(
        "prices:\n  anthropic:\n    claude-sonnet-4-6: {input: 1.0, output: 2.0}\n"
        "  openai:\n    gpt-99: {input: 10.0, output: 20.0}\n"
    )
    monkeypatch.setenv(PRICING_ENV, str(override))
    assert cost_usd("anthropic", "claude-sonnet-4-6", 1_000_000, 1_000_000) == pytest.approx(3.0)
    assert cost_usd("openai", "gpt-99", 1_000_000, 0) == pytest.approx(10.0)
    assert cost_usd("kimi", "kimi-k2-0905-preview", 1_000_000, 0) == pytest.approx(0.6)
    # an edited override is picked up (mtime is part of the cache key)
    override.write_text("prices:\n  openai:\n    gpt-99: {input: 1.0, output: 1.0}\n")
    st = override.stat()
    os.utime(override, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    assert cost_usd("openai", "gpt-99", 1_000_000, 0) == pytest.approx(1.0)


def test_bad_override_file_names_the_file(tmp_path) -> None:
    bad = tmp_path / "p.yaml"
    bad.write_text("prices:\n  openai:\n    gpt-99: {input: -1, output: 2}\n")
    with pytest.raises(ConfigError) as info:
        load_pricing({PRICING_ENV: str(bad)})
    assert str(bad) in str(info.value)
    with pytest.raises(ConfigError, match="cannot read"):
        load_pricing({PRICING_ENV: str(tmp_path / "missing.yaml")})


def test_a_pricing_file_that_is_not_utf8_is_a_config_error(tmp_path) -> None:
    bad = tmp_path / "p.yaml"
    bad.write_bytes("prices: {}  # \u00a3\n".encode("latin-1"))
    with pytest.raises(
        ConfigError,
        match=r"p\.yaml: not UTF-8 text \(byte 14\); save the "
        r"file as UTF-8$",
    ):
        load_pricing({PRICING_ENV: str(bad)})
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing yet\n")
    assert load_pricing({PRICING_ENV: str(empty)}) == load_pricing({})


def test_estimate_counts_calls_per_turn_and_session() -> None:
    s = resolve_llm_settings(env={"ANTHROPIC_API_KEY": "a", "KIMI_API_KEY": "k"})
    one = estimate_cost(s, turns=10, sessions=1)
    ten = estimate_cost(s, turns=10, sessions=10)
    assert ten.total_usd == pytest.approx(one.total_usd * 10)
    table = load_pricing()
    shape = table.typical_tokens["extract"]
    expected = cost_usd("anthropic", "claude-sonnet-4-6", shape.input, shape.output) * 10
    assert one.per_task_usd["extract"] == pytest.approx(expected)
    assert one.per_task_usd["generate_opening"] < one.per_task_usd["generate_question"]
    assert (
        "respond_as_persona"
        not in estimate_cost(s, turns=5, simulated_respondent=False).per_task_usd
    )
    assert one.unpriced == []
    assert one.describe().startswith("about $")


def test_the_estimate_prices_the_calls_it_counts() -> None:
    # One table of calls: the persona answers every question, the closing one included,
    # and that many answers are priced (not one per turn).
    s = resolve_llm_settings(env={"ANTHROPIC_API_KEY": "a", "KIMI_API_KEY": "k"})
    estimate = estimate_cost(s, turns=10, sessions=2, slot_calls_per_turn=1)
    assert estimate.calls_per_session == {
        "generate_opening": 1,
        "extract": 10,
        "assess": 10,
        "generate_question": 10,
        "respond_as_persona": 11,
        "propose_slots": 10,
    }
    shapes = load_pricing().typical_tokens
    for task, count in estimate.calls_per_session.items():
        client = s.for_task(task)
        one = cost_usd(client.provider, client.model, shapes[task].input, shapes[task].output)
        assert estimate.per_task_usd[task] == pytest.approx(one * count * 2), task
    assert "propose_slots" not in estimate_cost(s, turns=10).calls_per_session


def test_estimate_offline_is_free_and_unpriced_models_are_listed() -> None:
    assert estimate_cost(offline_settings(), turns=20, sessions=3).total_usd == 0.0
    s = resolve_llm_settings(
        env={"OPENAI_API_KEY": "o"}, per_client={"scoring": {"model": "gpt-99"}}
    )
    estimate = estimate_cost(s, turns=3)
    assert estimate.unpriced == ["openai:gpt-99"]
    assert "not priced: openai:gpt-99" in estimate.describe()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The audit's case: PyYAML's own message spans four lines with a caret.
        (
            "prices:\n  openai: {gpt-x: {input: 1, output: [\n",
            ": line 3, column 1: YAML syntax error: expected the node content, but found "
            "'<stream end>', while parsing a flow node (line 3)",
        ),
        (
            "prices:\n\topenai: {}\n",
            ": line 2, column 1: YAML syntax error: found character '\\t' that cannot start any "
            "token, while scanning for the next token",
        ),
        (
            "- 1\n- 2\n",
            ": expected a pricing table like the shipped pricing.yaml, with "
            "`prices:` and optionally `typical_tokens:` (a mapping of keys at the "
            "top level), found a list",
        ),
        # Key paths and messages as in every other config file (config.loader).
        (
            "prices:\n  openai:\n    gpt-99: {input: -1, output: 2}\n",
            ": prices.openai.gpt-99.input: Input should be greater than or equal to 0, got -1",
        ),
        (
            "prices:\n  openai: {}\nprices:\n  kimi: {}\n",
            ": line 3: duplicate key 'prices' (only the last value would be used)",
        ),
    ],
)
def test_a_broken_pricing_file_is_one_line_with_its_position(
    tmp_path, text: str, expected: str
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_pricing({"INTERVIEW_PRICING": str(bad)})
    (line,) = info.value.problems
    assert line == str(info.value) == f"{bad}{expected}"
    assert "\n" not in line and "^" not in line
