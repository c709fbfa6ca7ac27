"""A summary rating given after the close (round 76-78: answers typed one per command through a
pipe end before the rating prompt, and resuming a completed session is refused): `interview
sessions rate ID N` records it, once, with a clear line for each way it cannot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

ANSWERS = ["The noise cancelling.", "Because I can focus at work.", "Yes, that covers it."]


def _interview(sessions: Path, answers: list[str]) -> tuple[str, Path, str]:
    """An offline interview answered through a pipe that ends before the rating prompt."""
    result = CliRunner().invoke(
        app,
        ["run", "--sessions-dir", str(sessions), "-c", "headphones_mec", "-p", "offline"]
        + ["--max-turns", "2"],
        input="".join(line + "\n" for line in answers),
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    return path.stem, path, result.output


def _doc(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _rate(sessions: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["sessions", "rate", *args, "--sessions-dir", str(sessions)])


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


def test_a_summary_left_unrated_at_the_close_is_rated_later(sessions: Path) -> None:
    session_id, path, output = _interview(sessions, ANSWERS)
    assert f"interview sessions rate {session_id} N" in output
    closing = _doc(path)["closing"]
    assert closing["summary"] and closing["rating"] is None
    rated = _rate(sessions, session_id, "3")
    assert rated.exit_code == 0, rated.output
    assert "rated 3 of 4" in rated.output
    after = _doc(path)["closing"]
    assert after["rating"] == 3 and after["summary"] == closing["summary"]
    # given once: a second rating replaces it only when asked to
    again = _rate(sessions, session_id, "1")
    assert again.exit_code == 2 and "already rated 3" in again.output and "--force" in again.output
    assert _doc(path)["closing"]["rating"] == 3
    forced = _rate(sessions, session_id, "1", "--force")
    assert forced.exit_code == 0 and _doc(path)["closing"]["rating"] == 1


def test_a_rating_is_one_to_four_and_needs_a_closed_interview(sessions: Path) -> None:
    session_id, path, _ = _interview(sessions, ANSWERS[:1])  # paused before the close
    before = path.read_bytes()
    assert _doc(path)["status"] != "completed"
    early = _rate(sessions, session_id, "3")
    assert early.exit_code == 2 and "no closing summary to rate" in early.output
    wrong = _rate(sessions, session_id, "5")
    assert wrong.exit_code == 2 and "Traceback" not in wrong.output
    missing = _rate(sessions, "no-such-session", "3")
    assert missing.exit_code == 2 and "no session 'no-such-session'" in missing.output
    assert path.read_bytes() == before
