"""`interview replay`: the walk, --turn, --json, paging, --verify, --methodology, bad files."""

from __future__ import annotations

import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.cli.replay import page_turns

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from session_factory import MEC_ANSWERS, run_interview  # noqa: E402

from interview_cli.config.yamlio import load_yaml


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("replay")
    return {
        "mec": run_interview(
            directory, concept="headphones_mec", session_id="mec", answers=MEC_ANSWERS, max_turns=6
        ),
        "jtbd": run_interview(
            directory, concept="coffee_jtbd", session_id="jtbd", persona="cooperative", max_turns=6
        ),
    }


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, ["replay", *args], catch_exceptions=False)


def test_piped_replay_prints_every_turn(sessions: dict[str, Path]) -> None:
    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    result = invoke(str(sessions["mec"]))
    assert result.exit_code == 0, result.output
    out = result.stdout
    for turn in doc["turns"]:
        assert f"Turn {turn['turn_number']} of {len(doc['turns'])}" in out
        assert turn["answer"]["text"][:40] in out.replace("\n", " ")
    for part in ("Extracted", "Graph:", "Key signals", "Candidates", "Decision:", "Continuation:"):
        assert part in out


def test_one_turn_and_its_json(sessions: dict[str, Path]) -> None:
    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    shown = invoke(str(sessions["mec"]), "--turn", "2")
    assert shown.exit_code == 0
    assert "Turn 2 of" in shown.stdout and "Turn 1 of" not in shown.stdout
    as_json = invoke(str(sessions["mec"]), "--turn", "2", "--json")
    record = json.loads(as_json.stdout)
    assert record["turn"] == 2
    assert record["decision"] == doc["turns"][1]["decision"]
    assert record["question"]["text"] == doc["turns"][1]["question"]["text"]
    assert set(record["key_signals"]) == {"global", "node"}
    assert all(not c["vetoed_by"] for c in record["candidates"])
    everything = json.loads(invoke(str(sessions["mec"]), "--json").stdout)
    assert [r["turn"] for r in everything] == [t["turn_number"] for t in doc["turns"]]


def test_brackets_in_recorded_names_are_shown_as_written(
    sessions: dict[str, Path], tmp_path: Path
) -> None:
    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    doc["concept"]["name"] = "Headphones [beta]"
    edited = tmp_path / "beta.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    result = invoke(str(edited), "--turn", "1")
    assert result.exit_code == 0, result.output
    assert "Headphones [beta]" in result.stdout.splitlines()[0]


def test_a_turn_that_does_not_exist_is_bad_usage(sessions: dict[str, Path]) -> None:
    result = invoke(str(sessions["mec"]), "--turn", "99")
    assert result.exit_code == 2
    assert "--turn 99: no such turn" in result.stderr


def test_a_session_is_found_by_id_in_the_sessions_dir(sessions: dict[str, Path]) -> None:
    result = invoke("jtbd", "--sessions-dir", str(sessions["jtbd"].parent), "--turn", "1")
    assert result.exit_code == 0 and "Turn 1 of" in result.stdout


class _Turn:
    """The pager only hands turns to the view; a stub view shows which one is on screen."""

    def __init__(self, n: int) -> None:
        self.turn_number = n


def _page(monkeypatch: pytest.MonkeyPatch, count: int, keys: list[str]) -> list[int]:
    import interview_cli.ui.replay as views

    monkeypatch.setattr(views, "turn_page", lambda turn, total: f"TURN {turn.turn_number}/{total}")
    pressed = iter(keys)

    def read(prompt: str) -> str:
        try:
            return next(pressed)
        except StopIteration:
            raise EOFError from None  # what console.input raises at end of input

    console = Console(
        file=io.StringIO(), force_terminal=True, width=80, color_system=None, highlight=False
    )
    turns: Any = [_Turn(n) for n in range(1, count + 1)]
    page_turns(console, turns, read)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    return [int(part.split("/")[0]) for part in out.split("TURN ")[1:]]


