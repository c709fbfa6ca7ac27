"""Session files hold what respondents said: created private, and a chosen mode is kept."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.session.store import SessionStore
from tests.session.test_store import make_session


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_new_session_files_and_folders_are_private(tmp_path: Path) -> None:
    home = tmp_path / "a" / "b" / "sessions"
    store = SessionStore(home)
    session = make_session("s-1")
    with store.lock("s-1") as lock:
        assert mode(lock) == 0o600
        store.save(session)
        session.status = "active"
        store.save(session)  # a snapshot (status changed), then journal lines
        session.errors.append("x")
        store.save(session)
        assert mode(home / "s-1.journal") == 0o600
    assert mode(home / "s-1.json") == 0o600
    assert [mode(d) for d in (tmp_path / "a", tmp_path / "a" / "b", home)] == [0o700] * 3


def test_a_resume_keeps_the_mode_the_owner_chose(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    answer = "I love the noise cancelling because it lets me focus\n/quit\n"
    args = ["--sessions-dir", str(sessions)]
    first = CliRunner().invoke(
        app, ["run", "-c", "headphones_mec", "-p", "offline", *args], input=answer
    )
    assert first.exit_code == 0, first.output
    (path,) = sessions.glob("*.json")
    assert mode(path) == 0o600
    for chosen in (0o640, 0o600):
        path.chmod(chosen)
        resumed = CliRunner().invoke(
            app, ["run", "--resume", path.stem, *args], input="the battery lasts all day\n/quit\n"
        )
        assert resumed.exit_code == 0, resumed.output
        assert mode(path) == chosen
