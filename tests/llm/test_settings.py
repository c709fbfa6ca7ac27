"""Client settings: defaults, precedence (flags > env > defaults), key-based resolution."""

from __future__ import annotations

import json

import pytest
from conftest import FAKE_KEYS

from interview_cli.errors import ConfigError
from interview_cli.llm.settings import (
    CLIENTS,
    TASK_CLIENT,
    load_defaults,
    offline_settings,
    resolve_llm_settings,
)


def test_defaults_follow_the_seed_table() -> None:
    env = {"ANTHROPIC_API_KEY": "a", "KIMI_API_KEY": "k"}
    s = resolve_llm_settings(env=env)
    assert (s.extraction.provider, s.extraction.model) == ("anthropic", "claude-sonnet-4-6")
    assert (s.scoring.provider, s.scoring.model) == ("kimi", "kimi-k2-0905-preview")
    assert (s.generation.provider, s.generation.model) == ("anthropic", "claude-sonnet-4-6")
    assert (s.extraction.temperature, s.extraction.max_tokens) == (0.3, 2048)
    assert (s.scoring.temperature, s.scoring.max_tokens) == (0.3, 512)
    assert (s.generation.temperature, s.generation.max_tokens) == (0.7, 1024)
    assert {s.client(c).timeout_s for c in CLIENTS} == {30.0}
    assert s.scoring.base_url == "https://api.moonshot.ai/v1"
    assert s.notes == {}


def test_no_key_anywhere_means_offline_and_says_why() -> None:
    s = resolve_llm_settings(env={})
    assert s.all_offline
    assert s.describe() == "offline (no API key found)"
    assert {s.client(c).model for c in CLIENTS} == {"offline"}


def test_explicit_offline_is_described_without_a_reason() -> None:
    assert offline_settings().describe() == "offline"


def test_missing_default_key_falls_back_to_first_present_provider() -> None:
    s = resolve_llm_settings(env={"ANTHROPIC_API_KEY": "a"})
    assert s.scoring.provider == "anthropic"
    assert s.scoring.model == "claude-sonnet-4-6"  # the provider's default, not kimi's model
    assert s.scoring.max_tokens == 512  # the client's limits stay
    assert s.notes["scoring"] == "KIMI_API_KEY not set"
    assert s.describe() == "anthropic claude-sonnet-4-6 for extraction, scoring and generation"


def test_provider_order_is_anthropic_openai_kimi_deepseek() -> None:
    s = resolve_llm_settings(env={"DEEPSEEK_API_KEY": "d", "OPENAI_API_KEY": "o"})
    assert s.extraction.provider == "openai"
    assert s.extraction.model == "gpt-4o-mini"
    s = resolve_llm_settings(env={"DEEPSEEK_API_KEY": "d"})
    assert (s.generation.provider, s.generation.model) == ("deepseek", "deepseek-chat")
    assert s.generation.base_url == "https://api.deepseek.com"


def test_mixed_clients_are_described_per_group() -> None:
    s = resolve_llm_settings(env={"ANTHROPIC_API_KEY": "a", "KIMI_API_KEY": "k"})
    assert s.describe() == ("anthropic claude-sonnet-4-6 for extraction and generation, "
                            "kimi kimi-k2-0905-preview for scoring")
    assert "respondent" in s.describe(include_respondent=True)


def test_env_overrides_defaults_and_flags_override_env() -> None:
    env = {**FAKE_KEYS, "LLM_SCORING_PROVIDER": "deepseek", "LLM_SCORING_MODEL": "deepseek-x",
           "LLM_GENERATION_MODEL": "claude-haiku-4-5"}
    s = resolve_llm_settings(env=env)
    assert (s.scoring.provider, s.scoring.model) == ("deepseek", "deepseek-x")
    assert s.generation.model == "claude-haiku-4-5"

    s = resolve_llm_settings(provider="openai", env=env)  # --provider beats LLM_*_PROVIDER
    assert {s.client(c).provider for c in CLIENTS} == {"openai"}
    assert s.scoring.model == "deepseek-x"  # ...but a model set in env still applies

    s = resolve_llm_settings(provider="openai", env=env,
                             per_client={"scoring": {"provider": "kimi", "model": "k-1"},
                                         "generation": "anthropic"})
    assert (s.scoring.provider, s.scoring.model) == ("kimi", "k-1")
    assert (s.generation.provider, s.generation.model) == ("anthropic", "claude-haiku-4-5")
    assert s.extraction.provider == "openai"