def test_paging_moves_with_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    # Enter and n go forward, p back, a number jumps, q quits; an unknown key stays put.
    assert _page(monkeypatch, 3, ["", "n", "p", "x", "3", "q"]) == [1, 2, 3, 2, 2, 3]
    # going past the last turn ends the pager, and so does end of input
    assert _page(monkeypatch, 2, ["n", "n"]) == [1, 2]
    assert _page(monkeypatch, 2, []) == [1]


# --------------------------------------------------------------------------------------------
# --verify
# --------------------------------------------------------------------------------------------


def test_verify_passes_on_what_the_pipeline_wrote(sessions: dict[str, Path]) -> None:
    for path in sessions.values():
        result = invoke(str(path), "--verify")
        assert result.exit_code == 0, result.output
        assert "✓" in result.stdout and "reproduced exactly" in result.stdout
        data = json.loads(invoke(str(path), "--verify", "--json").stdout)
        assert data["ok"] is True and data["mismatches"] == []


def _edit_weight(path: Path, target: Path) -> tuple[str, str]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    source = doc["methodology"]["source"]
    line = next(x for x in source.splitlines() if "graph.node.has_outgoing.false:" in x)
    key, value = line.rsplit(":", 1)
    new = f"{float(value) - 0.35:.2f}"
    doc["methodology"]["source"] = source.replace(line, f"{key}: {new}", 1)
    doc["methodology"]["sha256"] = hashlib.sha256(
        doc["methodology"]["source"].encode("utf-8")
    ).hexdigest()
    target.write_text(json.dumps(doc), encoding="utf-8")
    return value.strip(), new


def test_verify_fails_with_a_readable_diff_after_a_weight_edit(
    sessions: dict[str, Path], tmp_path: Path
) -> None:
    edited = tmp_path / "edited.json"
    old, new = _edit_weight(sessions["mec"], edited)
    result = invoke(str(edited), "--verify", "--max-diffs", "3")
    assert result.exit_code == 1
    out = result.stdout
    assert "✗" in out and "First 3 of" in out
    assert "turn 1 · scores · candidates[" in out  # brackets shown, not eaten as markup
    assert "- recorded:" in out and "+ replayed:" in out
    assert f"graph.node.has_outgoing.false weight {float(old)!r} → {float(new)!r}" in out
    data = json.loads(invoke(str(edited), "--verify", "--json").stdout)
    assert data["ok"] is False and data["first_differing_turn"] == 1


def test_verify_fails_after_a_recorded_signal_edit(
    sessions: dict[str, Path], tmp_path: Path
) -> None:
    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    doc["turns"][1]["signals"]["llm.response_depth"] = "surface"
    if doc["turns"][1]["signals"].get("llm.response_depth") == "surface":
        doc["turns"][1]["signals"]["llm.response_depth"] = "deep"
    edited = tmp_path / "signal.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    result = invoke(str(edited), "--verify")
    assert result.exit_code == 1
    assert "turn 2 · signals · signals[llm.response_depth]" in result.stdout


def test_verify_and_methodology_together_are_bad_usage(sessions: dict[str, Path]) -> None:
    result = invoke(str(sessions["mec"]), "--verify", "--methodology", "means_end_chain")
    assert result.exit_code == 2 and "not both" in result.stderr


# --------------------------------------------------------------------------------------------
# --methodology (what-if)
# --------------------------------------------------------------------------------------------


def test_what_if_with_the_same_methodology_changes_nothing(sessions: dict[str, Path]) -> None:
    result = invoke(str(sessions["mec"]), "--methodology", "means_end_chain")
    assert result.exit_code == 0, result.output
    assert "no decision changes" in result.stdout


