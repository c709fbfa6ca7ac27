"""`interview report`: the terminal view, md/html/json, --out, directories, merges, cut-off."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from html_check import check_html  # noqa: E402
from session_factory import MEC_ANSWERS, run_interview  # noqa: E402


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory like a batch's output: sessions of two methods, and a non-session file."""
    directory = tmp_path_factory.mktemp("report")
    run_interview(
        directory, concept="headphones_mec", session_id="mec-a", answers=MEC_ANSWERS, max_turns=6
    )
    run_interview(
        directory, concept="headphones_mec", session_id="mec-b", persona="cooperative", max_turns=6
    )
    nested = directory / "more"
    nested.mkdir()
    run_interview(
        nested, concept="coffee_jtbd", session_id="jtbd-a", persona="cooperative", max_turns=6
    )
    (directory / "summary.json").write_text(json.dumps({"runs": 3}), encoding="utf-8")
    return directory


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, ["report", *args], catch_exceptions=False)


def test_terminal_report_of_a_directory(batch: Path) -> None:
    result = invoke(str(batch))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Metrics per session" in out and "How each session went" in out
    for sid in ("mec-a", "mec-b", "jtbd-a"):
        assert sid in out
    assert "Implication matrix" in out and "Hierarchical value map" in out
    assert "cut-off" in out and "of links" in out
    assert "Most frequent connections" in out  # the jobs-to-be-done section
    # the summary file is not a session: skipped with a warning, not an error
    assert "summary.json" in result.stderr and "skipped" in result.stderr


def test_default_is_the_sessions_directory(batch: Path) -> None:
    result = invoke("--sessions-dir", str(batch), "--json")
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)["sessions"]) == 3


@pytest.mark.parametrize(
    ("fmt", "start"), [("md", "# Interview report"), ("html", "<!DOCTYPE html>")]
)
def test_formats_on_stdout(batch: Path, fmt: str, start: str) -> None:
    result = invoke(str(batch), "--format", fmt)
    assert result.exit_code == 0
    assert result.stdout.startswith(start)


def test_json_report(batch: Path) -> None:
    data = json.loads(invoke(str(batch / "mec-a.json"), str(batch / "mec-b.json"), "--json").stdout)
    assert [s["id"] for s in data["sessions"]] == ["mec-a", "mec-b"]
    (mec,) = data["methodologies"]
    assert mec["hvm"]["cutoff"] >= 1 and 0 < mec["hvm"]["share_of_links_kept"] <= 1


def test_json_has_one_documented_spelling(batch: Path) -> None:
    """`--json`, as in sessions, batch and replay; `--format json` still works, unshown."""
    path = str(batch / "mec-a.json")
    documented = invoke(path, "--json")
    assert documented.exit_code == 0
    assert invoke(path, "--format", "json").stdout == documented.stdout  # the old spelling
    help_text = CliRunner().invoke(app, ["report", "--help"], env={"COLUMNS": "120"}).stdout
    assert "--json" in help_text and "md|html " in help_text and "md|html|json" not in help_text
    both = invoke(path, "--json", "--format", "md")
    assert both.exit_code == 2 and "--json and --format md: choose one" in both.stderr
    bad = invoke(path, "--format", "pdf")
    assert bad.exit_code == 2 and "for JSON use --json" in bad.stderr


def test_out_file_takes_its_format_from_the_suffix(batch: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = invoke(str(batch), "--out", str(out))
    assert result.exit_code == 0
    assert f"written to {out}" in result.stdout
    parsed = check_html(out.read_text(encoding="utf-8"))
    assert parsed.problems == [] and parsed.tags.get("svg", 0) >= 2
    unknown = invoke(str(batch), "--out", str(tmp_path / "report.txt"))
    assert unknown.exit_code == 2 and "unknown suffix" in unknown.stderr


def test_merges_and_cutoff(batch: Path, tmp_path: Path) -> None:
    merges = tmp_path / "codes.yaml"
    merges.write_text("in control:\n  - feel in control\n  - feeling in control\n", "utf-8")
    data = json.loads(invoke(str(batch), "--merges", str(merges), "--cutoff", "1", "--json").stdout)
    mec = next(m for m in data["methodologies"] if m["methodology"] == "means_end_chain")
    assert mec["hvm"]["cutoff"] == 1 and mec["hvm"]["keep_share_target"] is None
    assert any(c["source"] == "merge" and c["name"] == "in control" for c in mec["codes"])
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [calm]\nb: [calm]\n", encoding="utf-8")
    result = invoke(str(batch), "--merges", str(bad))
    assert result.exit_code == 2 and "already merged" in result.stderr


def test_keep_share_out_of_range_is_bad_usage(batch: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(batch), "--keep-share", "1.5"])
    assert result.exit_code == 2


def test_a_directory_without_sessions_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = invoke(str(tmp_path / "empty"))
    assert result.exit_code == 2 and "no session files" in result.stderr
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "x.json").write_text("{}", encoding="utf-8")
    result = invoke(str(tmp_path / "junk"))
    assert result.exit_code == 2 and "no readable session" in result.stderr


