"""The session lock is the kernel's: dead processes hold nothing, the file's content is only
the holder's name, and two processes racing for one lock never both hold it."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from interview_cli.errors import SessionLockedError
from interview_cli.session.store import SessionStore

HOLD = """
import sys, time
from pathlib import Path
from interview_cli.session.store import SessionStore
with SessionStore(Path(sys.argv[1])).lock("s-1"):
    print("held", flush=True)
    sys.stdin.readline()
"""


def holder(tmp_path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


@pytest.mark.parametrize("content", [b"", b"\x00\xff garbage {", b'{"pid": "x"}', b"[1, 2]"])
def test_empty_and_garbage_lock_files_are_harmless(tmp_path: Path, content: bytes) -> None:
    lock = tmp_path / "s-1.lock"
    lock.write_bytes(content)
    store = SessionStore(tmp_path)
    with store.lock("s-1"):
        assert json.loads(lock.read_text())["pid"] == os.getpid()
    assert not lock.exists()


def test_a_live_holder_is_named_and_a_killed_one_holds_nothing(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    proc = holder(tmp_path)
    try:
        with pytest.raises(SessionLockedError) as info:
            with store.lock("s-1"):
                pass
        message = str(info.value)
        assert f"process {proc.pid} on {socket.gethostname()} since 20" in message
        assert "\n" not in message
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)  # reaps it and closes its pipes
    # At once, no waiting: the kernel released the lock with the process. Its lock file is
    # still there, naming a dead process: that does not matter.
    assert (tmp_path / "s-1.lock").exists()
    with store.lock("s-1"):
        pass


def test_a_lock_file_naming_a_live_process_without_its_lock_is_free(tmp_path: Path) -> None:
    # The content is never trusted: pid 1 is alive, but it holds no lock on this file.
    lock = tmp_path / "s-1.lock"
    lock.write_text(json.dumps({"pid": 1, "host": socket.gethostname(), "since": "x"}))
    with SessionStore(tmp_path).lock("s-1"):
        pass


def _contend(directory: str, start: object, both_tried: object, results: object) -> None:
    """One contender: wait for the start, try the lock, and if held, keep it until the other
    contender has tried too (so that a second holder, if the lock allowed one, overlaps)."""
    store = SessionStore(Path(directory))
    start.wait()  # type: ignore[attr-defined]
    try:
        with store.lock("s-1"):
            marker = Path(directory) / "holder"
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)  # fails if two hold it
            os.close(fd)
            both_tried.wait(timeout=20)  # type: ignore[attr-defined]
            marker.unlink()
            results.put("held")  # type: ignore[attr-defined]
    except SessionLockedError:
        both_tried.wait(timeout=20)  # type: ignore[attr-defined]
        results.put("refused")  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 - reported to the test
        results.put(f"error {type(exc).__name__}: {exc}")  # type: ignore[attr-defined]


def test_fifty_takeovers_of_a_stale_lock_by_two_processes_never_give_two_holders(
    tmp_path: Path,
) -> None:
    ctx = multiprocessing.get_context("fork")
    for trial in range(50):
        directory = tmp_path / f"t{trial}"
        directory.mkdir()
        stale = {"pid": 2**30, "host": socket.gethostname(), "since": "long ago"}
        (directory / "s-1.lock").write_text(json.dumps(stale))
        start, both_tried, results = ctx.Event(), ctx.Barrier(2), ctx.Queue()
        procs = [
            ctx.Process(target=_contend, args=(str(directory), start, both_tried, results))
            for _ in range(2)
        ]
        for proc in procs:
            proc.start()
        start.set()
        outcome = sorted(results.get(timeout=60) for _ in procs)
        for proc in procs:
            proc.join(timeout=30)
            proc.close()
        results.close()
        results.join_thread()
        assert outcome == ["held", "refused"], f"trial {trial}: {outcome}"
        assert not (directory / "s-1.lock").exists()