def test_per_client_flags_may_set_limits() -> None:
    s = resolve_llm_settings(env={}, per_client={"generation": {"temperature": 0.9,
                                                                "timeout_s": 5}})
    assert (s.generation.temperature, s.generation.timeout_s) == (0.9, 5.0)
    with pytest.raises(ConfigError, match="generation: temperature"):
        resolve_llm_settings(env={}, per_client={"generation": {"temperature": 9}})
    with pytest.raises(ConfigError, match="unknown setting"):
        resolve_llm_settings(env={}, per_client={"generation": {"api_key": "x"}})
    with pytest.raises(ConfigError, match="unknown LLM client"):
        resolve_llm_settings(env={}, per_client={"writer": "offline"})


@pytest.mark.parametrize(
    ("kwargs", "env", "var", "origin"),
    [
        ({"provider": "anthropic"}, {}, "ANTHROPIC_API_KEY", "--provider"),
        ({}, {"LLM_SCORING_PROVIDER": "kimi"}, "KIMI_API_KEY", "LLM_SCORING_PROVIDER"),
        ({"per_client": {"generation": "openai"}}, {}, "OPENAI_API_KEY", "generation provider"),
        ({}, {"LLM_RESPONDENT_PROVIDER": "deepseek"}, "DEEPSEEK_API_KEY",
         "LLM_RESPONDENT_PROVIDER"),
    ],
)
def test_explicit_provider_without_its_key_names_the_variable(
    kwargs: dict, env: dict, var: str, origin: str
) -> None:
    with pytest.raises(ConfigError) as info:
        resolve_llm_settings(env=env, **kwargs)
    assert var in str(info.value)
    assert origin in str(info.value)


def test_unknown_provider_is_a_config_error_naming_the_source() -> None:
    with pytest.raises(ConfigError, match="LLM_EXTRACTION_PROVIDER: unknown provider 'claude'"):
        resolve_llm_settings(env={"LLM_EXTRACTION_PROVIDER": "claude"})
    with pytest.raises(ConfigError, match="--provider"):
        resolve_llm_settings(provider="gpt", env={})


def test_base_urls_come_from_env() -> None:
    env = {**FAKE_KEYS, "ANTHROPIC_BASE_URL": "http://127.0.0.1:9", "KIMI_BASE_URL": "http://k/v1"}
    s = resolve_llm_settings(env=env)
    assert s.extraction.base_url == "http://127.0.0.1:9"
    assert s.scoring.base_url == "http://k/v1"
    assert resolve_llm_settings(env=FAKE_KEYS).extraction.base_url is None  # the SDK's own


def test_keys_never_reach_settings_or_their_serialisation() -> None:
    env = {**FAKE_KEYS, "LLM_SCORING_PROVIDER": "deepseek"}
    s = resolve_llm_settings(env=env)
    dumped = s.model_dump_json() + repr(s) + s.describe(include_respondent=True)
    dumped += json.dumps(s.model_dump())
    for key in FAKE_KEYS.values():
        assert key not in dumped


def test_explicit_provider_error_does_not_leak_other_keys() -> None:
    with pytest.raises(ConfigError) as info:
        resolve_llm_settings(provider="kimi", env={"ANTHROPIC_API_KEY": FAKE_KEYS[
            "ANTHROPIC_API_KEY"]})
    assert FAKE_KEYS["ANTHROPIC_API_KEY"] not in str(info.value)


def test_every_task_has_a_client() -> None:
    s = offline_settings()
    for task in ("extract", "assess", "generate_opening", "generate_question", "propose_slots",
                 "respond_as_persona"):
        assert s.for_task(task) is s.client(TASK_CLIENT[task])
    assert TASK_CLIENT["propose_slots"] == "extraction"
    assert TASK_CLIENT["assess"] == "scoring"


def test_a_broken_defaults_file_is_a_config_error(tmp_path) -> None:
    bad = tmp_path / "defaults.yaml"
    bad.write_text("provider_order: [anthropic]\nproviders: {}\nclients: {extraction: 3}\n")
    with pytest.raises(ConfigError) as info:
        load_defaults(str(bad))
    assert str(bad) in info.value.problems[0]


def test_effort_follows_the_seed_and_only_for_anthropic() -> None:
    s = resolve_llm_settings(env={"ANTHROPIC_API_KEY": "a", "KIMI_API_KEY": "k"})
    assert (s.extraction.effort, s.generation.effort, s.scoring.effort) == ("medium", "low",
                                                                            None)
    s = resolve_llm_settings(env={"OPENAI_API_KEY": "o"})
    assert {s.client(c).effort for c in CLIENTS} == {None}  # openai would reject it
