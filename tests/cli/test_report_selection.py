"""`interview report` over a sessions directory keeps the study's interviews apart from what
else lives there: a batch's simulated sessions, failed runs, sessions with no answer yet; and
says what it included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from interview_cli.cli.app import app


def cli(*args: str, sessions: Path, input: str | None = None) -> Result:
    return CliRunner().invoke(
        app, [*args, "--sessions-dir", str(sessions)], input=input, catch_exceptions=False
    )


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two live interviews with answers (one marked failed), one with none, and a batch."""
    sessions = tmp_path_factory.mktemp("mixed") / "sessions"
    for answers in ("I like the sound\nIt helps me focus\n", "The battery lasts\n", ""):
        assert cli("run", "-c", "headphones_mec", sessions=sessions, input=answers).exit_code == 0
    batch = cli(
        "batch", "cooperative", "-c", "headphones_mec", "--max-turns", "4", sessions=sessions
    )
    assert batch.exit_code == 0, batch.output
    live = sorted(sessions.glob("*.json"), key=lambda p: p.stat().st_mtime)
    doc = json.loads(live[1].read_text(encoding="utf-8"))
    doc["status"] = "failed"
    live[1].write_text(json.dumps(doc), encoding="utf-8")
    return sessions


def report_json(*args: str, sessions: Path) -> dict:
    result = cli("report", "--json", *args, sessions=sessions)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_by_default_only_live_interviews_with_answers_are_reported(mixed: Path) -> None:
    doc = report_json(sessions=mixed)
    assert len(doc["sessions"]) == 1
    assert doc["selection"] == {
        "statuses": ["paused", "completed"],
        "origins": ["live"],
        "included": 1,
        "left_out": {"batch": 1, "failed": 1, "no_answers": 1},
    }


def test_status_and_origin_bring_the_rest_in(mixed: Path) -> None:
    doc = report_json("--origin", "all", "--status", "all", sessions=mixed)
    assert doc["selection"]["included"] == 3
    assert doc["selection"]["left_out"] == {"no_answers": 1}
    batch_only = report_json("--origin", "batch", sessions=mixed)
    assert [s["id"] for s in batch_only["sessions"]] == [
        "cooperative-headphones_mec-adaptive-s0-r1"
    ]


def test_the_report_says_what_it_included(mixed: Path) -> None:
    shown = cli("report", sessions=mixed, input=None)
    flat = " ".join(shown.stdout.split())
    assert "Sessions: 1 session (paused or completed; live); left out: 1 batch, 1 failed, " in flat
    assert "1 with no answer yet (see --status and --origin)." in flat
    markdown = cli("report", "-f", "md", sessions=mixed).stdout
    assert "Sessions: 1 session (paused or completed; live); left out:" in markdown


def test_a_directory_named_keeps_its_batch_sessions(mixed: Path) -> None:
    (folder,) = [p for p in mixed.iterdir() if p.is_dir()]
    doc = report_json(str(folder), sessions=mixed)
    assert doc["selection"]["origins"] == ["live", "batch"] and len(doc["sessions"]) == 1


def test_nothing_left_to_report_says_why(mixed: Path) -> None:
    result = cli("report", "--status", "active", sessions=mixed)
    assert result.exit_code == 2
    assert "no session to report: 0 sessions (active; live); left out:" in result.output
    bad = cli("report", "--status", "done", sessions=mixed)
    assert bad.exit_code == 2 and "--status 'done' is not a session status" in bad.output


def test_a_session_named_on_its_own_is_reported_as_it_is(mixed: Path) -> None:
    failed = next(
        p
        for p in mixed.glob("*.json")
        if json.loads(p.read_text(encoding="utf-8"))["status"] == "failed"
    )
    doc = report_json(str(failed), sessions=mixed)
    assert len(doc["sessions"]) == 1 and doc["selection"]["left_out"] == {}
    filtered = cli("report", str(failed), "--status", "completed", sessions=mixed)
    assert filtered.exit_code == 2 and "left out: 1 failed" in filtered.output
