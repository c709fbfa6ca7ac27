"""A session id works in every command that takes one, wherever under the sessions directory
the file is (a batch writes into a subfolder): the id `interview sessions` lists is the id
the other commands take."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from interview_cli.cli.app import app


def cli(*args: str, sessions: Path, input: str | None = None) -> Result:
    return CliRunner().invoke(
        app, [*args, "--sessions-dir", str(sessions)], input=input, catch_exceptions=False
    )


@pytest.fixture(scope="module")
def batch_sessions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    sessions = tmp_path_factory.mktemp("ids") / "sessions"
    result = cli(
        "batch", "cooperative", "-c", "headphones_mec", "--max-turns", "4", sessions=sessions
    )
    assert result.exit_code == 0, result.output
    listed = cli("sessions", "--json", sessions=sessions)
    (row,) = json.loads(listed.stdout)
    assert row["folder"]  # the batch's session is in a subfolder
    return sessions, row["id"]


@pytest.mark.parametrize(
    "command",
    [
        ["sessions", "show", "ID"],
        ["replay", "ID", "--verify"],
        ["export", "ID", "--format", "mermaid"],
        ["prompts", "ID", "--turn", "1"],
        ["report", "ID", "--json"],
    ],
    ids=lambda c: c[0],
)
def test_a_batch_sessions_id_works_in_every_command(
    batch_sessions: tuple[Path, str], command: list[str]
) -> None:
    sessions, session_id = batch_sessions
    result = cli(*(session_id if arg == "ID" else arg for arg in command), sessions=sessions)
    assert result.exit_code == 0, result.output
    assert "no session" not in result.output


def test_resume_finds_a_session_in_a_subfolder_and_saves_it_there(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    first = cli("run", "-c", "headphones_mec", sessions=sessions, input="I like the sound\n")
    assert first.exit_code == 0, first.output
    (path,) = sessions.glob("*.json")
    moved = sessions / "pilot" / path.name
    moved.parent.mkdir()
    shutil.move(path, moved)
    resumed = cli("run", "--resume", path.stem, sessions=sessions, input="It helps me focus\n")
    assert resumed.exit_code == 0, resumed.output
    assert list(sessions.glob("*.json")) == []  # saved where it was found
    assert len(json.loads(moved.read_text(encoding="utf-8"))["turns"]) == 2


def test_an_id_in_two_folders_is_refused_with_both_named(
    batch_sessions: tuple[Path, str], tmp_path: Path
) -> None:
    sessions, session_id = batch_sessions
    copy = tmp_path / "sessions"
    shutil.copytree(sessions, copy)
    (original,) = copy.rglob(f"{session_id}.json")
    (copy / "again").mkdir()
    shutil.copy(original, copy / "again" / original.name)
    result = cli("replay", session_id, sessions=copy)
    assert result.exit_code == 2
    assert "is in 2 folders" in result.output and "name the file" in result.output


def test_an_unknown_id_lists_the_ids_there_are(batch_sessions: tuple[Path, str]) -> None:
    sessions, session_id = batch_sessions
    result = cli("replay", "nope", sessions=sessions)
    assert result.exit_code == 2
    assert f"known: {session_id}" in result.output
