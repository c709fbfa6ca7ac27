"""``analysis.sources``: collecting sessions, and which files ``--out`` must never replace."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interview_cli.analysis import sources
from interview_cli.analysis.export.formats import export
from interview_cli.analysis.report.build import build_report
from interview_cli.analysis.report.to_json import report_to_dict
from interview_cli.analysis.sources import (
    SessionSource,
    collect,
    looks_like_session_file,
    read_session,
)
from interview_cli.errors import UsageError
from interview_cli.session.store import SessionStore


def test_a_skipped_file_is_read_once_and_a_truncated_session_is_protected(
    produced: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(produced["mec-scripted"], tmp_path / "whole.json")
    text = produced["mec-cooperative"].read_text(encoding="utf-8")
    (tmp_path / "truncated.json").write_text(text[: len(text) // 3], encoding="utf-8")
    (tmp_path / "summary.json").write_text('{"runs": 2}', encoding="utf-8")
    reads: list[str] = []
    real = sources.read_user_text

    def counting(path: Path, **kwargs: object) -> str:
        reads.append(path.name)
        return real(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sources, "read_user_text", counting)
    collected = collect([str(tmp_path)], SessionStore(tmp_path))
    assert sorted(reads) == ["summary.json", "truncated.json", "whole.json"]
    assert [s.path.name for s in collected.sources] == ["whole.json"]
    assert len(collected.skipped) == 2 and "looks truncated" in " ".join(collected.skipped)
    # the truncated session may not be overwritten; the summary (no session) may
    assert sorted(p.name for p in collected.files) == ["truncated.json", "whole.json"]


def test_what_counts_as_a_session_file_for_out(produced: dict[str, Path], tmp_path: Path) -> None:
    text = produced["mec-scripted"].read_text(encoding="utf-8")
    doc = json.loads(text)
    files = {
        "as written": text,
        "truncated": text[:200],
        "keys reordered by another tool": json.dumps(doc, sort_keys=True),
        "newer schema": json.dumps({**doc, "schema_version": 99}),
    }
    for name, content in files.items():
        path = tmp_path / "session.json"
        path.write_text(content, encoding="utf-8")
        assert looks_like_session_file(path), name
    report = build_report([SessionSource(read_session(produced["mec-scripted"]), Path("x"))])
    others = {
        "report.json": json.dumps(report_to_dict(report)),
        "turns.jsonl": export(read_session(produced["mec-scripted"]), "jsonl"),
        "report.md": "# Interview report\n",
        "empty.json": "",
    }
    for name, content in others.items():
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        assert not looks_like_session_file(path), name
    (tmp_path / "bytes.bin").write_bytes(bytes(range(256)))
    assert not looks_like_session_file(tmp_path / "bytes.bin")


def test_an_out_file_that_cannot_be_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import interview_cli.analysis.sources as sources

    target = tmp_path / "locked.json"
    target.write_text("{}", encoding="utf-8")

    def unreadable(path: Path) -> bool:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(sources, "looks_like_session_file", unreadable)
    with pytest.raises(UsageError, match=r"cannot be read to check it is not a session file"):
        sources.refuse_overwriting_sessions([target], [])
    assert target.read_text(encoding="utf-8") == "{}"


def test_a_report_over_collected_sessions_is_the_report_over_whole_ones(
    produced_dir: Path,
) -> None:
    # ``collect(for_report=True)`` keeps each session as ``ReportPruner`` leaves it; every
    # format renders from this one value, so equal values mean equal reports.
    collected = collect([str(produced_dir)], SessionStore(produced_dir), for_report=True)
    whole = collect([str(produced_dir)], SessionStore(produced_dir)).sources
    assert len(whole) >= 5
    slim = report_to_dict(build_report(collected.sources))
    assert slim == report_to_dict(build_report(whole))
    # And what it leaves out is the bulk: the core's per-turn records and the resume state.
    for kept, full in zip(collected.sources, whole, strict=True):
        assert kept.session.turn_count == full.session.turn_count
        assert all(t.signals == {} and t.candidates == [] for t in kept.session.turns)
        assert not kept.session.tracker and any(t.candidates for t in full.session.turns)
        snapshots = {"methodology", "concept"}  # shared between sessions, counted below
        size = len(kept.session.model_dump_json(exclude=snapshots))
        assert size < len(full.session.model_dump_json(exclude=snapshots)) / 2
    # Identical snapshot texts are kept once.
    texts = {id(s.session.methodology.source) for s in collected.sources}
    assert len(texts) == len({s.session.methodology.source for s in collected.sources})


def test_what_a_report_reads_is_still_validated(produced: dict[str, Path], tmp_path: Path) -> None:
    doc = json.loads(produced["mec-scripted"].read_text(encoding="utf-8"))
    doc["turns"][0]["signals"] = "not a mapping"  # dropped unread: the report still runs
    (tmp_path / "a.json").write_text(json.dumps(doc), encoding="utf-8")
    doc["id"] = "b"
    doc["turns"][0]["decision"] = {"strategy": 5}  # read by the metrics: refused
    (tmp_path / "b.json").write_text(json.dumps(doc), encoding="utf-8")
    collected = collect([str(tmp_path)], SessionStore(tmp_path), for_report=True)
    assert [s.path.name for s in collected.sources] == ["a.json"]
    assert len(collected.skipped) == 1 and "turns.0.decision.strategy" in collected.skipped[0]


def test_a_question_about_a_remark_set_aside_counts_in_a_pruned_report_too(
    produced: dict[str, Path], tmp_path: Path
) -> None:
    # The question card reads how earlier answers were taken (what the reader refused), which
    # the pruning must keep: else `interview report` counts no question as set aside.
    doc = json.loads(produced["mec-scripted"].read_text(encoding="utf-8"))
    asked = next(t for t in doc["turns"][1:] if t["question"].get("focus_label"))
    refused = {"kind": "node", "item": {"label": asked["question"]["focus_label"]}, "reason": "x"}
    doc["turns"][0]["extraction"]["rejected"].append(refused)
    (tmp_path / "a.json").write_text(json.dumps(doc), encoding="utf-8")
    pruned = collect([str(tmp_path)], SessionStore(tmp_path), for_report=True).sources
    whole = collect([str(tmp_path)], SessionStore(tmp_path)).sources
    card = report_to_dict(build_report(whole))["aggregate"]["question_card"]
    assert card["counts"]["set_aside"] >= 1
    assert report_to_dict(build_report(pruned))["aggregate"]["question_card"] == card
    assert pruned[0].session.turns[0].extraction is not None
    assert pruned[0].session.turns[0].extraction.nodes == []  # the graph holds them


def test_a_report_leaves_out_what_the_respondent_took_back(produced: dict[str, Path]) -> None:
    # "the brakes thing was a joke": the node stays in the session (exports keep it), but no
    # code, ladder or value map of the report counts it
    session = read_session(produced["mec-scripted"])
    graph = dict(session.graph)
    nodes = [dict(n) for n in graph["nodes"]]
    taken = nodes[-1]
    taken["confidence"] = 0.0
    edited = session.model_copy(update={"graph": {**graph, "nodes": nodes}})
    assert taken["id"] in sources.session_graph(edited).node_ids()
    said = sources.said_graph(edited)
    assert taken["id"] not in said.node_ids()
    assert all(taken["id"] not in (r.source, r.target) for r in said.edges())
    (section,) = build_report([SessionSource(edited, produced["mec-scripted"])]).sections
    coded = {node for (_, node) in section.codebook.assignment}
    assert taken["id"] not in coded
    before = build_report([SessionSource(session, produced["mec-scripted"])]).sections[0]
    assert taken["id"] in {node for (_, node) in before.codebook.assignment}
