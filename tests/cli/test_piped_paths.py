"""Piped or redirected, a message never breaks a path in two: a script (or a person copying
it) must find the whole path on one line, whatever the width Rich assumes for a pipe."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from interview_cli.cli.app import app


def test_paths_in_messages_stay_whole_at_80_columns(tmp_path: Path) -> None:
    deep = tmp_path / ("a-folder-with-a-rather-long-name-" * 3) / "and-one-more-level"
    deep.mkdir(parents=True)
    sessions = deep / "sessions"
    env = {"COLUMNS": "80"}
    run = CliRunner().invoke(
        app,
        ["run", "-c", "headphones_mec", "--sessions-dir", str(sessions)],
        input="Sound\n",
        env=env,
    )
    assert run.exit_code == 0, run.output
    (path,) = sessions.glob("*.json")
    graph = deep / "graph.dot"
    exported = CliRunner().invoke(
        app, ["export", str(path), "-f", "dot", "--out", str(graph)], env=env
    )
    assert exported.exit_code == 0, exported.output
    assert str(graph) in exported.stdout.splitlines()[-1]
    dry = CliRunner().invoke(
        app,
        [
            "batch",
            "cooperative",
            "-c",
            "headphones_mec",
            "--dry-run",
            "--sessions-dir",
            str(sessions),
        ],
        env=env,
    )
    assert dry.exit_code == 0, dry.output
    assert any(str(sessions) in line for line in dry.stdout.splitlines())
    report = CliRunner().invoke(
        app, ["report", str(path), "-f", "md", "--out", str(deep / "r.md")], env=env
    )
    assert report.exit_code == 0, report.output
    assert str(deep / "r.md") in report.stdout
