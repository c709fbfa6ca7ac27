"""`interview run` as a real process: piped stdin, Ctrl-C, SIGKILL at random moments, and two
processes on one session."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from interview_cli.session.read import read_session_file
from tests.llm.fakeserver import FakeLLMServer, Step

pytestmark = pytest.mark.slow

ANSWERS = [
    "I love the noise cancelling because it lets me focus on the train",
    "Focusing on the train means I can get my work done, which makes me feel in control",
    "Feeling in control matters because I value freedom",
    "The battery lasts all day so I never worry about charging",
    "Not worrying lets me relax on long trips",
    "The fit is comfortable so I can wear them for hours",
    "Wearing them for hours helps me concentrate",
    "Concentration makes me productive, and being productive gives me self-respect",
]


def interview(*args: str, sessions: Path) -> list[str]:
    return [sys.executable, "-m", "interview_cli", "run", "--sessions-dir", str(sessions), *args]


def resume(
    session_id: str, sessions: Path, answers: str, timeout: int = 120
) -> subprocess.CompletedProcess[str]:
    """``interview run --resume`` to the end of ``answers`` (piped), waited for."""
    return subprocess.run(
        interview("--resume", session_id, sessions=sessions),
        input=answers,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def start(*args: str, sessions: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        interview(*args, sessions=sessions),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


_OUTPUT: dict[int, list[str]] = {}


def read_until(proc: subprocess.Popen[str], marker: str, timeout: float = 30) -> str:
    """Read stdout until ``marker`` appears after what earlier calls consumed.

    Reads the raw file descriptor: a buffered readline could hold lines that select() then
    never reports."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    seen, consumed = _OUTPUT.setdefault(proc.pid, ["", ""])
    deadline = time.monotonic() + timeout
    while marker not in seen[len(consumed) :]:
        if time.monotonic() > deadline:
            raise AssertionError(f"{marker!r} not seen in time; got:\n{seen}")
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                raise AssertionError(f"process ended before {marker!r}; got:\n{seen}")
            seen += chunk.decode("utf-8", errors="replace")
    end = seen.index(marker, len(consumed)) + len(marker)
    _OUTPUT[proc.pid] = [seen, seen[:end]]
    return seen[len(consumed) : end]