def test_what_if_with_other_weights_lists_the_changed_turns(
    sessions: dict[str, Path], tmp_path: Path
) -> None:
    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    other = tmp_path / "no_deepen.yaml"
    # The same methodology with a prohibitive bonus against deepening in every phase.
    import yaml

    data = load_yaml(doc["methodology"]["source"])
    for phase in ("early", "mid", "late"):
        data.setdefault("phases", {}).setdefault(phase, {}).setdefault("phase_bonuses", {})
        data["phases"][phase]["phase_bonuses"]["deepen"] = -100.0
    other.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = invoke(str(sessions["mec"]), "--methodology", str(other))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "decide differently; first change at turn" in out
    assert "first change" in out
    as_json = json.loads(invoke(str(sessions["mec"]), "-m", str(other), "--json").stdout)
    assert as_json["first_change"] is not None
    changed = [r for r in as_json["rows"] if r["differs"]]
    assert changed and changed[0]["recorded"]["strategy"] == "deepen"
    later = [r for r in as_json["rows"] if r["turn"] > as_json["first_change"]]
    assert all(r["counterfactual"] for r in later)


def test_what_if_headers_keep_their_brackets(sessions: dict[str, Path], tmp_path: Path) -> None:
    import yaml

    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    data = load_yaml(doc["methodology"]["source"])
    for phase in ("early", "mid", "late"):
        data["phases"][phase]["phase_bonuses"]["deepen"] = -100.0
    other = tmp_path / "no_deepen.yaml"
    other.write_text(yaml.safe_dump(data), encoding="utf-8")
    out = invoke(str(sessions["mec"]), "-m", str(other)).stdout  # 120 columns: one line each
    header = next(line for line in out.splitlines() if "turn" in line and "what-if" in line)
    assert "recorded [score → under new weights]" in header
    assert "what-if [score]" in header and "note" in header


def _closing_at_once(sessions: dict[str, Path], tmp_path: Path) -> Path:
    """The session's methodology with a huge bonus for its closing strategy: it stops at 1."""
    import yaml

    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    data = load_yaml(doc["methodology"]["source"])
    closing = next(s["name"] for s in data["strategies"] if s.get("generates_closing_question"))
    for phase in ("early", "mid", "late"):
        data["phases"][phase]["phase_bonuses"][closing] = 100.0
    # without the stop guard, which would defer a closing this early (it waits for a
    # breadth check only where a strategy is one)
    data["tuning"]["saturation"]["probe_attributes_before_stop"] = False
    for strategy in data["strategies"]:
        strategy.pop("breadth_check", None)
    other = tmp_path / "close_now.yaml"
    other.write_text(yaml.safe_dump(data), encoding="utf-8")
    return other


def test_what_if_counts_reached_turns_apart_from_turns_never_reached(
    sessions: dict[str, Path], tmp_path: Path
) -> None:
    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    total = sum(1 for t in doc["turns"] if t["status"] == "complete")
    assert total > 2
    other = _closing_at_once(sessions, tmp_path)
    result = invoke(str(sessions["mec"]), "-m", str(other))
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert "1 of 1 reached turns decide differently; first change at turn 1" in flat
    unreached = f"{total - 1} recorded turns not reached (the what-if interview ends after turn 1)"
    assert unreached in flat
    data = json.loads(invoke(str(sessions["mec"]), "-m", str(other), "--json").stdout)
    assert data["changed_turns"] == [1]
    assert data["not_reached_turns"] == list(range(2, total + 1))


def test_what_if_all_lists_reached_turns_and_sums_up_the_rest(
    sessions: dict[str, Path], tmp_path: Path
) -> None:
    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    total = sum(1 for t in doc["turns"] if t["status"] == "complete")
    other = _closing_at_once(sessions, tmp_path)
    data = json.loads(invoke(str(sessions["mec"]), "-m", str(other), "--json").stdout)
    # a turn never reached did not decide anything, so it does not "differ"
    assert [r["turn"] for r in data["rows"] if r["differs"]] == [1]
    assert all(not r["differs"] for r in data["rows"] if r["alternative"] is None)
    out = invoke(str(sessions["mec"]), "-m", str(other), "--all").stdout
    rows = [line for line in out.splitlines() if "not reached: the what-if" in line]
    assert len(rows) == 1 and f"2-{total}" in rows[0]  # one summary row, not a row per turn


