"""`interview export`: every format on stdout and to files, read back by its consumer."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from dot_parser import parse_dot  # noqa: E402
from session_factory import run_interview  # noqa: E402


@pytest.fixture(scope="module")
def session_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_interview(
        tmp_path_factory.mktemp("export"),
        concept="headphones_mec",
        session_id="exp",
        persona="cooperative",
        max_turns=6,
    )


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, ["export", *args], catch_exceptions=False)


def test_every_format_on_stdout(session_file: Path) -> None:
    doc = json.loads(session_file.read_text(encoding="utf-8"))
    n_nodes = len(doc["graph"]["nodes"])
    out = {
        fmt: invoke(str(session_file), "--format", fmt)
        for fmt in ("graphml", "dot", "mermaid", "csv", "jsonl", "md")
    }
    assert all(r.exit_code == 0 for r in out.values()), {k: r.output for k, r in out.items()}
    g = nx.read_graphml(io.BytesIO(out["graphml"].stdout.encode("utf-8")))
    assert g.number_of_nodes() == n_nodes
    assert parse_dot(out["dot"].stdout).name == "exp"
    assert out["mermaid"].stdout.startswith("flowchart BT")
    assert len(list(csv.DictReader(io.StringIO(out["csv"].stdout)))) == n_nodes
    assert len(out["jsonl"].stdout.splitlines()) == len(doc["turns"])
    assert out["md"].stdout.startswith("# ")


def test_csv_to_files_writes_both_tables(session_file: Path, tmp_path: Path) -> None:
    result = invoke(str(session_file), "-f", "csv", "--out", str(tmp_path / "graph.csv"))
    assert result.exit_code == 0
    nodes, edges = tmp_path / "graph.nodes.csv", tmp_path / "graph.edges.csv"
    assert nodes.exists() and edges.exists()
    assert str(nodes) in result.stdout and str(edges) in result.stdout
    rows = list(csv.DictReader(io.StringIO(edges.read_text(encoding="utf-8"))))
    doc = json.loads(session_file.read_text(encoding="utf-8"))
    relations = sum(len(e["relations"]) for e in doc["graph"]["links"])
    assert len(rows) == relations
    one = invoke(
        str(session_file), "-f", "csv", "--table", "edges", "--out", str(tmp_path / "e.csv")
    )
    assert one.exit_code == 0
    assert (tmp_path / "e.csv").read_text(encoding="utf-8") == edges.read_text(encoding="utf-8")


def test_graphml_to_a_file(session_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "out" / "g.graphml"
    target.parent.mkdir()  # a missing folder is refused (test_output_targets.py)
    result = invoke(str(session_file), "-f", "graphml", "-o", str(target))
    assert result.exit_code == 0
    assert nx.read_graphml(target).number_of_nodes() > 0


def test_bad_usage(session_file: Path, tmp_path: Path) -> None:
    table = CliRunner().invoke(app, ["export", str(session_file), "-f", "dot", "--table", "edges"])
    assert table.exit_code == 2 and "--table applies to --format csv only" in table.stderr
    unknown = CliRunner().invoke(app, ["export", str(session_file), "-f", "pdf"])
    assert unknown.exit_code == 2
    directory = CliRunner().invoke(
        app, ["export", str(session_file), "-f", "dot", "-o", str(tmp_path)]
    )
    assert directory.exit_code == 2 and "is a directory" in directory.stderr


def _one_line_exit_2(result: Any, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    for needle in needles:
        assert needle in lines[0]


def test_out_never_overwrites_the_input_session(session_file: Path, tmp_path: Path) -> None:
    work = tmp_path / "e"
    work.mkdir()
    original = session_file.read_bytes()
    own = work / "self.json"
    own.write_bytes(original)
    (work / "link.json").symlink_to(own)
    for out in (own, work / "sub" / ".." / "self.json", work / "link.json"):
        result = invoke(str(own), "-f", "md", "--out", str(out))
        _one_line_exit_2(result, f"--out {out}", "input session file", "choose another")
        assert own.read_bytes() == original
    assert not (work / "sub").exists()  # refused before the writer made any directory
    # csv without --table writes two files: either of them may be the input
    tricky = work / "graph.nodes.csv"
    tricky.write_bytes(original)
    result = invoke(str(tricky), "-f", "csv", "--out", str(work / "graph.csv"))
    _one_line_exit_2(result, "graph.nodes.csv")
    assert tricky.read_bytes() == original
    assert not (work / "graph.edges.csv").exists()  # nothing written, not even the other table


def test_out_never_overwrites_another_session(session_file: Path, tmp_path: Path) -> None:
    other = tmp_path / "sessions" / "B.json"
    other.parent.mkdir()
    original = session_file.read_bytes()
    other.write_bytes(original)
    truncated = tmp_path / "sessions" / "C.json"
    truncated.write_bytes(original[:300])
    for out in (other, truncated):
        result = invoke(str(session_file), "-f", "jsonl", "--out", str(out))
        _one_line_exit_2(result, f"--out {out} is a session file", "choose another")
    assert other.read_bytes() == original and truncated.read_bytes() == original[:300]
    # csv: the second table may be the session; the first is not written either
    (tmp_path / "g.edges.csv").write_bytes(original)
    result = invoke(str(session_file), "-f", "csv", "--out", str(tmp_path / "g"))
    _one_line_exit_2(result, "g.edges.csv is a session file")
    assert not (tmp_path / "g.nodes.csv").exists()
    # a file that is not a session (last run's export) is replaced as before
    previous = tmp_path / "turns.jsonl"
    previous.write_text('{"turn": 1}\n', encoding="utf-8")
    assert invoke(str(session_file), "-f", "jsonl", "--out", str(previous)).exit_code == 0
    assert previous.read_text(encoding="utf-8") != '{"turn": 1}\n'
