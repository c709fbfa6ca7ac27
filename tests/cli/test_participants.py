"""`run --participant ID --meta key=value`: stored, listed, reported, filtered and exported."""

from __future__ import annotations

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
from qdpx_check import NS, check_project, read_qdpx  # noqa: E402

ANSWERS = (
    "I love the noise cancelling because it lets me focus on the train\n"
    "Focusing on the train means I can get my work done\n/quit\n"
)


def cli(*args: str, text: str = "") -> Any:
    return CliRunner().invoke(app, list(args), input=text, catch_exceptions=False)


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three sessions: P07 (commuter), P08 (student), and one without a participant."""
    sessions = tmp_path_factory.mktemp("participants")
    for extra in (
        ["--participant", "P07", "--meta", "age=34", "--meta", "segment=commuter"],
        ["--participant", "P08", "--meta", "segment=student"],
        [],
    ):
        result = cli(
            "run",
            "-c",
            "headphones_mec",
            "--provider",
            "offline",
            "--sessions-dir",
            str(sessions),
            *extra,
            text=ANSWERS,
        )
        assert result.exit_code == 0, result.output
    return sessions


def _by_participant(study: Path) -> dict[str | None, Path]:
    out = {}
    for path in study.glob("*.json"):
        who = json.loads(path.read_text(encoding="utf-8")).get("participant")
        out[who["id"] if who else None] = path
    return out


def test_the_participant_is_stored_and_listed(study: Path) -> None:
    stored = {
        k: json.loads(p.read_text(encoding="utf-8")).get("participant")
        for k, p in _by_participant(study).items()
    }
    assert stored == {
        "P07": {"id": "P07", "meta": {"age": "34", "segment": "commuter"}},
        "P08": {"id": "P08", "meta": {"segment": "student"}},
        None: None,
    }
    listed = json.loads(cli("sessions", "--sessions-dir", str(study), "--json").stdout)
    assert sorted(str(r["participant"]) for r in listed) == ["None", "P07", "P08"]
    wide = CliRunner().invoke(
        app, ["sessions", "--sessions-dir", str(study)], env={"COLUMNS": "160"}
    )
    assert "participant" in wide.stdout and "P07" in wide.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--meta", "age=34"], "give --participant ID too"),
        (["--participant", "P1", "--meta", "age"], "expected KEY=VALUE"),
        (["--participant", "P1", "--meta", "=3"], "expected KEY=VALUE"),
        (["--participant", "P1", "--meta", "a=1", "--meta", "a=2"], "given twice"),
        (["--participant", " "], "give a short id"),
        (["--participant", "P1", "--resume", "nope"], "set when a session starts"),
    ],
)
def test_bad_participant_options_are_one_line_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    result = cli("run", "-c", "headphones_mec", "--sessions-dir", str(tmp_path), *args)
    if "--resume" in args:
        result = cli("run", "--sessions-dir", str(tmp_path), *args)
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert not list(tmp_path.glob("*.json"))


def test_report_has_participant_rows_and_filters_by_facts(study: Path) -> None:
    data = json.loads(cli("report", str(study), "--json").stdout)
    rows = {p["id"]: p for p in data["participants"]}
    assert set(rows) == {"P07", "P08"}
    assert rows["P07"]["meta"] == {"age": "34", "segment": "commuter"}
    assert len(rows["P07"]["sessions"]) == 1 and rows["P07"]["turns"] >= 1
    md = cli("report", str(study), "-f", "md").stdout
    assert "## Participants" in md and "| P07 | age=34, segment=commuter |" in md

    only = json.loads(cli("report", str(study), "--json", "--where", "segment=Commuter").stdout)
    assert [s["participant"] for s in only["sessions"]] == ["P07"]
    assert only["where"] == {"segment": "Commuter"}
    by_id = json.loads(cli("report", str(study), "--json", "--where", "participant=P08").stdout)
    assert [s["participant"] for s in by_id["sessions"]] == ["P08"]
    both = cli("report", str(study), "--json", "--where", "participant=P08", "--where", "age=34")
    assert both.exit_code == 2 and "no session matches" in both.stderr
    bad = cli("report", str(study), "--where", "segment")
    assert bad.exit_code == 2 and "expected KEY=VALUE" in bad.stderr


def test_every_export_names_the_participant(study: Path, tmp_path: Path) -> None:
    p07 = str(_by_participant(study)["P07"])
    md = cli("export", p07, "-f", "md").stdout
    assert "Participant `P07` · age=34, segment=commuter" in md
    first = json.loads(cli("export", p07, "-f", "jsonl").stdout.splitlines()[0])
    assert first["participant"] == {"id": "P07", "meta": {"age": "34", "segment": "commuter"}}
    assert "participant P07" in cli("export", p07, "-f", "dot").stdout
    mermaid = cli("export", p07, "-f", "mermaid").stdout
    assert mermaid.startswith("flowchart BT")
    assert mermaid.endswith("%% participant P07, age=34, segment=commuter\n")
    g = nx.read_graphml(io.BytesIO(cli("export", p07, "-f", "graphml").stdout.encode()))
    assert g.graph["participant"] == "P07" and g.graph["participant_segment"] == "commuter"

    out = tmp_path / "study.qdpx"
    result = cli("export", *map(str, sorted(study.glob("*.json"))), "-f", "qdpx", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert check_project(data) == []
    root = read_qdpx(data).root
    variables = {v.get("guid"): v.get("name") for v in root.iter(f"{{{NS}}}Variable")}
    assert sorted(variables.values()) == ["age", "segment"]
    facts = {}
    for case in root.iter(f"{{{NS}}}Case"):
        facts[case.get("name")] = {
            variables[v.find(f"{{{NS}}}VariableRef").get("targetGUID")]: v.find(
                f"{{{NS}}}TextValue"
            ).text
            for v in case.findall(f"{{{NS}}}VariableValue")
        }
    assert facts["P07"] == {"age": "34", "segment": "commuter"}
    assert facts["P08"] == {"segment": "student"}
    assert sum(1 for name in facts if name.startswith("respondent ")) == 1
