"""Running a command in-process, and the one-line error every refusal must be: the helpers
the CLI and storage tests share."""

from __future__ import annotations

from typing import Any

from typer.testing import CliRunner

from interview_cli.cli.app import app


def cli(*args: str, stdin: str | None = None) -> Any:
    """``interview ARGS`` with ``stdin`` typed in; stdout and stderr kept apart."""
    return CliRunner().invoke(app, list(args), input=stdin)


def error_line(stderr: str) -> str:
    """The single ``error: ...`` line of ``stderr``: no traceback, no second line, never the
    catch-all "unexpected" (a refusal names what is wrong)."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and "Traceback" not in stderr, stderr
    assert "unexpected" not in lines[0], lines[0]
    return lines[0]


def one_error_line(result: Any) -> str:
    """A refused command: exit code 2 and one error line, which is returned."""
    assert result.exit_code == 2, result.output
    return error_line(result.stderr)
