"""Every file the tool reads is bounded in size and in time, and one bad file is one line.

A device or a FIFO where a merges file or a session journal belongs, a YAML bomb in a
methodology's free-form field, YAML nested thousands deep, session JSON with a 5000-digit
number, 100k nested brackets or a NaN cost, a hand-edited graph: each ends at once, in one
line naming the file (a listing skips the file with a warning instead). Devices and FIFOs
are made in tmp_path; each command that used to hang runs under a deadline.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli_run import cli, one_error_line

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = "I love the noise cancelling because it lets me focus\nThe battery lasts all day\n"


class Expired(BaseException):
    """Not an ``OSError`` (as ``TimeoutError`` is) nor an ``Exception``: no handler of the
    code under test may take it for a read that failed and go on to the next one."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail instead of hanging: a blocked open or read is interrupted by SIGALRM."""

    def expired(signum: int, frame: object) -> None:
        raise Expired(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def paused(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sessions = tmp_path_factory.mktemp("bounded") / "sessions"
    result = cli(
        "run",
        "-c",
        "headphones_mec",
        "-p",
        "offline",
        "--sessions-dir",
        str(sessions),
        stdin=ANSWERS + "/quit\n",
    )
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    return path


def copy_of(session: Path, folder: Path, edit: Any = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    doc = json.loads(session.read_text(encoding="utf-8"))
    if edit is not None:
        edit(doc)
    path = folder / session.name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


# ---- item: --merges that is no file ---------------------------------------------------------


def zero_device(path: Path) -> Path:
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 5))  # /dev/zero's numbers, in tmp_path
    return path


@pytest.mark.parametrize("kind", ["device", "fifo", "not utf-8"])
def test_merges_that_is_no_text_file_is_one_line_at_once(
    paused: Path, tmp_path: Path, kind: str
) -> None:
    merges = tmp_path / "merges.yaml"
    if kind == "device":
        if os.geteuid() != 0:
            pytest.skip("mknod needs root")
        zero_device(merges)
        expected = "is a device, not a merges file"
    elif kind == "fifo":
        os.mkfifo(merges)
        expected = "is a FIFO (named pipe), not a merges file"
    else:
        merges.write_bytes(b"calm: [peace \xff\xfe]\n")
        expected = "not a text file (byte 13 is not UTF-8)"
    with deadline(20):
        line = one_error_line(cli("report", str(paused), "--merges", str(merges)))
    assert f"{merges}: {expected}" in line, line


# ---- item: a FIFO where a journal belongs -----------------------------------------------------


def test_a_fifo_named_as_the_journal_hangs_no_command(paused: Path, tmp_path: Path) -> None:
    path = copy_of(paused, tmp_path / "sessions")
    journal = path.with_suffix(".journal")
    os.mkfifo(journal)
    sessions = ["--sessions-dir", str(path.parent)]
    with deadline(30):
        listed = cli("sessions", *sessions)
        shown = cli("sessions", "show", path.stem, *sessions)
        resumed = cli("run", "--resume", path.stem, *sessions, stdin="/quit\n")
    assert listed.exit_code == 0 and f"{journal}: is a FIFO" in listed.stderr, listed.output
    for result in (shown, resumed):
        assert f"{journal}: is a FIFO (named pipe), not a session journal" in one_error_line(result)
    assert stat.S_ISFIFO(os.lstat(journal).st_mode)


# ---- item: a YAML bomb in a free-form field, YAML nested thousands deep -----------------------


def yaml_bomb(indent: str) -> str:
    """Nine aliases of nine aliases, nine levels: 387 million strings from 1 KB."""
    lines = [f'{indent}lol0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 9):
        refs = ", ".join([f"*l{level - 1}"] * 9)
        lines.append(f"{indent}lol{level}: &l{level} [{refs}]")
    return "\n".join(lines) + "\n"


def test_prompts_on_a_session_whose_methodology_holds_a_yaml_bomb_ends_at_once(
    paused: Path, tmp_path: Path
) -> None:
    def plant(doc: dict[str, Any]) -> None:
        source = doc["methodology"]["source"]
        marker = "  relationship_examples:\n"
        assert marker in source
        doc["methodology"]["source"] = source.replace(marker, marker + yaml_bomb("    "))

    path = copy_of(paused, tmp_path / "sessions", plant)
    done = subprocess.run(
        [sys.executable, "-m", "interview_cli", "prompts", str(path), "--turn", "1"]
        + ["--task", "extract"],
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    (line,) = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2, line
    assert "methodology snapshot no longer loads (YAMLTooBig)" in line, line


def test_a_library_file_with_a_bomb_or_nested_thousands_deep_is_one_line(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(
        "method: {name: x, goal: y}\nontology:\n  relationship_examples:\n" + yaml_bomb("    ")
    )
    deep = tmp_path / "deep.yaml"
    deep.write_text("method: " + "[" * 2000 + "]" * 2000 + "\n")
    with deadline(20):
        bombed = cli("validate", str(bomb))
        nested = cli("validate", str(deep))
    assert "its aliases expand to more than 250,000 values" in bombed.stderr, bombed.output
    assert bombed.exit_code == 2 and "unexpected" not in bombed.stderr
    line = one_error_line(nested)
    assert "deep.yaml: YAML error: it nests more than 100 levels deep" in line, line


def test_a_concept_path_that_is_a_device_says_so(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("mknod needs root")
    zero = zero_device(tmp_path / "zero.yaml")
    line = one_error_line(cli("run", "-c", str(zero), "-p", "offline", stdin="/quit\n"))
    assert "zero.yaml: is a device, not a YAML file" in line, line


# ---- item: one bad file in a listing ----------------------------------------------------------


def test_one_bad_file_is_skipped_with_its_name_and_the_rest_listed(
    paused: Path, tmp_path: Path
) -> None:
    sessions = tmp_path / "sessions"
    copy_of(paused, sessions)
    (sessions / "digits.json").write_text(
        '{"schema_version": 1, "id": "d", "turns": [], "n": ' + "7" * 5000 + "}"
    )
    (sessions / "brackets.json").write_text('{"schema_version": 1, "x": ' + "[" * 100_000)
    (sessions / "nan.json").write_text(
        paused.read_text(encoding="utf-8").replace('"cost_usd": 0.0', '"cost_usd": NaN', 1)
    )
    for args in (["sessions", "--sessions-dir", str(sessions)], ["report", str(sessions)]):
        with deadline(30):
            result = cli(*args)
        assert result.exit_code == 0, (args, result.output)
        warned = [ln for ln in result.stderr.splitlines() if ln.startswith("warning: skipped")]
        for name in ("digits.json", "brackets.json", "nan.json"):
            assert any(name in ln for ln in warned), (args, name, result.stderr)
        assert "unexpected" not in result.stderr
    assert paused.stem in cli("sessions", "--json", "--sessions-dir", str(sessions)).stdout


def test_a_nan_cost_is_refused_on_resume_and_the_file_left_as_it_was(
    paused: Path, tmp_path: Path
) -> None:
    path = copy_of(paused, tmp_path / "sessions")
    text = path.read_text(encoding="utf-8").replace('"cost_usd": 0.0', '"cost_usd": NaN', 1)
    path.write_text(text, encoding="utf-8")
    result = cli("run", "--resume", path.stem, "--sessions-dir", str(path.parent), stdin="/quit\n")
    line = one_error_line(result)
    assert f"{path}: holds NaN, which is no number a session can hold" in line, line
    assert path.read_text(encoding="utf-8") == text


# ---- item: edited graphs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "edit",
    [
        lambda g: g["links"][0].__setitem__("source", "nope"),  # a link to no node
        lambda g: g["links"][0].__setitem__("relations", "x"),  # relations not records
        lambda g: g["nodes"][0].__setitem__("label", 12),  # a label that is no text
        lambda g: g["nodes"].append(dict(g["nodes"][0])),  # an id twice
        lambda g: g["nodes"][0].__setitem__("confidence", "high"),  # a word for a number
        lambda g: g["nodes"][0].__setitem__("stance", 7),
        lambda g: next(iter(g["links"][0]["relations"].values())).__setitem__("confidence", "x"),
        lambda g: next(iter(g["links"][0]["relations"].values())).pop("quotes"),
    ],
)
def test_an_edited_graph_is_one_line_naming_the_session(
    paused: Path, tmp_path: Path, edit: Any
) -> None:
    path = copy_of(paused, tmp_path / "sessions", lambda doc: edit(doc["graph"]))
    for args in (
        ["export", str(path), "-f", "dot"],
        ["export", str(path), "-f", "graphml"],
        ["export", str(path), "-f", "csv"],
        ["report", str(path)],
        ["run", "--resume", path.stem, "--sessions-dir", str(path.parent)],
    ):
        line = one_error_line(cli(*args, stdin="/quit\n"))
        assert "its graph" in line and "cannot be read" in line, (args, line)


# ---- item: CSV cells a spreadsheet would run -------------------------------------------------


def test_csv_cells_that_start_like_a_formula_are_shown_as_text(
    paused: Path, tmp_path: Path
) -> None:
    def label(doc: dict[str, Any]) -> None:
        nodes = doc["graph"]["nodes"]
        nodes[0]["label"] = '=HYPERLINK("http://evil","calm")'
        nodes[1]["label"] = "+cmd|' /C calc'!A0"
        nodes[0]["provenance"][0]["quote"] = "@SUM(1+1)"
        nodes[1]["stance"] = -1

    path = copy_of(paused, tmp_path / "sessions", label)
    result = cli("export", str(path), "-f", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows[0]["label"] == '\'=HYPERLINK("http://evil","calm")'
    assert rows[1]["label"] == "'+cmd|' /C calc'!A0"
    assert rows[0]["first_quote"] == "'@SUM(1+1)"
    assert rows[1]["stance"] == "-1"  # a number stays a number
