"""`interview report --ladders FILE.csv` and `--count`: hand-coded ladders, alone or pooled."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from html_check import check_html  # noqa: E402
from session_factory import MEC_ANSWERS, run_interview  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "ladders" / "headphones_sample.csv"


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, ["report", *args], catch_exceptions=False)


def _section(result: Any) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    (section,) = json.loads(result.stdout)["methodologies"]
    return section


def test_a_sheet_alone_in_every_format() -> None:
    section = _section(invoke("--ladders", str(SAMPLE), "--json"))
    assert section["methodology"] == "means_end_chain"
    assert section["implication_matrix"]["counting"] == "ladder"
    assert section["implication_matrix"]["ladders"] == 7
    assert section["implication_matrix"]["respondents"] == 3
    assert section["coding_sheets"] == [f"{SAMPLE}: 3 respondents, 7 ladders"]
    md = invoke("--ladders", str(SAMPLE), "-f", "md")
    assert md.exit_code == 0 and "counted per ladder (Reynolds & Gutman)" in md.stdout
    assert "No interview sessions" in md.stdout and "## Metrics" not in md.stdout
    html = invoke("--ladders", str(SAMPLE), "-f", "html", "--count", "respondent")
    assert html.exit_code == 0 and "Ladders coded by hand" in html.stdout
    assert check_html(html.stdout).problems == []
    assert "<svg" in html.stdout and "counted per respondent" in html.stdout
    terminal = invoke("--ladders", str(SAMPLE))
    assert terminal.exit_code == 0 and "Hierarchical value map" in terminal.stdout
    assert "Metrics per session" not in terminal.stdout


def test_count_respondent_is_stated_and_changes_the_counts() -> None:
    by_ladder = _section(invoke("--ladders", str(SAMPLE), "--json"))
    by_person = _section(invoke("--ladders", str(SAMPLE), "--json", "--count", "respondent"))
    assert by_person["implication_matrix"]["counting"] == "respondent"
    # R3 and R1 each tell "noise cancelling ... freedom" once, R2 twice: 4 ladders, 3 people.
    names = {c["id"]: c["name"] for c in by_ladder["codes"]}

    def cell(section: dict[str, Any], a: str, b: str) -> tuple[int, int]:
        for c in section["implication_matrix"]["cells"]:
            if (names[c["source"]], names[c["target"]]) == (a, b):
                return c["direct"], c["indirect"]
        return 0, 0

    assert cell(by_ladder, "noise cancelling", "freedom") == (0, 4)
    assert cell(by_person, "noise cancelling", "freedom") == (0, 3)
    # R1's ladders meet at "can focus": battery life never reaches R1's "get work done".
    assert cell(by_ladder, "long battery life", "get work done") == (0, 0)
    bad = invoke("--ladders", str(SAMPLE), "--count", "graph")
    assert bad.exit_code == 2


def test_sessions_and_a_sheet_make_one_report(tmp_path: Path) -> None:
    session = run_interview(
        tmp_path, concept="headphones_mec", session_id="mec-a", answers=MEC_ANSWERS, max_turns=6
    )
    result = invoke(str(session), "--ladders", str(SAMPLE), "--json")
    data = json.loads(result.stdout)
    section = _section(result)
    assert [s["id"] for s in data["sessions"]] == ["mec-a"]
    assert section["sessions"] == ["mec-a"]
    assert section["implication_matrix"]["respondents"] == 4  # one session, three sheet people
    assert section["coding_sheets"]
    # Codes are shared by label: the interview's "noise cancelling" joins the sheet's.
    noise = [c for c in section["codes"] if c["name"] == "noise cancelling"]
    assert len(noise) == 1 and noise[0]["respondents"] == 4


def test_a_bad_sheet_is_one_line_and_exit_2(tmp_path: Path) -> None:
    sheet = tmp_path / "coded.csv"
    sheet.write_text(
        "respondent,ladder,position,code,level\nR1,1,1,price,A\nR1,1,2,freedom,V\n"
        "R1,1,3,saves money,C\n",
        encoding="utf-8",
    )
    result = invoke("--ladders", str(sheet))
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert "\n" not in line and "Traceback" not in result.output
    assert f"{sheet}: row 4, column level:" in line and "goes down" in line
    missing = invoke("--ladders", str(tmp_path / "nope.csv"))
    assert missing.exit_code == 2 and "nope.csv" in missing.stderr


def test_out_never_overwrites_the_sheet(tmp_path: Path) -> None:
    sheet = tmp_path / "coded.md"
    sheet.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    result = invoke("--ladders", str(sheet), "--out", str(sheet))
    assert result.exit_code == 2 and "coding sheet" in result.stderr
    assert sheet.read_text(encoding="utf-8") == SAMPLE.read_text(encoding="utf-8")


def test_help_shows_the_sheet_format_and_the_sample() -> None:
    result = CliRunner().invoke(app, ["report", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for text in (
        "--ladders",
        "--count",
        "respondent,ladder,position,code,level",
        "headphones_sample.csv",
    ):
        assert text in result.stdout


@pytest.mark.parametrize("rule", ["ladder", "respondent"])
def test_sessions_alone_state_the_rule_too(tmp_path: Path, rule: str) -> None:
    session = run_interview(
        tmp_path, concept="headphones_mec", session_id="mec-b", answers=MEC_ANSWERS, max_turns=6
    )
    section = _section(invoke(str(session), "--json", "--count", rule))
    assert section["implication_matrix"]["counting"] == rule
    assert section["implication_matrix"]["ladders"] >= 1
    assert "coding_sheets" in section and section["coding_sheets"] == []


def test_the_sample_sheet_is_found_in_the_library_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    section = _section(invoke("--ladders", "ladders/headphones_sample.csv", "--json"))
    assert section["implication_matrix"]["ladders"] == 7
    missing = invoke("--ladders", "ladders/nope.csv")
    assert missing.exit_code == 2 and "nope.csv" in missing.stderr
