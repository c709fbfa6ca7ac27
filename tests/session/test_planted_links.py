"""Links planted beside a session never make the tool write elsewhere.

A symbolic link at ``ID.lock`` or ``ID.journal`` (or a hard link at the lock) would receive the
holder's pid or the respondent's answers; batch ids are predictable, so one can be planted
before ``interview batch`` starts. Each is refused with one line and its target left as it was.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from interview_cli.errors import FileSystemError, SessionFileError
from interview_cli.session.store import SessionStore
from tests.cli_run import cli, one_error_line
from tests.session.test_store import make_session

PRECIOUS = "root:x:0:0:root:/root:/bin/bash\n"


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "passwd"
    path.write_text(PRECIOUS)
    return path


def test_a_symlinked_lock_is_refused(tmp_path: Path, target: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    store.save(make_session("s-1"))
    (tmp_path / "sessions" / "s-1.lock").symlink_to(target)
    with pytest.raises(SessionFileError, match=r"s-1.lock: is a symbolic link to .*passwd"):
        with store.lock("s-1"):
            pass
    assert target.read_text() == PRECIOUS


def test_a_hard_linked_lock_is_refused(tmp_path: Path, target: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    store.save(make_session("s-1"))
    os.link(target, tmp_path / "sessions" / "s-1.lock")
    with pytest.raises(FileSystemError, match="not a regular file of its own"):
        with store.lock("s-1"):
            pass
    assert target.read_text() == PRECIOUS


def test_a_symlinked_journal_is_neither_read_nor_written(tmp_path: Path, target: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    session = make_session("s-1")
    session.status = "active"
    store.save(session)
    (tmp_path / "sessions" / "s-1.journal").symlink_to(target)
    with pytest.raises(SessionFileError, match="s-1.journal: is a symbolic link"):
        store.load("s-1")
    with pytest.raises(SessionFileError, match="s-1.journal: is a symbolic link"):
        with store.lock("s-1"):
            store.save(session)
    assert target.read_text() == PRECIOUS


@pytest.mark.parametrize("suffix", [".lock", ".journal"])
def test_resume_refuses_a_planted_link_in_one_line(
    tmp_path: Path, target: Path, suffix: str
) -> None:
    sessions = tmp_path / "sessions"
    text = "I love the noise cancelling because it lets me focus\n/quit\n"
    started = cli(
        "run", "-c", "headphones_mec", "-p", "offline", "--sessions-dir", str(sessions), stdin=text
    )
    assert started.exit_code == 0, started.output
    (path,) = sessions.glob("*.json")
    path.with_suffix(suffix).symlink_to(target)
    result = cli(
        "run",
        "--resume",
        path.stem,
        "--sessions-dir",
        str(sessions),
        stdin="the battery lasts all day\n/quit\n",
    )
    line = one_error_line(result)
    assert f"{path.with_suffix(suffix)}: is a symbolic link" in line, line
    assert target.read_text() == PRECIOUS
    assert len(json.loads(path.read_text())["turns"]) == 1


def test_batch_refuses_a_link_planted_at_a_predictable_lock(tmp_path: Path, target: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "cooperative-headphones_mec-adaptive-s0-r1.lock").symlink_to(target)
    result = cli(
        "batch", "cooperative", "-c", "headphones_mec", "--max-turns", "3", "--out", str(out)
    )
    line = one_error_line(result)
    assert "cooperative-headphones_mec-adaptive-s0-r1.lock: is a symbolic link" in line, line
    assert target.read_text() == PRECIOUS
    assert not list(out.glob("*.json"))
