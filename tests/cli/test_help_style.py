"""What `--help` and small messages look like: no Typer type placeholders, readable
defaults, piped help laid out wide, a bare `interview` is help (exit 0), no pydantic prefix,
counts as words."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.session.schema import AnswerRecord, QuestionRecord, TurnRecord
from interview_cli.ui.interview import turn_summary

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str, width: int = 120):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": str(width)})


def test_flags_have_no_placeholder_and_values_read_like_click() -> None:
    for command in ("batch", "run", "report", "sessions", "export"):
        out = invoke(command, "--help").stdout
        assert "<bool>" not in out and "<str>" not in out and "<list" not in out, command
    batch = invoke("batch", "--help").stdout
    assert "INTEGER [1<=x<=1000]" in batch and "--dry-run  " in batch
    report = invoke("report", "--help").stdout
    assert "[default: 0.667]" in report and "0.6666" not in report


def test_piped_help_is_not_cut_at_80_columns() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TERMINAL_WIDTH", "LINES")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "interview_cli", "batch", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "--respondent-provider" in done.stdout and "…" not in done.stdout


def test_a_bare_interview_prints_help_and_exits_0() -> None:
    result = invoke()
    assert result.exit_code == 0
    assert "Usage:" in result.stdout and "batch" in result.stdout


def test_a_bad_choice_has_no_pydantic_prefix(tmp_path: Path) -> None:
    result = invoke("report", str(tmp_path), "--format", "htm")
    assert result.exit_code == 2
    assert "Value error" not in result.stderr and "'htm' is not one of" in result.stderr


def test_counts_are_words() -> None:
    turn = TurnRecord(
        turn_number=1,
        question=QuestionRecord(text="q"),
        answer=AnswerRecord(utterance_id="u1", text="a"),
        graph_delta={"nodes_added": [{"id": "n1"}], "edges_added": []},
    )
    assert "+1 node · +0 edges" in turn_summary(turn).plain
    # under the closing question, the move not asked is not shown (rounds 215-218)
    closing = TurnRecord.model_validate(
        {
            **turn.model_dump(),
            "decision": {"strategy": "deepen", "label": "habit now"},
            "continuation": {"should_continue": False, "reason": "respondent_fatigued"},
        }
    )
    line = turn_summary(closing).plain
    assert "next: closing" in line and "habit now" not in line
    dry = invoke(
        "batch", "cooperative", "-c", "headphones_mec", "--out", str(ROOT / "no"), "--dry-run"
    )
    assert dry.exit_code == 0, dry.output
    assert "Dry run: 1 interview to run" in dry.stdout and "(s)" not in dry.stdout


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command below ``command``, with the arguments that reach it."""
    yield path, command
    if hasattr(command, "list_commands"):  # a group
        ctx = typer.Context(command)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _commands(sub, (*path, name))


def test_option_names_are_never_cut_in_help_at_80_columns() -> None:
    """At 80 columns Rich cut '--extraction-provider' to '--extraction-pr…' (issue 21, 7)."""
    seen = 0
    for path, command in _commands(typer.main.get_command(app)):
        out = invoke(*path, "--help", width=80).stdout
        assert "…" not in out, (path, [line for line in out.splitlines() if "…" in line])
        for param in command.params:
            if param.param_type_name == "option" and not param.hidden:
                for name in (*param.opts, *param.secondary_opts):
                    assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", out), (path, name)
                    seen += 1
        assert max(map(len, out.splitlines())) <= 80, path
    assert seen > 100  # every command was read, not just the group
