"""The root app: --version, --help that teaches, light start-up, and the one error path."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
import typer
from typer.testing import CliRunner

from interview_cli import __version__
from interview_cli.cli.app import app
from interview_cli.cli.common import handle_errors
from interview_cli.errors import ConfigError, LLMError, UsageError


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"interview-cli {__version__}\n"


@pytest.mark.slow
def test_python_dash_m_runs_the_same_app() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "interview_cli", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"interview-cli {__version__}"


def test_help_lists_the_commands_and_how_to_start() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("validate", "methodologies", "concepts", "personas"):
        assert command in result.stdout
    assert "interview run --concept headphones_mec --provider offline" in result.stdout
    assert "--debug" in result.stdout


@pytest.mark.parametrize("command", ["validate", "methodologies", "concepts", "personas"])
def test_command_help_has_examples(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Examples" in result.stdout
    assert f"interview {command}" in result.stdout
    assert "--library" in result.stdout


@pytest.mark.slow
def test_help_does_not_import_the_llm_sdks() -> None:
    """Start-up must stay light: SDKs are imported inside the commands that call a model."""
    code = """
import sys
from interview_cli.cli.app import main
commands = [name for name in (c.name or c.callback.__name__ for c in
            __import__("interview_cli.cli.app", fromlist=["app"]).app.registered_commands)]
for argv in [["--help"], *[[name, "--help"] for name in commands]]:
    sys.argv = ["interview", *argv]
    try:
        main()
    except SystemExit as exit:
        assert exit.code in (0, None), (argv, exit.code)
loaded = sorted({m.split(".")[0] for m in sys.modules} & {"anthropic", "openai"})
print("SDKS:", ",".join(loaded))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "SDKS:"


# -- the one error path --------------------------------------------------------------------


@pytest.fixture
def failing_commands() -> Iterator[None]:
    """Temporarily add commands that fail in each of the ways the error path handles."""
    saved = list(app.registered_commands)

    @app.command("fail-usage")
    def fail_usage() -> None:
        raise UsageError("unknown concept 'x'; try `interview concepts`")

    @app.command("fail-config")
    def fail_config() -> None:
        raise ConfigError("2 problems in 1 file", ["a.yaml: id: missing", "a.yaml: name: missing"])

    @app.command("fail-llm")
    def fail_llm() -> None:
        raise LLMError("openai gpt-x extract: timed out after 3 attempts", provider="openai")

    @app.command("fail-bug")
    def fail_bug() -> None:
        raise ValueError("something\nunexpected")

    @app.command("exit-3")
    def exit_3() -> None:
        raise typer.Exit(3)

    yield
    app.registered_commands[:] = saved


@pytest.mark.usefixtures("failing_commands")
@pytest.mark.parametrize(
    ("command", "code", "stderr"),
    [
        ("fail-usage", 2, ["error: unknown concept 'x'; try `interview concepts`"]),
        (
            "fail-config",
            2,
            ["error: a.yaml: id: missing", "error: a.yaml: name: missing", "2 problems in 1 file"],
        ),
        ("fail-llm", 1, ["error: openai gpt-x extract: timed out after 3 attempts"]),
        (
            "fail-bug",
            1,
            [
                "error: unexpected ValueError: something unexpected",
                "run with --debug (interview --debug <command> ...) or INTERVIEW_DEBUG=1 for the "
                "traceback",
            ],
        ),
        ("exit-3", 3, []),
    ],
)
def test_errors_become_lines_and_exit_codes(command: str, code: int, stderr: list[str]) -> None:
    result = CliRunner().invoke(app, [command])
    assert result.exit_code == code
    assert result.stderr.splitlines() == stderr
    assert result.stdout == ""
    assert "Traceback" not in result.output


@pytest.mark.usefixtures("failing_commands")
def test_debug_flag_reraises_with_the_traceback() -> None:
    result = CliRunner().invoke(app, ["--debug", "fail-bug"])
    assert isinstance(result.exception, ValueError)
    result = CliRunner().invoke(app, ["--debug", "fail-usage"])
    assert isinstance(result.exception, UsageError)


@pytest.mark.usefixtures("failing_commands")
def test_debug_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INTERVIEW_DEBUG", "1")
    result = CliRunner().invoke(app, ["fail-bug"])
    assert isinstance(result.exception, ValueError)


def test_unknown_command_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["interveiw"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_handle_errors_context_manager(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(typer.Exit) as exit_info, handle_errors():
        raise UsageError("bad --max-turns: 0")
    assert exit_info.value.exit_code == 2
    assert capsys.readouterr().err == "error: bad --max-turns: 0\n"
    with pytest.raises(UsageError), handle_errors(debug=True):
        raise UsageError("shown with its traceback")
