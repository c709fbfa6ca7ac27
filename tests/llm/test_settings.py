"""Client settings: defaults, precedence (flags > env > defaults), key-based resolution, and
a model named for a client belonging to its provider. Settings tuned without editing the
package (timeouts and temperatures from the environment, the user and defaults files) are in
test_settings_config.py."""

from __future__ import annotations

import json

import pytest
from conftest import FAKE_KEYS

from interview_cli.errors import ConfigError, UsageError
from interview_cli.llm.client_settings import OFFLINE_MODEL, TASK_CLIENT
from interview_cli.llm.config_file import CLIENTS
from interview_cli.llm.settings import offline_settings, resolve_llm_settings


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
    # The same model name as each offline call records (not a separate "offline").
    assert {s.client(c).model for c in CLIENTS} == {OFFLINE_MODEL} == {"heuristic-v1"}


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
    assert s.describe() == (
        "anthropic claude-sonnet-4-6 for extraction and generation, "
        "kimi kimi-k2-0905-preview for scoring"
    )
    assert "respondent" in s.describe(include_respondent=True)


def test_env_overrides_defaults_and_flags_override_env() -> None:
    env = {
        **FAKE_KEYS,
        "LLM_SCORING_PROVIDER": "deepseek",
        "LLM_SCORING_MODEL": "deepseek-x",
        "LLM_GENERATION_MODEL": "claude-haiku-4-5",
    }
    s = resolve_llm_settings(env=env)
    assert (s.scoring.provider, s.scoring.model) == ("deepseek", "deepseek-x")
    assert s.generation.model == "claude-haiku-4-5"

    # --provider beats LLM_*_PROVIDER, but a model of another family named in env cannot
    # run there: refused at once, naming the variable (it used to 404 mid-interview).
    with pytest.raises(
        UsageError,
        match="^LLM_SCORING_MODEL=deepseek-x is a deepseek model, "
        "but the scoring client uses openai",
    ):
        resolve_llm_settings(provider="openai", env=env)
    env_same_family = {**env, "LLM_SCORING_MODEL": "gpt-x", "LLM_GENERATION_MODEL": "o4-mini"}
    s = resolve_llm_settings(provider="openai", env=env_same_family)
    assert {s.client(c).provider for c in CLIENTS} == {"openai"}
    assert (s.scoring.model, s.generation.model) == ("gpt-x", "o4-mini")  # env model applies

    s = resolve_llm_settings(
        provider="openai",
        env=env,
        per_client={"scoring": {"provider": "kimi", "model": "k-1"}, "generation": "anthropic"},
    )
    assert (s.scoring.provider, s.scoring.model) == ("kimi", "k-1")
    assert (s.generation.provider, s.generation.model) == ("anthropic", "claude-haiku-4-5")
    assert s.extraction.provider == "openai"


def test_per_client_flags_may_set_limits() -> None:
    s = resolve_llm_settings(
        env={}, per_client={"generation": {"temperature": 0.9, "timeout_s": 5}}
    )
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
        (
            {},
            {"LLM_RESPONDENT_PROVIDER": "deepseek"},
            "DEEPSEEK_API_KEY",
            "LLM_RESPONDENT_PROVIDER",
        ),
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
        resolve_llm_settings(
            provider="kimi", env={"ANTHROPIC_API_KEY": FAKE_KEYS["ANTHROPIC_API_KEY"]}
        )
    assert FAKE_KEYS["ANTHROPIC_API_KEY"] not in str(info.value)


def test_every_task_has_a_client() -> None:
    s = offline_settings()
    for task in (
        "extract",
        "assess",
        "generate_opening",
        "generate_question",
        "propose_slots",
        "respond_as_persona",
    ):
        assert s.for_task(task) is s.client(TASK_CLIENT[task])
    assert TASK_CLIENT["propose_slots"] == "extraction"
    assert TASK_CLIENT["assess"] == "scoring"


def test_effort_follows_the_seed_and_only_for_anthropic() -> None:
    s = resolve_llm_settings(env={"ANTHROPIC_API_KEY": "a", "KIMI_API_KEY": "k"})
    assert (s.extraction.effort, s.generation.effort, s.scoring.effort) == ("medium", "low", None)
    s = resolve_llm_settings(env={"OPENAI_API_KEY": "o"})
    assert {s.client(c).effort for c in CLIENTS} == {None}  # openai would reject it


# -- a model named for a client must belong to its provider --------------------------------


def test_a_model_of_another_family_is_refused_with_the_fix() -> None:
    # The audit's case: only an anthropic key, and a kimi model for scoring.
    env = {"ANTHROPIC_API_KEY": "a", "LLM_SCORING_MODEL": "kimi-k2-turbo"}
    with pytest.raises(UsageError) as info:
        resolve_llm_settings(env=env)
    message = str(info.value)
    assert "\n" not in message and info.value.exit_code == 2
    assert message == (
        "LLM_SCORING_MODEL=kimi-k2-turbo is a kimi model, but the scoring client uses anthropic "
        "(resolved from the API keys set): set LLM_SCORING_PROVIDER=kimi (with KIMI_API_KEY), "
        "or unset LLM_SCORING_MODEL"
    )
    # With the provider named as the message says, the same model is fine.
    s = resolve_llm_settings(env={**env, "LLM_SCORING_PROVIDER": "kimi", "KIMI_API_KEY": "k"})
    assert (s.scoring.provider, s.scoring.model) == ("kimi", "kimi-k2-turbo")