def _drained_until_exit(
    proc: subprocess.Popen[str], timeout: float, again_after: float
) -> tuple[str, str]:
    """Wait for ``proc`` to exit with its stdin left open, reading its output meanwhile;
    killed and reaped if it has not exited in ``timeout`` seconds (then the test fails).

    Still running after ``again_after`` seconds, it gets Ctrl-C again, as a person presses it
    again: on a clean clone under CI's load the first one was lost now and then (the run went
    on waiting for the next answer). Not reproduced here, and not understood: the closing
    note says so."""
    assert proc.stdout is not None and proc.stderr is not None
    chunks: dict[str, list[str]] = {"out": [], "err": []}
    readers = [
        threading.Thread(target=lambda n=name, f=stream: chunks[n].append(f.read()), daemon=True)
        for name, stream in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for reader in readers:
        reader.start()
    try:
        try:
            proc.wait(timeout=again_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()  # reaped here: a child left running is reported against a later test
        proc.wait()
        raise
    finally:
        for reader in readers:
            reader.join(timeout=10)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    seen = _OUTPUT.get(proc.pid, ["", ""])[0]
    return seen + "".join(chunks["out"]), "".join(chunks["err"])


def the_session(sessions: Path) -> dict[str, Any]:
    """The session as saved: its snapshot with the journal beside it replayed."""
    files = list(sessions.glob("*.json"))
    assert len(files) == 1, files
    return read_session_file(files[0]).model_dump(mode="json")


def test_piped_answers_run_a_real_process_to_the_end(tmp_path: Path) -> None:
    sessions = tmp_path / "s"
    done = subprocess.run(
        interview("-c", "headphones_mec", "-p", "offline", "--max-turns", "5", sessions=sessions),
        input="\n".join([*ANSWERS[:5], "that's all", "2"]) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Interview summary" in done.stdout
    doc = the_session(sessions)
    assert doc["status"] == "completed"
    assert [t["answer"]["text"] for t in doc["turns"]] == ANSWERS[: len(doc["turns"])]


def test_ctrl_c_pauses_without_losing_the_answer(tmp_path: Path) -> None:
    sessions = tmp_path / "s"
    proc = start("-c", "headphones_mec", "-p", "offline", sessions=sessions)
    assert proc.stdin is not None
    read_until(proc, "Question 1")
    proc.stdin.write(ANSWERS[0] + "\n")
    proc.stdin.flush()
    read_until(proc, "nodes ·")  # the turn summary: the answer was processed
    proc.send_signal(signal.SIGINT)  # while it waits for the next answer
    # stdin stays open, as a terminal's does: closing it (as communicate() would at once) let
    # the end of input race the signal under load, and the run ended as if the answers ran out.
    # Its output is drained meanwhile, so a full pipe cannot hold the pause up.
    out, err = _drained_until_exit(proc, timeout=30, again_after=10)
    assert proc.returncode == 130, err  # 128 + SIGINT, as for every command
    assert "Paused" in out
    doc = the_session(sessions)
    assert doc["status"] == "paused"
    assert doc["turns"][0]["answer"]["text"] == ANSWERS[0]
    assert doc["pending_question"]["text"]


def test_sigkill_at_random_moments_leaves_a_valid_resumable_file(tmp_path: Path) -> None:
    rng = random.Random(20261122)
    for attempt in range(3):
        sessions = tmp_path / f"kill{attempt}"
        proc = start(
            "-c", "headphones_mec", "-p", "offline", "--max-turns", "30", sessions=sessions
        )
        assert proc.stdin is not None
        processed: list[str] = []
        try:
            read_until(proc, "Question 1")
            # Answer a few turns for real, then write the rest and kill at a random moment.
            for answer in ANSWERS[:2]:
                proc.stdin.write(answer + "\n")
                proc.stdin.flush()
                read_until(proc, "nodes ·")
                processed.append(answer)
            proc.stdin.write("".join(a + "\n" for a in ANSWERS[2:]))
            proc.stdin.flush()
            time.sleep(rng.uniform(0.0, 0.4))
        finally:
            proc.kill()
            proc.communicate(timeout=30)
        files = list(sessions.glob("*.json"))
        assert len(files) == 1
        json.loads(files[0].read_text(encoding="utf-8"))  # the snapshot: never half-written
        doc = the_session(sessions)  # with what the journal adds
        texts = [t["answer"]["text"] for t in doc["turns"]]
        assert texts[: len(processed)] == processed  # every answer processed before the kill
        assert texts == ANSWERS[: len(texts)]  # nothing invented or reordered
        # A kill inside a save may leave that save's temporary file; it is never taken for a
        # session, and the next writer of the session removes it (asserted after the resume).
        assert [p.name for p in sessions.glob("*.json")] == [files[0].name]

        # It resumes: an interrupted (answered) turn is finished, then the interview goes on.
        resumed = resume(
            doc["id"], sessions, "One more thing: the case is small so it fits my pocket\n/quit\n"
        )
        assert resumed.returncode == 0, resumed.stderr
        after = json.loads(files[0].read_text(encoding="utf-8"))  # paused: all in the snapshot
        assert all(t["status"] == "complete" for t in after["turns"])
        assert [t["answer"]["text"] for t in after["turns"]][: len(texts)] == texts
        left = (".tmp", ".lock", ".journal")
        assert not [p for p in sessions.iterdir() if p.name.endswith(left)]


def test_second_process_on_the_same_session_is_refused(tmp_path: Path) -> None:
    sessions = tmp_path / "s"
    subprocess.run(
        interview("-c", "headphones_mec", "-p", "offline", sessions=sessions),
        input=ANSWERS[0] + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    session_id = the_session(sessions)["id"]
    holder = start("--resume", session_id, sessions=sessions)
    try:
        read_until(holder, "Question")  # it holds the lock, waiting
        second = resume(session_id, sessions, "hello\n", timeout=60)
        assert second.returncode == 2
        assert f"in use by process {holder.pid}" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        assert holder.stdin is not None
        holder.stdin.close()  # end of input: the holder pauses and releases the lock
        holder.wait(timeout=30)
        for stream in (holder.stdout, holder.stderr):
            assert stream is not None
            stream.close()
    assert holder.returncode == 0
    assert not list(sessions.glob("*.lock"))


def paused_session_with_one_turn(sessions: Path) -> str:
    subprocess.run(
        interview("-c", "headphones_mec", "-p", "offline", sessions=sessions),
        input=ANSWERS[0] + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return str(the_session(sessions)["id"])


def first_to_end(procs: list[subprocess.Popen[str]], timeout: float = 60) -> subprocess.Popen[str]:
    """The first of ``procs`` to end, waited for (with a deadline, not a guess)."""
    deadline = time.monotonic() + timeout
    while True:
        for proc in procs:
            if proc.poll() is not None:
                return proc
        assert time.monotonic() < deadline, "neither process ended"
        time.sleep(0.02)


def test_two_resumers_at_once_one_is_refused_and_nothing_is_lost(tmp_path: Path) -> None:
    sessions = tmp_path / "s"
    session_id = paused_session_with_one_turn(sessions)
    # Both start at once and race for the lock, each with an answer but no end of input. The
    # one that takes the lock answers, then waits for more with the lock still held, so the
    # other cannot come after it and must be refused whatever the load: a winner that ended
    # first (as when it got "/quit" at once) would let both succeed and prove nothing.
    procs = [start("--resume", session_id, sessions=sessions) for _ in range(2)]
    answers = {proc.pid: answer for proc, answer in zip(procs, ANSWERS[1:3], strict=True)}
    for proc in procs:
        assert proc.stdin is not None
        try:
            proc.stdin.write(answers[proc.pid] + "\n")
            proc.stdin.flush()
        except BrokenPipeError:  # refused already, and gone
            pass
    refused = first_to_end(procs)
    holder = next(proc for proc in procs if proc is not refused)
    _, err = refused.communicate(timeout=30)
    assert refused.returncode == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: session "), err
    # "by process N" (the holder), or "(just starting)" if it had not written its pid yet
    assert f"in use by process {holder.pid} " in lines[0] or "just starting" in lines[0], err
    assert holder.poll() is None  # it still holds the lock, waiting for its next answer
    assert holder.stdin is not None
    holder.stdin.write("/quit\n")
    holder.stdin.flush()
    _, err = holder.communicate(timeout=120)
    assert holder.returncode == 0, err
    doc = the_session(sessions)
    # The holder's answer is kept, the refused one's never written.
    assert [t["answer"]["text"] for t in doc["turns"]] == [ANSWERS[0], answers[holder.pid]]
    assert all(t["status"] == "complete" for t in doc["turns"])
    assert doc["status"] == "paused"
    assert not list(sessions.glob("*.lock"))


def test_resume_right_after_sigkill_is_not_refused(tmp_path: Path) -> None:
    sessions = tmp_path / "s"
    session_id = paused_session_with_one_turn(sessions)
    proc = start("--resume", session_id, sessions=sessions)
    read_until(proc, "Question")  # it holds the lock and waits for an answer
    proc.kill()
    proc.communicate(timeout=30)
    # No waiting: the lock went with the process, though its lock file is still there.
    assert list(sessions.glob("*.lock"))
    resumed = resume(session_id, sessions, ANSWERS[1] + "\n")
    assert resumed.returncode == 0, resumed.stderr
    assert [t["answer"]["text"] for t in the_session(sessions)["turns"]] == ANSWERS[:2]
    assert not list(sessions.glob("*.lock"))


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_mid_turn_pauses_saves_and_releases(tmp_path: Path, signum: int, code: int) -> None:
    sessions = tmp_path / "s"
    proc = start("-c", "headphones_mec", "-p", "offline", sessions=sessions)
    assert proc.stdin is not None
    read_until(proc, "Question 1")
    proc.stdin.write(ANSWERS[0] + "\n")
    proc.stdin.flush()
    read_until(proc, "nodes ·")
    proc.stdin.write(ANSWERS[1] + "\n")
    proc.stdin.flush()
    read_until(proc, ANSWERS[1][:30])  # echoed as read: the turn is being processed now
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, (out, err)
    assert "Paused" in out and "Traceback" not in err, err
    doc = the_session(sessions)
    assert doc["status"] == "paused"
    assert [t["answer"]["text"] for t in doc["turns"]] == ANSWERS[:2]  # nothing typed is lost
    left = [p.name for p in sessions.iterdir() if not p.name.endswith(".json")]
    assert left == []  # no lock, no journal: a paused session is one file
    resumed = resume(doc["id"], sessions, "/quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert all(t["status"] == "complete" for t in the_session(sessions)["turns"])


def test_sigterm_stops_a_batch_with_143_and_its_sessions_resume(tmp_path: Path) -> None:
    # The respondent is a model on the fake server, which answers the first `answered` requests
    # and holds every later one (retries too) until the test lets them through. When the
    # signal is sent the batch is provably mid-interview, waiting for an answer it cannot get,
    # however slow the machine: an offline batch (about a second in all) could have ended
    # before a test held up after its first session file had sent the signal (exit 0).
    answered = 4
    server = FakeLLMServer(text_reply=ANSWERS[0]).start()
    gate = threading.Event()
    try:
        server.script(*["ok"] * answered, *(Step(hold=gate) for _ in range(50)))
        out_dir = tmp_path / "b"
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "OPENAI_COMPATIBLE_BASE_URL": server.openai_base_url,
            "OPENAI_COMPATIBLE_MODEL": "persona-model",
            "LLM_RESPONDENT_TIMEOUT": "3600",  # held as long as the test takes: no retry
        }
        command = [sys.executable, "-m", "interview_cli", "batch", "cooperative"]
        command += ["-c", "headphones_mec", "--runs", "2", "--out", str(out_dir)]
        command += ["--provider", "offline", "--respondent-provider", "openai-compatible"]
        proc = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        deadline = time.monotonic() + 60
        # Both interviews wait for a held answer, each with every answer before it taken in.
        while len(server.requests) < answered + 2:
            assert time.monotonic() < deadline and proc.poll() is None, proc.returncode
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 143, err
        assert "Traceback" not in err
        assert not list(out_dir.glob("*.lock"))
        stopped = [read_session_file(path) for path in out_dir.glob("*.json")]
        # Neither could end (an interview here takes six answers): both paused, answers kept.
        assert [s.status for s in stopped] == ["paused", "paused"]
        assert sum(len(s.turns) for s in stopped) == answered
        gate.set()  # from now on every request is answered
        again = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=300, check=False
        )
        assert again.returncode == 0, again.stderr
        assert {read_session_file(p).status for p in out_dir.glob("*.json")} == {"completed"}
    finally:
        gate.set()
        server.stop()
