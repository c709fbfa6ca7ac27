"""`interview export SESSION... --format qdpx --out FILE.qdpx`: a REFI-QDA project from the CLI."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from qdpx_check import NS, check_project, read_qdpx  # noqa: E402
from session_factory import MEC_ANSWERS, run_interview  # noqa: E402


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    directory = tmp_path_factory.mktemp("qdpx")
    return [
        run_interview(
            directory,
            concept="headphones_mec",
            session_id="mec-a",
            answers=MEC_ANSWERS,
            max_turns=6,
        ),
        run_interview(
            directory,
            concept="coffee_jtbd",
            session_id="jtbd-a",
            persona="cooperative",
            max_turns=5,
        ),
    ]


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, ["export", *args], catch_exceptions=False)


def test_two_sessions_become_one_valid_project(two: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "study.qdpx"
    result = invoke(*map(str, two), "--format", "qdpx", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "2 sessions" in result.stdout and str(out) in result.stdout
    data = out.read_bytes()
    assert check_project(data) == []
    project = read_qdpx(data)
    names = [s.get("name") for s in project.root.iter(f"{{{NS}}}TextSource")]
    assert [n.split(" ")[0] for n in names] == ["mec-a", "jtbd-a"]
    assert len(list(project.root.iter(f"{{{NS}}}PlainTextSelection"))) > 4
    texts = "".join(project.sources.values())
    assert "noise cancelling" in texts and "Q1 Interviewer:" in texts


def test_qdpx_needs_out_and_each_session_once(two: list[Path], tmp_path: Path) -> None:
    no_out = invoke(str(two[0]), "-f", "qdpx")
    assert no_out.exit_code == 2 and "--out" in no_out.stderr
    copy = tmp_path / "again.json"
    copy.write_bytes(two[0].read_bytes())
    twice = invoke(str(two[0]), str(copy), "-f", "qdpx", "--out", str(tmp_path / "x.qdpx"))
    assert twice.exit_code == 2 and "'mec-a'" in twice.stderr
    assert not (tmp_path / "x.qdpx").exists()
    into_dir = invoke(str(two[0]), "-f", "qdpx", "--out", str(tmp_path))
    assert into_dir.exit_code == 2 and "directory" in into_dir.stderr


def test_qdpx_never_overwrites_a_session(two: list[Path], tmp_path: Path) -> None:
    target = tmp_path / "keep.json"
    target.write_bytes(two[1].read_bytes())
    before = target.read_bytes()
    result = invoke(str(two[0]), str(target), "-f", "qdpx", "--out", str(target))
    assert result.exit_code == 2
    assert target.read_bytes() == before


def test_other_formats_still_take_one_session(two: list[Path]) -> None:
    result = invoke(*map(str, two), "-f", "md")
    assert result.exit_code == 2 and "one session" in result.stderr
    single = invoke(str(two[0]), "-f", "mermaid")
    assert single.exit_code == 0 and "flowchart" in single.stdout