def test_what_if_with_another_ontology_is_refused(sessions: dict[str, Path]) -> None:
    before = sessions["mec"].read_bytes()
    result = invoke(str(sessions["mec"]), "--methodology", "jobs_to_be_done")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --methodology jobs_to_be_done")
    assert "lacks the node type(s)" in lines[0] and "attribute" in lines[0]
    assert "pass a variant of means_end_chain" in lines[0]
    assert result.stdout == "" and sessions["mec"].read_bytes() == before
    # and the other way round: an MEC methodology over a jobs-to-be-done session
    other = invoke(str(sessions["jtbd"]), "--methodology", "means_end_chain")
    assert other.exit_code == 2 and "lacks the node type(s)" in other.stderr


def test_what_if_with_another_ontology_of_the_same_types_is_refused_by_name(
    sessions: dict[str, Path], tmp_path: Path
) -> None:
    import yaml

    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    data = load_yaml(doc["methodology"]["source"])
    # The same node types with one edge type more: a different ontology under another name.
    data["method"]["name"] = "my_ladders"
    data["ontology"]["edges"].append({"name": "reminds_of", "permitted_connections": []})
    renamed = tmp_path / "my_ladders.yaml"
    renamed.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = invoke(str(sessions["mec"]), "--methodology", str(renamed))
    assert result.exit_code == 2 and "another method with another ontology" in result.stderr
    # the same name, without a relation the session's graph uses: refused as well
    same_name = load_yaml(doc["methodology"]["source"])
    same_name["ontology"]["edges"] = [
        e for e in same_name["ontology"]["edges"] if e["name"] != "leads_to"
    ]
    no_ladders = tmp_path / "no_leads_to.yaml"
    no_ladders.write_text(yaml.safe_dump(same_name), encoding="utf-8")
    result = invoke(str(sessions["mec"]), "--methodology", str(no_ladders))
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "lacks the relation(s) leads_to" in lines[0]
    # a renamed copy with the same ontology is a what-if like any other
    data["ontology"]["edges"].pop()
    renamed.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert invoke(str(sessions["mec"]), "--methodology", str(renamed)).exit_code == 0


def test_what_if_with_a_methodology_that_does_not_load_is_exit_2(
    sessions: dict[str, Path], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("method: [\n", encoding="utf-8")
    result = invoke(str(sessions["mec"]), "--methodology", str(broken))
    assert result.exit_code == 2 and "broken.yaml" in result.stderr


# --------------------------------------------------------------------------------------------
# Bad files: one clear line, exit 2, nothing modified (shared with report and export)
# --------------------------------------------------------------------------------------------


def bad_files(directory: Path, good: Path) -> dict[str, tuple[Path, str]]:
    text = good.read_text(encoding="utf-8")
    newer = json.loads(text)
    newer["schema_version"] = 99
    files = {
        "not json": ("hello, world\n", "not valid JSON"),
        "truncated": (text[: len(text) // 2], "not valid JSON"),
        "newer schema": (json.dumps(newer), "schema_version 99 is newer"),
        "not a session": (json.dumps({"name": "something else"}), "not an interview session"),
        "binary": (None, "not a text file"),
    }
    out: dict[str, tuple[Path, str]] = {}
    for name, (content, message) in files.items():
        path = directory / (name.replace(" ", "_") + ".json")
        if content is None:
            path.write_bytes(b"\xff\xfe\x00\x81" * 10)
        else:
            path.write_text(content, encoding="utf-8")
        out[name] = (path, message)
    return out


@pytest.mark.parametrize(
    "command",
    [["replay"], ["replay", "--verify"], ["replay", "--json"], ["report"], ["export", "-f", "dot"]],
    ids=["replay", "verify", "replay-json", "report", "export"],
)
def test_bad_files_end_with_one_line_and_exit_2(
    sessions: dict[str, Path], tmp_path: Path, command: list[str]
) -> None:
    for name, (path, message) in bad_files(tmp_path, sessions["mec"]).items():
        before = (path.read_bytes(), path.stat().st_mtime_ns)
        result = CliRunner().invoke(app, [command[0], str(path), *command[1:]])
        assert result.exit_code == 2, (name, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, (name, result.stderr)
        assert lines[0].startswith("error:") and message in lines[0], (name, lines[0])
        assert str(path) in lines[0]
        assert "Traceback" not in result.output
        assert (path.read_bytes(), path.stat().st_mtime_ns) == before, name
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            p.name for p in tmp_path.iterdir() if not p.name.startswith(".")
        )


def test_a_directory_is_named_as_one(tmp_path: Path) -> None:
    (tmp_path / "EMPTY").mkdir()
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "EMPTY")])
    assert result.exit_code == 2
    expected = f"error: {tmp_path / 'EMPTY'} is a directory; pass a session file (or a session id)"
    assert result.stderr.strip() == expected