def test_out_never_overwrites_an_input_session(batch: Path, tmp_path: Path) -> None:
    work = tmp_path / "r"
    shutil.copytree(batch, work)
    session = work / "mec-a.json"
    nested = work / "more" / "jtbd-a.json"
    before = {p: p.read_bytes() for p in (session, nested)}
    cases = [
        ([str(session)], session),  # the file named
        ([str(work)], nested),  # a session found below an input directory
        ([str(work)], work / "more" / ".." / "mec-a.json"),  # another spelling
    ]
    for refs, out in cases:
        result = invoke(*refs, "-f", "md", "--out", str(out))
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and f"--out {out} is the input session file" in lines[0]
        assert {p: p.read_bytes() for p in before} == before
    # a session this version cannot read (newer schema) is still someone's interview
    newer = work / "newer.json"
    doc = json.loads(session.read_text(encoding="utf-8"))
    doc["schema_version"] = 99
    newer.write_text(json.dumps(doc), encoding="utf-8")
    result = invoke(str(work), "--json", "--out", str(newer))
    assert result.exit_code == 2 and "newer.json is the input session file" in result.stderr
    assert json.loads(newer.read_text(encoding="utf-8"))["schema_version"] == 99
    # a report beside the sessions can be written, and written again (it is not a session)
    again = work / "report.json"
    for _ in range(2):
        assert invoke(str(work), "--out", str(again)).exit_code == 0
    assert "sessions" in json.loads(again.read_text(encoding="utf-8"))


def test_merge_labels_that_match_nothing_are_reported(batch: Path, tmp_path: Path) -> None:
    merges = tmp_path / "codes.yaml"
    merges.write_text("in control:\n  - feel in control\n  - feelin in contrl\n", "utf-8")
    result = invoke(str(batch), "--merges", str(merges), "--json")
    assert result.exit_code == 0
    warnings = [x for x in result.stderr.splitlines() if "matches no label" in x]
    assert warnings == [
        f"warning: {merges}: 'feelin in contrl' (code 'in control') matches no label in these "
        "sessions; check its spelling"
    ]
    data = json.loads(result.stdout)
    assert data["unmatched_merges"] == [{"code": "in control", "label": "feelin in contrl"}]
    md = invoke(str(batch), "--merges", str(merges), "-f", "md").stdout
    assert "## Unmatched merges" in md and "'feelin in contrl' (code 'in control')" in md
    # the terminal view words it as md and html do (report_md.unmatched_merge_lines)
    line = "'feelin in contrl' (code 'in control') matches no label in these sessions"
    assert f"- {line}" in md
    terminal = invoke(str(batch), "--merges", str(merges)).stdout
    assert line in " ".join(terminal.split())


def test_a_section_names_the_concepts_it_pools(batch: Path, tmp_path: Path) -> None:
    work = tmp_path / "two-concepts"
    work.mkdir()
    doc = json.loads((batch / "mec-a.json").read_text(encoding="utf-8"))
    doc["concept"]["name"] = "Wireless headphones [v2]"  # brackets Rich must not eat
    (work / "mec-a.json").write_text(json.dumps(doc), encoding="utf-8")
    run_interview(work, concept="oat_milk_mec", session_id="oat", persona="sceptical", max_turns=4)
    md = invoke(str(work), "-f", "md").stdout
    assert "## means_end_chain (version" in md  # still one section for one methodology
    assert "Concepts (sessions): Wireless headphones [v2] (headphones_mec) 1" in md
    assert "(oat_milk_mec) 1" in md
    terminal = " ".join(invoke(str(work)).stdout.split())
    assert "Concepts (sessions): Wireless headphones [v2] (headphones_mec) 1" in terminal


def test_out_never_overwrites_any_session_file(batch: Path, tmp_path: Path) -> None:
    """Not only the inputs: a truncated session, or another session the report did not read."""
    work = tmp_path / "s"
    shutil.copytree(batch, work)
    whole = (work / "mec-a.json").read_bytes()
    truncated = work / "mec-a.json"
    truncated.write_bytes(whole[: len(whole) // 2])  # a crash or a full disk mid-write
    other = tmp_path / "elsewhere" / "mec-b.json"
    other.parent.mkdir()
    other.write_bytes((work / "mec-b.json").read_bytes())
    cases = [
        ([str(work)], truncated, "is the input session file"),  # skipped, yet protected
        ([str(work / "mec-b.json")], other, "is a session file"),  # not an input at all
        ([str(work / "mec-b.json")], truncated, "is a session file"),  # truncated, not an input
    ]
    before = {p: p.read_bytes() for p in (truncated, other)}
    for refs, out, needle in cases:
        result = invoke(*refs, "--json", "--out", str(out))
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and f"--out {out} {needle}" in lines[0], result.stderr
        assert {p: p.read_bytes() for p in before} == before


def test_out_naming_a_directory_is_one_line(batch: Path, tmp_path: Path) -> None:
    result = invoke(str(batch), "--json", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "is a directory; name a file" in result.output
    assert "Traceback" not in result.output


def test_codes_that_say_the_same_thing_are_grouped_unless_no_group(tmp_path: Path) -> None:
    run_interview(
        tmp_path, concept="headphones_mec", session_id="a", answers=["Battery life, mostly."]
    )
    run_interview(tmp_path, concept="headphones_mec", session_id="b", answers=["The battery."])

    def battery_codes(*flags: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        data = json.loads(invoke(str(tmp_path), "--json", *flags).stdout)
        (mec,) = data["methodologies"]
        return data["options"], [c for c in mec["codes"] if "battery" in c["name"]]

    options, grouped = battery_codes()
    assert options["group_by_meaning"] is True
    assert [(c["respondents"], c["source"]) for c in grouped] == [(2, "meaning")]
    assert set(grouped[0]["variants"]) == {"battery", "battery life"}
    options, exact = battery_codes("--no-group")
    assert options["group_by_meaning"] is False
    assert sorted(c["respondents"] for c in exact) == [1, 1]
