"""Escape codes already in a session file (hand-edited, or written by another tool) never reach
the terminal or an export; nor do those in a library file's names (the `run` header).

The session is recorded by `run`, then its answers, questions, labels, names and errors are
laced with clear-screen, cursor-home, an OSC 52 clipboard write, BEL, an 8-bit CSI and a bidi
override. Every viewer and every export is then run over it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_run import cli

EVIL = "\x1b[2J\x1b[H\x1b]52;c;ZXZpbA==\x07\u202eevil\x9b31m"
CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e")
ANSWERS = [
    "I love the noise cancelling because it lets me focus on the train",
    "The battery lasts all day so I never worry about charging",
]


def assert_clean(text: str, where: str) -> None:
    found = [repr(c) for c in CONTROLS if c in text]
    assert not found, f"{where}: {found} in {text[:300]!r}"


@pytest.fixture(scope="module")
def laced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A paused session whose every shown string holds terminal controls."""
    sessions = tmp_path_factory.mktemp("escapes") / "sessions"
    stdin = "".join(a + "\n" for a in ANSWERS) + "/quit\n"
    result = cli(
        "run",
        "-c",
        "headphones_mec",
        "-p",
        "offline",
        "--participant",
        "P01",
        "--meta",
        "segment=commuter",
        "--sessions-dir",
        str(sessions),
        stdin=stdin,
    )
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    for turn in doc["turns"]:
        turn["answer"]["text"] += EVIL
        turn["question"]["text"] = EVIL + turn["question"]["text"]
        turn["question"]["focus_label"] = (turn["question"].get("focus_label") or "") + EVIL
    for node in doc["graph"]["nodes"]:
        node["label"] += EVIL
    doc["concept"]["name"] += EVIL
    doc["participant"]["id"] += EVIL
    doc["participant"]["meta"]["segment"] += EVIL
    doc["errors"] = [f"earlier failure {EVIL}"]
    if doc.get("pending_question"):
        doc["pending_question"]["text"] = EVIL + doc["pending_question"]["text"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_every_viewer_shows_the_stored_text_without_its_controls(laced: Path) -> None:
    sessions, sid = str(laced.parent), laced.stem
    for args in (
        ["sessions", "--sessions-dir", sessions],
        ["sessions", "--json", "--sessions-dir", sessions],
        ["sessions", "show", sid, "--sessions-dir", sessions],
        ["replay", str(laced)],
        ["report", str(laced)],
        ["report", str(laced), "--format", "md"],
        ["report", str(laced), "--json"],
        ["prompts", str(laced), "--turn", "1", "--task", "extract"],
    ):
        result = cli(*args)
        assert result.exit_code == 0, (args, result.output)
        assert_clean(result.output, " ".join(args[:3]))
        if args[:2] != ["sessions", "--sessions-dir"] and args[0] != "prompts":
            assert "evil" in result.output, args  # shown, only cleaned


def test_the_resume_screen_shows_no_controls(laced: Path, tmp_path: Path) -> None:
    copy = tmp_path / "sessions" / laced.name
    copy.parent.mkdir()
    copy.write_bytes(laced.read_bytes())
    result = cli("run", "--resume", copy.stem, "--sessions-dir", str(copy.parent), stdin="/quit\n")
    assert result.exit_code == 0, result.output
    assert_clean(result.output, "run --resume")
    assert "evil" in result.output


@pytest.mark.parametrize("fmt", ["md", "csv", "dot", "mermaid", "graphml", "jsonl"])
def test_every_export_writes_no_controls(laced: Path, fmt: str, tmp_path: Path) -> None:
    shown = cli("export", str(laced), "-f", fmt)
    assert shown.exit_code == 0, shown.output
    assert_clean(shown.stdout, f"export -f {fmt}")
    written = cli("export", str(laced), "-f", fmt, "--out", str(tmp_path / f"x.{fmt}"))
    assert written.exit_code == 0, written.output
    for path in tmp_path.iterdir():
        assert_clean(path.read_text(encoding="utf-8"), path.name)


def test_a_concept_name_with_escapes_reaches_the_run_header_clean(tmp_path: Path) -> None:
    concepts = Path(__file__).resolve().parents[2] / "concepts" / "headphones_mec.yaml"
    text = concepts.read_text(encoding="utf-8")
    hostile = tmp_path / "hostile.yaml"
    name_line = next(line for line in text.splitlines() if line.startswith("name:"))
    hostile.write_text(
        text.replace(name_line, 'name: "Headphones\\e[2J\\e]52;c;ZXZpbA==\\a\\u202e"'),
        encoding="utf-8",
    )
    result = cli(
        "run",
        "-c",
        str(hostile),
        "-p",
        "offline",
        "--sessions-dir",
        str(tmp_path / "s"),
        stdin="/quit\n",
    )
    assert result.exit_code == 0, result.output
    assert_clean(result.output, "run header")
    assert "Headphones" in result.output