def test_a_relative_directory_name_is_not_taken_for_an_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "EMPTY").mkdir()
    # "EMPTY" has no separator, so it used to be looked up as a session id: "no session 'EMPTY'"
    result = CliRunner().invoke(app, ["replay", "EMPTY"])
    assert result.exit_code == 2
    expected = "error: EMPTY is a directory; pass a session file (or a session id)"
    assert result.stderr.strip() == expected


def test_replay_json_carries_each_turns_slot_discovery(sessions: dict[str, Path]) -> None:
    doc = json.loads(sessions["mec"].read_text(encoding="utf-8"))
    records = json.loads(invoke(str(sessions["mec"]), "--json").stdout)
    complete = [t for t in doc["turns"] if t["status"] == "complete"]
    assert any(t["slot_discovery"] for t in complete)  # the session ran with canonical slots
    for record, turn in zip(records, complete, strict=False):
        assert record["slot_discovery"] == turn["slot_discovery"]
        if turn["slot_discovery"]:
            assert {"mappings_created", "slots_created", "slots"} <= set(record["slot_discovery"])


def test_a_missing_file_is_one_line_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {tmp_path / 'nope.json'}: no such session file"


# --------------------------------------------------------------------------------------------
# A batch's sessions (interview batch: simulated respondents, baseline policies)
# --------------------------------------------------------------------------------------------


def _has_command(name: str) -> bool:
    import typer.main

    return name in typer.main.get_command(app).commands  # type: ignore[attr-defined]


@pytest.mark.skipif(not _has_command("batch"), reason="interview batch is not registered yet")
@pytest.mark.parametrize("policy", ["adaptive", "deepen_recent", "breadth_first"])
def test_every_session_of_a_batch_verifies(tmp_path: Path, policy: str) -> None:
    from interview_cli.analysis.replay.verify import verify_session
    from interview_cli.analysis.sources import collect
    from interview_cli.session.store import SessionStore

    out = tmp_path / "batch"
    run = CliRunner().invoke(
        app,
        [
            "batch",
            "cooperative",
            "fatiguing",
            "-c",
            "headphones_mec",
            "--runs",
            "1",
            "--max-turns",
            "6",
            "--policy",
            policy,
            "--out",
            str(out),
        ],
    )
    assert run.exit_code == 0, run.output
    collected = collect([str(out)], SessionStore(out))
    assert len(collected.sources) == 2
    for source in collected.sources:
        assert source.session.settings.policy == policy
        result = verify_session(source.session)
        assert result.ok, (source.path.name, [m.__dict__ for m in result.mismatches[:3]])
    report = CliRunner().invoke(app, ["report", str(out), "--json"])
    assert report.exit_code == 0
    rows = json.loads(report.stdout)["sessions"]
    assert all(r["recall"] is not None for r in rows)  # ground truth from the batch
