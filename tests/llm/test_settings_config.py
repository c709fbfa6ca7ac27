"""Client settings tuned without editing the package: per-client timeouts and temperatures
from the environment, the user config file (INTERVIEW_LLM_CONFIG) and its task timeouts, and
broken defaults files, each a one-line error naming the file or variable."""

from __future__ import annotations

import pytest

from interview_cli.errors import ConfigError, UsageError
from interview_cli.llm.client_settings import OFFLINE_MODEL
from interview_cli.llm.config_file import CLIENTS, load_defaults
from interview_cli.llm.settings import resolve_llm_settings

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


# -- the defaults file itself -------------------------------------------------------------


def test_a_broken_defaults_file_is_a_config_error(tmp_path) -> None:
    bad = tmp_path / "defaults.yaml"
    bad.write_text("provider_order: [anthropic]\nproviders: {}\nclients: {extraction: 3}\n")
    with pytest.raises(ConfigError) as info:
        load_defaults(str(bad))
    assert str(bad) in info.value.problems[0]


def test_a_defaults_file_that_is_not_yaml_is_one_line(tmp_path) -> None:
    bad = tmp_path / "defaults.yaml"
    bad.write_text("clients:\n  extraction: {provider: [\n")
    with pytest.raises(ConfigError) as info:
        load_defaults(str(bad))
    assert str(info.value) == (
        f"{bad}: line 3, column 1: YAML syntax error: expected the node content, but found "
        "'<stream end>', while parsing a flow node (line 3)"
    )
