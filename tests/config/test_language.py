"""Study language codes: what `--language` and a concept's `language` accept, and what the
offline provider says about a language it cannot write."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.config.language import check_language, is_english, normalise_language
from interview_cli.errors import UsageError


@pytest.mark.parametrize(
    ("code", "normal"),
    [
        ("en", "en"),
        ("DE", "de"),
        ("pt-br", "pt-BR"),
        ("pt_BR", "pt-BR"),
        ("zh-hant", "zh-Hant"),
        ("zh-Hant-TW", "zh-Hant-TW"),
        ("es-419", "es-419"),
        ("yue", "yue"),
        (" fr ", "fr"),
    ],
)
def test_language_codes_are_normalised(code: str, normal: str) -> None:
    assert normalise_language(code) == normal
    assert check_language(code) == normal


@pytest.mark.parametrize("code", ["zzzzzz", "english", "e", "en-", "en-GBR", "de-DE-x", "1en", ""])
def test_anything_else_is_a_one_line_usage_error(code: str) -> None:
    assert normalise_language(code) is None
    with pytest.raises(UsageError) as info:
        check_language(code, "--language")
    assert str(info.value) == (
        f"--language: {code!r} is not a language code; use a 2-3 letter ISO 639 code, "
        "optionally with a region, e.g. en, de or pt-BR"
    )
    assert info.value.exit_code == 2


def test_none_means_the_respondents_language() -> None:
    assert check_language(None) is None
    assert not is_english(None) and is_english("en-GB") and not is_english("de")


def test_run_refuses_a_language_that_is_no_code() -> None:
    result = CliRunner().invoke(app, ["run", "-c", "headphones_mec", "--language", "zzzzzz"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: --language: 'zzzzzz' is not a language code; use a 2-3 letter ISO 639 code, "
        "optionally with a region, e.g. en, de or pt-BR"
    ]


def test_offline_run_in_another_language_says_it_writes_english() -> None:
    result = CliRunner().invoke(
        app,
        ["run", "-c", "headphones_mec", "--language", "de", "--provider", "offline"],
        input="/quit\n",
    )
    assert result.exit_code == 0, result.output
    # Printed as every other warning is (`batch` prints the same settings notices).
    notice = (
        "warning: study language de: the offline provider writes questions in English "
        "only; set an API key (or --provider) for the generation client to ask in de"
    )
    assert notice in result.stderr.splitlines()
    english = CliRunner().invoke(
        app,
        ["run", "-c", "headphones_mec", "--language", "en", "--provider", "offline"],
        input="/quit\n",
    )
    assert english.exit_code == 0 and "offline provider writes" not in english.stderr


def test_run_says_which_llm_settings_an_offline_client_ignores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not about language, but the same lines under the "LLM: ..." header of `run`.
    monkeypatch.setenv("LLM_SCORING_MODEL", "kimi-k2-turbo")
    result = CliRunner().invoke(app, ["run", "-c", "headphones_mec"], input="/quit\n")
    assert result.exit_code == 0, result.output
    assert "LLM: offline (no API key found)" in result.stdout
    assert (
        "warning: LLM_SCORING_MODEL=kimi-k2-turbo ignored: the scoring client runs offline "
        "(no API key found); set KIMI_API_KEY to use kimi-k2-turbo"
    ) in result.stderr.splitlines()
