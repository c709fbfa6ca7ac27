"""Hostile input through the CLI on temporary directories: what a new user can throw at it.

Files that are not files (a device, a FIFO, 300 MB), a sessions directory that cannot be
written (a regular file, read-only, a full disk), session files reached through symbolic
links, bytes on stdin that are not UTF-8, and exports of answers and labels that hold HTML or
Mermaid syntax. Each ends in one line naming the path or value and what to do, or in output
that shows what was typed.
"""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from interview_cli.session.read import read_session_file
from tests.cli_run import cli
from tests.cli_run import error_line as one_error_line

ROOT = Path(__file__).resolve().parents[2]
ANSWER = "I love the noise cancelling because it lets me focus on the train"


def process(
    *args: str, stdin: bytes = b"", timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``python -m interview_cli`` in a child whose memory is capped, so that a command that
    reads without bound fails the test instead of the machine."""

    def cap_memory() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))

    env = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "interview_cli", *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        env=env,
        preexec_fn=cap_memory,
        check=False,
    )


def new_session(sessions: Path, answers: list[str] = [ANSWER]) -> Path:  # noqa: B006
    text = "".join(a + "\n" for a in answers) + "/quit\n"
    result = cli(
        "run", "-c", "headphones_mec", "-p", "offline", "--sessions-dir", str(sessions), stdin=text
    )
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    return path


# ---- files named by users: regular files only, bounded --------------------------------------


@pytest.mark.parametrize("command", [["replay"], ["export", "-f", "md"], ["report"]])
def test_a_device_a_fifo_and_a_huge_file_are_refused_at_once(
    tmp_path: Path, command: list[str]
) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as fh:  # sparse: 300 MB on paper, nothing on disk
        fh.truncate(300 * 1024 * 1024)
    cases = {"/dev/zero": "is a device", str(fifo): "is a FIFO", str(huge): "is 300 MB"}
    for target, what in cases.items():
        try:
            done = process(command[0], target, *command[1:], timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{command[0]} {target} did not return")
        line = one_error_line(done.stderr.decode())
        assert done.returncode == 2, (target, line)
        assert line.startswith(f"error: {target}: {what}"), line


def test_a_settings_file_that_is_a_device_or_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "llm.yaml"
    os.mkfifo(fifo)
    for target, what in (("/dev/zero", "is a device"), (str(fifo), "is a FIFO")):
        try:
            done = process(
                "run",
                "-c",
                "headphones_mec",
                "--sessions-dir",
                str(tmp_path / "s"),
                timeout=30,
                env={"INTERVIEW_LLM_CONFIG": target},
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"INTERVIEW_LLM_CONFIG={target} was read without end")
        line = one_error_line(done.stderr.decode())
        assert done.returncode == 2 and line.startswith(f"error: {target}: {what}"), line


# ---- a sessions directory that cannot be written ---------------------------------------------


def test_sessions_dir_that_is_a_regular_file_is_exit_2_naming_it(tmp_path: Path) -> None:
    blocker = tmp_path / "sessions"
    blocker.write_text("notes\n", encoding="utf-8")
    for sessions in (blocker, blocker / "nested"):
        result = cli(
            "run",
            "-c",
            "headphones_mec",
            "-p",
            "offline",
            "--sessions-dir",
            str(sessions),
            stdin=f"{ANSWER}\n",
        )
        line = one_error_line(result.stderr)
        assert result.exit_code == 2, line
        assert line.startswith(f"error: {blocker}: is a file, not a directory"), line
        assert "--sessions-dir" in line
    assert blocker.read_text(encoding="utf-8") == "notes\n"


def test_export_out_under_a_regular_file_is_exit_2_naming_it(tmp_path: Path) -> None:
    path = new_session(tmp_path / "sessions")
    blocker = tmp_path / "exports"
    blocker.write_text("notes\n", encoding="utf-8")
    for fmt in ("md", "csv"):
        result = cli("export", str(path), "-f", fmt, "-o", str(blocker / "out" / "x"))
        line = one_error_line(result.stderr)
        assert result.exit_code == 2, line
        assert line.startswith(f"error: {blocker}: is a file, not a directory"), line


class _FailingOS:
    """The ``os`` module as the store sees it, with one failure injected."""

    def __init__(self, **overrides: Any) -> None:
        self.__dict__.update(overrides)

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)


def test_read_only_sessions_dir_is_exit_2_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import interview_cli.config.files as files
    import interview_cli.session.lock as store_lock
    import interview_cli.session.store as store

    sessions = tmp_path / "sessions"
    sessions.mkdir()

    def read_only(path: Any, flags: int, *args: Any) -> int:
        if str(path).startswith(str(sessions)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return os.open(path, flags, *args)

    monkeypatch.setattr(store, "os", _FailingOS(open=read_only))
    monkeypatch.setattr(store_lock, "os", _FailingOS(open=read_only))
    monkeypatch.setattr(files, "os", _FailingOS(open=read_only))  # the lock is opened there
    result = cli(
        "run",
        "-c",
        "headphones_mec",
        "-p",
        "offline",
        "--sessions-dir",
        str(sessions),
        stdin=f"{ANSWER}\n",
    )
    line = one_error_line(result.stderr)
    assert result.exit_code == 2, line
    assert line.startswith(f"error: {sessions}: cannot create a lock file in it"), line
    assert "read-only file system" in line and "--sessions-dir" in line
    assert list(sessions.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only directories")
def test_read_only_sessions_dir_by_its_mode(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir(mode=0o500)
    try:
        result = cli(
            "run",
            "-c",
            "headphones_mec",
            "-p",
            "offline",
            "--sessions-dir",
            str(sessions),
            stdin=f"{ANSWER}\n",
        )
    finally:
        sessions.chmod(0o700)
    line = one_error_line(result.stderr)
    assert result.exit_code == 2 and "permission denied" in line and str(sessions) in line


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_full_disk_mid_run_is_exit_1_and_the_session_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import interview_cli.session.store as store

    sessions = tmp_path / "sessions"
    first = new_session(sessions)
    before = json.loads(first.read_text(encoding="utf-8"))

    def full_for_the_second_answer(fd: int) -> None:
        # The disk fills up just as the second answer is saved (before any model call).
        written = Path(os.readlink(f"/proc/self/fd/{fd}"))
        # A snapshot's temporary file, or the journal line of an active session.
        saving = written.suffix in (".tmp", ".journal")
        if saving and "the battery lasts" in written.read_text(encoding="utf-8"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        os.fsync(fd)

    monkeypatch.setattr(store, "os", _FailingOS(fsync=full_for_the_second_answer))
    result = cli(
        "run",
        "--resume",
        before["id"],
        "--sessions-dir",
        str(sessions),
        stdin="the battery lasts all day\n/quit\n",
    )
    line = one_error_line(result.stderr)
    assert result.exit_code == 1, line
    assert line.startswith(f"error: {first}: cannot save the session (no space left"), line
    assert f"interview run --resume {before['id']}" in line
    # Not "kept as last saved" alone: the answer it lost is named, to be given again.
    assert "your last answer was NOT saved (“the battery lasts all day”)" in line, line
    assert "you › the battery lasts all day" not in result.stdout  # never echoed: not on disk
    # still a whole, valid session (snapshot and journal as last saved), without the answer
    # whose save failed
    after = read_session_file(first)
    assert len(after.turns) == len(before["turns"])
    assert all("the battery lasts" not in (t.answer.text if t.answer else "") for t in after.turns)
    left = sorted(p.suffix for p in sessions.iterdir())
    assert left in ([".json"], [".journal", ".json"])  # no temp file, no lock left


# ---- session files reached through symbolic links ---------------------------------------------


def test_a_session_file_behind_a_symlink_is_read_but_never_written_through(
    tmp_path: Path,
) -> None:
    elsewhere = tmp_path / "archive"
    real = new_session(elsewhere)
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    link = sessions / real.name
    link.symlink_to(real)
    session_id = real.stem
    listed = cli("sessions", "--json", "--sessions-dir", str(sessions))
    assert listed.exit_code == 0 and json.loads(listed.stdout)[0]["id"] == session_id
    for args in (
        ["sessions", "show", session_id],
        ["export", session_id, "-f", "jsonl"],
        ["replay", session_id],
    ):
        result = cli(*args, "--sessions-dir", str(sessions))
        assert result.exit_code == 0, (args, result.output)
    before = real.read_bytes()
    for ref in (session_id, str(link)):
        refused = cli(
            "run", "--resume", ref, "--sessions-dir", str(sessions), stdin="the battery\n/quit\n"
        )
        line = one_error_line(refused.stderr)
        assert refused.exit_code == 2 and f"{link}: is a symbolic link to {real}" in line, line
        assert f"interview run --resume {real}" in line
    assert real.read_bytes() == before and link.is_symlink()
    # The file itself, as the refusal says: saved where it is, its lock released there.
    resumed = cli("run", "--resume", str(real), stdin="the battery lasts all day\n/quit\n")
    assert resumed.exit_code == 0, resumed.output
    doc = json.loads(real.read_text(encoding="utf-8"))
    assert len(doc["turns"]) == 2
    assert sorted(p.name for p in elsewhere.iterdir()) == [real.name]
    real.rename(real.with_suffix(".moved"))
    for args in (["sessions", "show", session_id], ["run", "--resume", session_id]):
        result = cli(*args, "--sessions-dir", str(sessions))
        line = one_error_line(result.stderr)
        assert result.exit_code == 2 and f"{link}: " in line and "symbolic link" in line, line


# ---- stdin that is not UTF-8 ------------------------------------------------------------------


def test_invalid_utf8_on_stdin_becomes_replacement_characters_with_a_notice(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    answer = b"I love the noise \xff\xfe cancelling because it lets me focus\n/quit\n"
    done = process(
        "run",
        "-c",
        "headphones_mec",
        "-p",
        "offline",
        "--sessions-dir",
        str(sessions),
        stdin=answer,
    )
    assert done.returncode == 0, done.stderr.decode()
    warnings = [ln for ln in done.stderr.decode().splitlines() if "not UTF-8" in ln]
    assert len(warnings) == 1 and warnings[0].startswith("warning: "), done.stderr.decode()
    (path,) = sessions.glob("*.json")
    (turn,) = json.loads(path.read_text(encoding="utf-8"))["turns"]
    assert turn["answer"]["text"] == (
        "I love the noise \ufffd\ufffd cancelling because it lets me focus"
    )


# ---- exports: HTML in Markdown, Mermaid syntax in labels --------------------------------------


def test_markdown_export_shows_html_in_answers_as_text(tmp_path: Path) -> None:
    hostile = [
        "<script>alert(1)</script> I love the noise cancelling because it lets me focus",
        'The <img src=x onerror="alert(2)"> battery lasts all day & never dies &lt;b&gt;',
    ]
    path = new_session(tmp_path / "sessions", hostile)
    result = cli("export", str(path), "-f", "md")
    assert result.exit_code == 0, result.output
    md = result.stdout
    assert "<script" not in md and "<img" not in md
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in md
    assert '&lt;img src=x onerror="alert(2)"&gt;' in md and "all day & never" in md
    assert "never dies &amp;lt;b&amp;gt;" in md  # typed entity codes stay as typed


MERMAID_KEYWORDS = {
    "end",
    "graph",
    "flowchart",
    "subgraph",
    "class",
    "classDef",
    "style",
    "click",
    "linkStyle",
    "direction",
}


def test_mermaid_export_gives_unique_safe_ids_and_shows_every_label(tmp_path: Path) -> None:
    path = new_session(tmp_path / "sessions", [ANSWER, "The battery lasts all day so I relax"])
    doc = json.loads(path.read_text(encoding="utf-8"))
    graph = doc["graph"]
    hostile = ["end", "graph", "A-->B", "A->-B", "A__B", "subgraph"]
    assert len(graph["nodes"]) >= 4
    renamed = dict(zip([n["id"] for n in graph["nodes"]], hostile, strict=False))
    for node in graph["nodes"]:
        node["id"] = renamed.get(node["id"], node["id"])
        node["label"] = renamed.get(node["label"], node["id"])  # labels read like the ids
        if node.get("superseded_by"):
            node["superseded_by"] = renamed.get(node["superseded_by"], node["superseded_by"])
    for link in graph["links"]:
        link["source"], link["target"] = renamed[link["source"]], renamed[link["target"]]
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = cli("export", str(path), "-f", "mermaid")
    assert result.exit_code == 0, result.output
    declared = re.findall(r'^  (\S+)\["(.*)"\]$', result.stdout, flags=re.M)
    ids = [i for i, _ in declared]
    live = [n for n in graph["nodes"] if not n.get("superseded_by")]
    assert len(ids) == len(set(ids)) == len(live)
    assert all(
        re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", i) and i not in MERMAID_KEYWORDS for i in ids
    ), ids
    shown = [label.replace("#gt;", ">") for _, label in declared]
    assert sorted(shown) == sorted(n["label"] for n in live)
    for source, target in re.findall(r"^  (\S+) -(?:->|\.->)\S* (\S+)$", result.stdout, re.M):
        assert source in ids and target in ids


@pytest.mark.parametrize("io_encoding", ["", "utf-8:strict"])
def test_invalid_utf8_typed_at_a_terminal_becomes_replacement_characters(
    tmp_path: Path, io_encoding: str
) -> None:
    import pty
    import select
    import time

    sessions = tmp_path / "sessions"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": io_encoding}
    argv = [
        sys.executable,
        "-m",
        "interview_cli",
        "run",
        "-c",
        "headphones_mec",
        "-p",
        "offline",
        "--sessions-dir",
        str(sessions),
    ]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI on a terminal
        os.execve(sys.executable, argv, env)
    seen = b""

    def read_until(marker: bytes, timeout: float = 30) -> bool:
        nonlocal seen
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    return False
                if marker in seen:
                    return True
        return False

    try:
        assert read_until(b"you \xe2\x80\xba"), seen.decode("utf-8", "replace")
        os.write(fd, b"I love the noise \xff\xfe cancelling because I focus\r")
        assert read_until(b"Question 2"), seen.decode("utf-8", "replace")
        os.write(fd, b"/quit\r")
        read_until(b"Paused", timeout=15)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    text = seen.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert text.count("not UTF-8 text") == 1, text
    (path,) = sessions.glob("*.json")
    (turn,) = json.loads(path.read_text(encoding="utf-8"))["turns"]
    assert turn["answer"]["text"] == "I love the noise \ufffd\ufffd cancelling because I focus"


def test_an_error_naming_a_hostile_file_name_prints_no_terminal_controls(tmp_path: Path) -> None:
    name = tmp_path / "\x1b]52;c;ZXZpbA==\x07\x1b[2Jx.json"
    result = cli("replay", str(name))
    line = one_error_line(result.stderr)
    assert result.exit_code == 2 and "\x1b" not in line and "\x07" not in line, line
    assert "x.json: no such session file" in line


def test_graphml_export_is_valid_xml_for_a_session_that_already_holds_controls(
    tmp_path: Path,
) -> None:
    import xml.etree.ElementTree as ET

    path = new_session(tmp_path / "sessions")
    doc = json.loads(path.read_text(encoding="utf-8"))
    node = doc["graph"]["nodes"][0]
    node["label"] = "noise\x1b[31m\x00 cancelling\x07\ufffe"  # written before cleaning existed
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = cli("export", str(path), "-f", "graphml")
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.stdout.encode("utf-8"))
    labels = [d.text for d in root.iter() if d.tag.endswith("data") and d.text]
    assert "noise cancelling" in labels  # the whole escape sequence gone as the file is read
