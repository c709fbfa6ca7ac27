"""`--out` of `export` and `report` respects what is at the path.

A regular file or a new name is replaced atomically and keeps its mode; a character device
or a FIFO is written through, never replaced; a symbolic link, a block device, a FIFO nobody
reads and a missing folder are refused with one line, before anything is written; `-` is the
standard output. Devices and FIFOs are made in tmp_path (mknod, mkfifo): the tests run as
root, and no test may touch a real device.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app
from tests.cli_run import one_error_line

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from session_factory import run_interview  # noqa: E402

COMMANDS = {
    "export": lambda session, out: ["export", str(session), "-f", "md", "--out", out],
    "report": lambda session, out: ["report", str(session), "--format", "md", "--out", out],
}


@pytest.fixture(scope="module")
def session_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_interview(
        tmp_path_factory.mktemp("out"),
        concept="headphones_mec",
        session_id="out",
        persona="cooperative",
        max_turns=4,
    )


def invoke(command: str, session: Path, out: str) -> Any:
    return CliRunner().invoke(app, COMMANDS[command](session, out))


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")


@needs_root
@pytest.mark.parametrize("command", COMMANDS)
def test_a_character_device_is_written_through_not_replaced(
    command: str, session_file: Path, tmp_path: Path
) -> None:
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # the null device, in tmp_path
    result = invoke(command, session_file, str(null))
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no temporary file left


@needs_root
@pytest.mark.parametrize("command", COMMANDS)
def test_a_block_device_is_refused(command: str, session_file: Path, tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    os.mknod(disk, stat.S_IFBLK | 0o600, os.makedev(7, 200))
    line = one_error_line(invoke(command, session_file, str(disk)))
    assert f"{disk}: is a block device" in line
    assert stat.S_ISBLK(os.lstat(disk).st_mode)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_fifo_with_a_reader_gets_the_text_and_stays_a_fifo(
    command: str, session_file: Path, tmp_path: Path
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as fh:
            received.append(fh.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 10
    result = None
    while time.monotonic() < deadline:  # the reader may not have opened its end yet
        result = invoke(command, session_file, str(fifo))
        if result.exit_code == 0 or "nobody reads" not in result.output:
            break
        time.sleep(0.05)
    assert result is not None and result.exit_code == 0, result.output if result else ""
    reader.join(timeout=10)
    assert received and received[0].startswith(b"#"), received
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_fifo_nobody_reads_is_one_line_at_once(
    command: str, session_file: Path, tmp_path: Path
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    started = time.monotonic()
    line = one_error_line(invoke(command, session_file, str(fifo)))
    assert time.monotonic() - started < 10
    assert f"{fifo}: is a FIFO (named pipe) that nobody reads" in line
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_symlink_is_refused_and_its_target_untouched(
    command: str, session_file: Path, tmp_path: Path
) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = tmp_path / "report.md"
    link.symlink_to(target)
    line = one_error_line(invoke(command, session_file, str(link)))
    assert f"{link}: is a symbolic link to {target}" in line
    assert target.read_text() == "keep me\n" and link.is_symlink()


@pytest.mark.parametrize("command", COMMANDS)
def test_dash_is_the_standard_output(
    command: str, session_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(command, session_file, "-")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("#")
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_missing_folder_is_not_created(command: str, session_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "nonexist" / "dir" / "x.md"
    line = one_error_line(invoke(command, session_file, str(out)))
    assert f"{out}: the folder {out.parent} does not exist" in line
    assert not (tmp_path / "nonexist").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_replaced_file_keeps_its_mode_and_a_new_one_gets_the_usual(
    command: str, session_file: Path, tmp_path: Path
) -> None:
    private = tmp_path / "private.md"
    private.write_text("old\n")
    private.chmod(0o600)
    assert invoke(command, session_file, str(private)).exit_code == 0
    assert private.read_text().startswith("#")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    fresh = tmp_path / "fresh.md"
    assert invoke(command, session_file, str(fresh)).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


@needs_root
def test_csv_tables_named_after_a_device_are_refused_and_nothing_is_made_beside_it(
    session_file: Path, tmp_path: Path
) -> None:
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # the null device, in tmp_path
    result = CliRunner().invoke(app, ["export", str(session_file), "-f", "csv", "--out", str(null)])
    line = one_error_line(result)
    assert f"--out {null} is not a regular file" in line and "--table" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no null.nodes.csv beside it
    # one table is written through the device, as any single-file format
    one = ["export", str(session_file), "-f", "csv", "--table", "edges", "--out", str(null)]
    assert CliRunner().invoke(app, one).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]
