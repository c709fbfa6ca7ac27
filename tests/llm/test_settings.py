"""Client settings: defaults, precedence (flags > env > defaults), key-based resolution."""

from __future__ import annotations

import json

import pytest
from conftest import FAKE_KEYS

from interview_cli.errors import ConfigError, UsageError
from interview_cli.llm.settings import (
    CLIENTS,
    OFFLINE_MODEL,
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


def test_a_broken_defaults_file_is_a_config_error(tmp_path) -> None:
    bad = tmp_path / "defaults.yaml"
    bad.write_text("provider_order: [anthropic]\nproviders: {}\nclients: {extraction: 3}\n")
    with pytest.raises(ConfigError) as info:
        load_defaults(str(bad))
    assert str(bad) in info.value.problems[0]


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


# -- timeouts and temperatures without editing the package ---------------------------------


def test_per_client_timeout_and_temperature_from_env() -> None:
    env = {"OPENAI_API_KEY": "o", "LLM_GENERATION_TIMEOUT": "7.5", "LLM_SCORING_TEMPERATURE": "0"}
    s = resolve_llm_settings(env=env)
    assert (s.generation.timeout_s, s.extraction.timeout_s) == (7.5, 30.0)
    assert (s.scoring.temperature, s.generation.temperature) == (0.0, 0.7)
    # A flag still beats the variable.
    s = resolve_llm_settings(env=env, per_client={"generation": {"timeout_s": 3}})
    assert s.generation.timeout_s == 3.0


@pytest.mark.parametrize(
    ("var", "value", "expected"),
    [
        (
            "LLM_GENERATION_TIMEOUT",
            "0",
            "LLM_GENERATION_TIMEOUT: expected seconds above 0, got '0'; fix or unset it",
        ),
        (
            "LLM_GENERATION_TIMEOUT",
            "soon",
            "LLM_GENERATION_TIMEOUT: expected seconds above 0, got 'soon'; fix or unset it",
        ),
        (
            "LLM_EXTRACTION_TIMEOUT",
            "inf",
            "LLM_EXTRACTION_TIMEOUT: expected seconds above 0, got 'inf'; fix or unset it",
        ),
        (
            "LLM_SCORING_TEMPERATURE",
            "2.5",
            "LLM_SCORING_TEMPERATURE: expected a temperature "
            "from 0 to 2, got '2.5'; fix or unset it",
        ),
    ],
)
def test_bad_timeout_or_temperature_variables_are_one_line_errors(
    var: str, value: str, expected: str
) -> None:
    with pytest.raises(ConfigError) as info:
        resolve_llm_settings(env={"OPENAI_API_KEY": "o", var: value})
    assert str(info.value) == expected


def test_a_temperature_for_anthropic_is_ignored_with_a_notice() -> None:
    s = resolve_llm_settings(env={"ANTHROPIC_API_KEY": "a", "LLM_GENERATION_TEMPERATURE": "1"})
    assert s.generation.provider == "anthropic"
    assert s.notices == [
        "LLM_GENERATION_TEMPERATURE ignored: the generation client uses "
        "anthropic, which takes no temperature here (its effort setting "
        "applies)"
    ]


def write(tmp_path, text: str):
    path = tmp_path / "llm.yaml"
    path.write_text(text)
    return path


def test_user_config_file_overrides_only_what_it_sets(tmp_path) -> None:
    path = write(
        tmp_path,
        "clients:\n  generation: {timeout_s: 45, max_attempts: 5}\n"
        "  scoring: {temperature: 0.0}\n"
        "retry: {retry_after_cap_s: 5}\n",
    )
    s = resolve_llm_settings(env={"OPENAI_API_KEY": "o", "INTERVIEW_LLM_CONFIG": str(path)})
    assert (s.generation.timeout_s, s.generation.max_attempts) == (45.0, 5)
    assert (s.generation.max_tokens, s.generation.temperature) == (1024, 0.7)  # shipped
    assert s.scoring.temperature == 0.0
    assert (s.retry.retry_after_cap_s, s.retry.max_delay_s) == (5.0, 16.0)
    # The environment is stronger than the file.
    s = resolve_llm_settings(
        env={
            "OPENAI_API_KEY": "o",
            "INTERVIEW_LLM_CONFIG": str(path),
            "LLM_GENERATION_TIMEOUT": "9",
        }
    )
    assert s.generation.timeout_s == 9.0


def test_a_copy_of_the_shipped_defaults_is_a_valid_user_file(tmp_path) -> None:
    from importlib import resources

    shipped = resources.files("interview_cli.llm").joinpath("defaults.yaml").read_text()
    path = write(tmp_path, shipped.replace("timeout_s: 30", "timeout_s: 12"))
    s = resolve_llm_settings(env={"INTERVIEW_LLM_CONFIG": str(path)})
    assert {s.client(c).timeout_s for c in CLIENTS} == {12.0}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "clients:\n  generation: {timeout: 20}\n",
            "llm.yaml: clients.generation.timeout: unknown key (did you mean 'timeout_s'?); "
            "allowed: effort, max_attempts, max_tokens, model, provider, temperature, timeout_s",
        ),
        (
            "clients:\n  generation: {timeout_s: -1}\n",
            "llm.yaml: clients.generation.timeout_s: Input should be greater than 0, got -1",
        ),
        (
            "clients:\n  generation: {temperature: null}\n",
            "llm.yaml: clients.generation.temperature: Input should be a valid number, got None",
        ),
        ("clients:\n  writer: {timeout_s: 5}\n", "llm.yaml: clients.writer"),
        (
            "tasks:\n  generate_question: {timeout_s: 0}\n",
            "llm.yaml: tasks.generate_question.timeout_s: Input should be greater than 0, got 0",
        ),
        (
            "retry: {retry_after_cap_s: lots}\n",
            "llm.yaml: retry.retry_after_cap_s: Input should be a valid number",
        ),
        ("clients: [generation]\n", "llm.yaml: clients: Input should be a valid dictionary"),
        (
            "- just a list\n",
            "llm.yaml: expected INTERVIEW_LLM_CONFIG settings shaped like the shipped "
            "defaults.yaml (a mapping of keys at the top level), found a list",
        ),
        (
            "clients:\n  generation: {timeout_s: [\n",
            "llm.yaml: line 3, column 1: YAML syntax error: ",
        ),
        # Plain YAML keeps the last of two keys silently; the library loader refuses them.
        (
            "clients:\n  generation: {timeout_s: 5}\nclients:\n  scoring: {timeout_s: 5}\n",
            "llm.yaml: line 3: duplicate key 'clients' (only the last value would be used)",
        ),
    ],
)
def test_a_broken_user_config_is_one_line_naming_file_and_key(
    tmp_path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        resolve_llm_settings(env={"INTERVIEW_LLM_CONFIG": str(path)})
    (line,) = info.value.problems
    assert "\n" not in line and "\n" not in info.value.message
    assert expected in line
    assert "llm.yaml" in line


def test_a_user_config_that_is_not_utf8_is_a_config_error(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "llm.yaml"
    path.write_bytes("clients:\n  generation: {model: caf\u00e9}\n".encode("latin-1"))
    with pytest.raises(ConfigError) as info:
        resolve_llm_settings(env={"INTERVIEW_LLM_CONFIG": str(path)})
    assert str(info.value) == "llm.yaml: not UTF-8 text (byte 34); save the file as UTF-8"
    assert info.value.exit_code == 2


def test_an_empty_user_config_overrides_nothing(tmp_path) -> None:
    path = write(tmp_path, "# every key commented out\n# clients: {}\n")
    s = resolve_llm_settings(env={"OPENAI_API_KEY": "o", "INTERVIEW_LLM_CONFIG": str(path)})
    assert s == resolve_llm_settings(env={"OPENAI_API_KEY": "o"})


def test_a_provider_named_in_the_user_file_brings_its_default_model(tmp_path) -> None:
    # The shipped scoring client is kimi with a kimi model; naming only openai in the file
    # must not send kimi-k2-... to openai.
    path = write(tmp_path, "clients:\n  scoring: {provider: openai}\n")
    env = {"OPENAI_API_KEY": "o", "KIMI_API_KEY": "k", "INTERVIEW_LLM_CONFIG": str(path)}
    s = resolve_llm_settings(env=env)
    assert (s.scoring.provider, s.scoring.model) == ("openai", "gpt-4o-mini")
    # The same provider from a flag or the environment: the same default model.
    s = resolve_llm_settings(env={**env, "LLM_SCORING_PROVIDER": "openai"})
    assert (s.scoring.provider, s.scoring.model) == ("openai", "gpt-4o-mini")
    # A model written next to the provider is kept.
    path.write_text("clients:\n  scoring: {provider: openai, model: gpt-4.1}\n")
    s = resolve_llm_settings(env=env)
    assert (s.scoring.provider, s.scoring.model) == ("openai", "gpt-4.1")
    # A model named explicitly still goes through the family check, and the message says
    # where the provider came from.
    path.write_text("clients:\n  scoring: {provider: openai}\n")
    with pytest.raises(
        UsageError,
        match=r"^LLM_SCORING_MODEL=kimi-k2 is a kimi model, but "
        r"the scoring client uses openai \(chosen by "
        r"INTERVIEW_LLM_CONFIG\): set LLM_SCORING_PROVIDER=kimi",
    ):
        resolve_llm_settings(env={**env, "LLM_SCORING_MODEL": "kimi-k2"})


def test_offline_in_the_user_file_needs_no_key_and_takes_none(tmp_path) -> None:
    path = write(tmp_path, "clients:\n  scoring: {provider: offline}\n")
    s = resolve_llm_settings(env={"ANTHROPIC_API_KEY": "a", "INTERVIEW_LLM_CONFIG": str(path)})
    assert (s.scoring.provider, s.scoring.model) == ("offline", OFFLINE_MODEL)
    assert s.extraction.provider == "anthropic" and "scoring" not in s.notes


def test_a_base_url_from_the_user_file_may_serve_any_model(tmp_path) -> None:
    path = write(tmp_path, "providers:\n  openai: {base_url: 'http://proxy.local/v1'}\n")
    env = {
        "OPENAI_API_KEY": "o",
        "LLM_EXTRACTION_MODEL": "claude-sonnet-4-6",
        "INTERVIEW_LLM_CONFIG": str(path),
    }
    s = resolve_llm_settings(env=env)
    assert (s.extraction.provider, s.extraction.model, s.extraction.base_url) == (
        "openai",
        "claude-sonnet-4-6",
        "http://proxy.local/v1",
    )
    # A shipped base URL (kimi's own API) is no proxy: the check still applies there.
    with pytest.raises(UsageError, match="is an? anthropic model"):
        resolve_llm_settings(env={"KIMI_API_KEY": "k", "LLM_SCORING_MODEL": "claude-sonnet-4-6"})


def test_a_missing_user_config_names_the_variable(tmp_path) -> None:
    with pytest.raises(
        ConfigError,
        match=r"nope\.yaml: cannot read the LLM config file "
        r"\(INTERVIEW_LLM_CONFIG\)",
    ):
        resolve_llm_settings(env={"INTERVIEW_LLM_CONFIG": str(tmp_path / "nope.yaml")})


def test_task_timeouts_override_their_client_within_the_same_file(tmp_path) -> None:
    path = write(
        tmp_path,
        "clients:\n  generation: {timeout_s: 60}\ntasks:\n  generate_question: {timeout_s: 20}\n",
    )
    env = {"OPENAI_API_KEY": "o", "INTERVIEW_LLM_CONFIG": str(path)}
    s = resolve_llm_settings(env=env)
    assert s.task_timeouts == {"generate_question": 20.0}
    assert (s.timeout_for("generate_question"), s.timeout_for("generate_opening")) == (20.0, 60.0)
    assert s.timeout_for("extract") == 30.0
    # A client timeout set somewhere stronger (env, flags) wins over the file's task timeout.
    s = resolve_llm_settings(env={**env, "LLM_GENERATION_TIMEOUT": "90"})
    assert s.task_timeouts == {} and s.timeout_for("generate_question") == 90.0
    s = resolve_llm_settings(env=env, per_client={"generation": {"timeout_s": 5}})
    assert s.timeout_for("generate_question") == 5.0


def test_shipped_task_timeouts_yield_to_a_user_client_timeout(tmp_path) -> None:
    from importlib import resources

    shipped = resources.files("interview_cli.llm").joinpath("defaults.yaml").read_text()
    base = tmp_path / "defaults.yaml"
    base.write_text(shipped.replace("tasks: {}", "tasks: {assess: {timeout_s: 10}}"))
    s = resolve_llm_settings(env={"OPENAI_API_KEY": "o"}, defaults_path=str(base))
    assert s.timeout_for("assess") == 10.0
    user = write(tmp_path, "clients:\n  scoring: {timeout_s: 50}\n")
    s = resolve_llm_settings(
        env={"OPENAI_API_KEY": "o", "INTERVIEW_LLM_CONFIG": str(user)}, defaults_path=str(base)
    )
    assert s.timeout_for("assess") == 50.0


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


def test_a_defaults_file_that_is_not_yaml_is_one_line(tmp_path) -> None:
    bad = tmp_path / "defaults.yaml"
    bad.write_text("clients:\n  extraction: {provider: [\n")
    with pytest.raises(ConfigError) as info:
        load_defaults(str(bad))
    assert str(info.value) == (
        f"{bad}: line 3, column 1: YAML syntax error: expected the node content, but found "
        "'<stream end>', while parsing a flow node (line 3)"
    )