@pytest.mark.parametrize(
    ("provider", "model", "family"),
    [
        ("openai", "claude-haiku-4-5", "anthropic"),
        ("anthropic", "gpt-4o", "openai"),
        ("anthropic", "o3-mini", "openai"),
        ("anthropic", "chatgpt-4o-latest", "openai"),
        ("deepseek", "moonshot-v1-8k", "kimi"),
        ("kimi", "deepseek-chat", "deepseek"),
    ],
)
def test_every_family_is_recognised(provider: str, model: str, family: str) -> None:
    env = {**FAKE_KEYS, "LLM_GENERATION_PROVIDER": provider, "LLM_GENERATION_MODEL": model}
    with pytest.raises(
        UsageError,
        match=f"is an? {family} model.*set LLM_GENERATION_PROVIDER="
        f"{family}, or unset LLM_GENERATION_MODEL$",
    ):
        resolve_llm_settings(env=env)


@pytest.mark.parametrize("model", ["my-finetune", "llama-3.1-70b", "omni-x", "o2", "claudette"])
def test_unknown_model_names_are_accepted(model: str) -> None:
    s = resolve_llm_settings(env={"ANTHROPIC_API_KEY": "a", "LLM_SCORING_MODEL": model})
    assert (s.scoring.provider, s.scoring.model) == ("anthropic", model)


def test_a_base_url_from_the_environment_may_serve_any_model() -> None:
    # An OpenAI-compatible proxy (OPENAI_BASE_URL) can serve claude models by name.
    env = {
        "OPENAI_API_KEY": "o",
        "OPENAI_BASE_URL": "http://proxy.local/v1",
        "LLM_EXTRACTION_MODEL": "claude-sonnet-4-6",
    }
    s = resolve_llm_settings(env=env)
    assert (s.extraction.provider, s.extraction.model) == ("openai", "claude-sonnet-4-6")


def test_a_model_flag_of_another_family_is_refused_too() -> None:
    with pytest.raises(
        UsageError,
        match=r"^the scoring model option \(kimi-k2\) is a kimi "
        r"model.*or drop the model option$",
    ):
        resolve_llm_settings(
            env={"ANTHROPIC_API_KEY": "a"}, per_client={"scoring": {"model": "kimi-k2"}}
        )


def test_an_offline_client_ignores_model_variables_and_says_so() -> None:
    s = resolve_llm_settings(
        env={"LLM_SCORING_MODEL": "kimi-k2-turbo", "LLM_GENERATION_TIMEOUT": "12"}
    )
    assert s.all_offline and s.scoring.model == OFFLINE_MODEL
    assert s.notices == [
        "LLM_SCORING_MODEL=kimi-k2-turbo ignored: the scoring client runs offline "
        "(no API key found); set KIMI_API_KEY to use kimi-k2-turbo",
        "LLM_GENERATION_TIMEOUT=12 ignored: the generation client runs offline (no API key found)",
    ]
    s = resolve_llm_settings(provider="offline", env={"LLM_SCORING_MODEL": "mine"})
    assert s.notices == [
        "LLM_SCORING_MODEL=mine ignored: the scoring client runs offline (chosen by --provider)"
    ]
    assert resolve_llm_settings(env={}).notices == []


def test_a_forced_offline_client_does_not_suggest_a_key() -> None:
    # With -p offline a key would change nothing: no "set ANTHROPIC_API_KEY to use ...".
    env = {"LLM_SCORING_MODEL": "claude-sonnet-4"}
    s = resolve_llm_settings(provider="offline", env=env)
    assert s.notices == [
        "LLM_SCORING_MODEL=claude-sonnet-4 ignored: the scoring client runs "
        "offline (chosen by --provider)"
    ]
    s = resolve_llm_settings(env={**env, "LLM_SCORING_PROVIDER": "offline"})
    assert s.notices == [
        "LLM_SCORING_MODEL=claude-sonnet-4 ignored: the scoring client runs "
        "offline (chosen by LLM_SCORING_PROVIDER)"
    ]


def test_the_language_notice_is_for_offline_question_writing_only() -> None:
    from interview_cli.llm.settings import language_notice

    offline = offline_settings()
    assert language_notice(offline, None) is None
    assert language_notice(offline, "en") is None and language_notice(offline, "en-GB") is None
    assert language_notice(offline, "de") == (
        "study language de: the offline provider writes questions in English only; set an "
        "API key (or --provider) for the generation client to ask in de"
    )
    assert language_notice(resolve_llm_settings(env={"OPENAI_API_KEY": "o"}), "de") is None
