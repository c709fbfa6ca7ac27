"""replay --verify: the pure core reproduces every recorded decision, and edits are caught."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from session_factory import SPECS, run_interview

from interview_cli.analysis.replay.engine import replay
from interview_cli.analysis.replay.verify import first_difference, verify_session
from interview_cli.analysis.sources import read_session, snapshot_methodology
from interview_cli.session.read import parse_session
from interview_cli.session.schema import SessionFile


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def session_of(doc: dict[str, Any]) -> SessionFile:
    return parse_session(json.dumps(doc), source="edited")


def resign(doc: dict[str, Any]) -> None:
    """Re-hash the methodology snapshot, as a deliberate (not accidental) edit would."""
    source = doc["methodology"]["source"]
    doc["methodology"]["sha256"] = hashlib.sha256(source.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_produced_session_verifies(produced: dict[str, Path], name: str) -> None:
    session = read_session(produced[name])
    result = verify_session(session)
    assert result.ok, [m.__dict__ for m in result.mismatches[:5]]
    assert result.turns_checked == session.turn_count > 0


def test_the_produced_sessions_cover_what_verify_must_handle(produced: dict[str, Path]) -> None:
    sessions = {name: read_session(path) for name, path in produced.items()}
    assert {s.methodology.name for s in sessions.values()} == {
        "means_end_chain",
        "jobs_to_be_done",
        "critical_incident",
    }
    assert sessions["yoghurt-elements"].state["coverage"] is not None  # coverage mode
    assert sessions["mec-paused"].status == "paused"
    assert sessions["mec-interrupted"].turns[-1].status == "answered"
    assert any(s.status == "completed" for s in sessions.values())
    vetoed = [c for s in sessions.values() for t in s.turns for c in t.candidates if c.vetoed_by]
    assert vetoed, "no produced session exercises a veto"
    stops = [
        t
        for s in sessions.values()
        for t in s.completed_turns
        if t.continuation and not t.continuation.should_continue
    ]
    assert stops, "no produced session stopped on the core's own decision"


def test_an_interrupted_turn_is_noted_not_verified(produced: dict[str, Path]) -> None:
    result = verify_session(read_session(produced["mec-interrupted"]))
    assert result.ok
    assert result.turns_checked == result.turns_total - 1
    assert "answered but not processed" in result.notes[0]


def test_the_canonical_slots_are_replayed_when_the_session_used_them(
    produced: dict[str, Path],
) -> None:
    session = read_session(produced["mec-cooperative"])
    assert session.settings.enable_canonical_slots  # the default
    steps = list(replay(session))
    assert steps[-1].after.canonical is not None
    assert steps[-1].after.canonical.to_dict()["slots"] == session.canonical["slots"]


# --------------------------------------------------------------------------------------------
# Edits are caught, with a readable diff
# --------------------------------------------------------------------------------------------


def _deepen_weight_line(source: str) -> str:
    """A 'graph.node.has_outgoing.false: <w>' line of the deepen strategy in the snapshot."""
    for line in source.splitlines():
        if "graph.node.has_outgoing.false:" in line:
            return line
    raise AssertionError("the MEC snapshot has no has_outgoing.false weight")


def test_an_edited_weight_fails_with_a_diff_naming_the_weight(produced: dict[str, Path]) -> None:
    doc = load(produced["mec-scripted"])
    line = _deepen_weight_line(doc["methodology"]["source"])
    key, value = line.rsplit(":", 1)
    doc["methodology"]["source"] = doc["methodology"]["source"].replace(
        line, f"{key}: {float(value) - 0.35:.2f}", 1
    )
    resign(doc)
    result = verify_session(session_of(doc))
    assert not result.ok
    assert result.first_turn == 1
    scores = [m for m in result.mismatches if m.check == "scores"]
    assert scores, result.counts()
    detail = scores[0].detail
    assert "graph.node.has_outgoing.false weight" in detail and "→" in detail
    assert "final_score" in detail


def test_an_edited_weight_without_rehashing_is_flagged_as_a_changed_snapshot(
    produced: dict[str, Path],
) -> None:
    doc = load(produced["mec-scripted"])
    doc["methodology"]["source"] += "\n# edited after the interview\n"
    result = verify_session(session_of(doc))
    assert [m.check for m in result.mismatches] == ["snapshot"]
    assert "changed after the interview" in result.mismatches[0].detail


def test_an_edited_recorded_signal_fails(produced: dict[str, Path]) -> None:
    doc = load(produced["mec-scripted"])
    turn = doc["turns"][2]
    turn["signals"]["meta.conversation.saturation"] = 0.99
    result = verify_session(session_of(doc))
    assert not result.ok
    m = result.mismatches[0]
    assert (m.turn, m.check, m.field) == (3, "signals", "signals[meta.conversation.saturation]")
    assert m.recorded == 0.99 and m.replayed != 0.99


def test_a_mismatch_says_whether_the_recording_version_differs(produced: dict[str, Path]) -> None:
    from interview_cli import __version__

    doc = load(produced["mec-scripted"])
    assert doc.get("tool_version") == __version__  # new sessions record it
    doc["turns"][1]["signals"]["llm.response_depth"] = "edited"
    doc.pop("tool_version")  # a file written before the field existed
    unversioned = verify_session(session_of(doc))
    assert not unversioned.ok
    assert any("records no tool version" in n for n in unversioned.notes)
    doc["tool_version"] = "0.0.1-old"
    older = verify_session(session_of(doc))
    assert any(
        f"recorded with interview-cli 0.0.1-old, replayed with {__version__}" in n
        for n in older.notes
    )
    doc["tool_version"] = __version__
    same = verify_session(session_of(doc))
    assert not any("interview-cli" in n or "tool version" in n for n in same.notes)
    # no mismatch, no version note: a clean verify stays quiet about it
    assert verify_session(read_session(produced["mec-scripted"])).notes == []


def test_an_edited_model_output_changes_what_the_core_decides(produced: dict[str, Path]) -> None:
    # The assessment is what the LLM said about the answer: changing it is replaying a different
    # interview, and verify must notice in the signals it feeds.
    doc = load(produced["mec-scripted"])
    doc["turns"][1]["assessment"]["knowledge_ceiling"] = "terminal"
    result = verify_session(session_of(doc))
    assert not result.ok
    assert result.first_turn == 2
    assert any(m.field == "signals[llm.knowledge_ceiling]" for m in result.mismatches)


def test_an_edited_decision_veto_and_continuation_are_each_reported(
    produced: dict[str, Path],
) -> None:
    doc = load(produced["mec-scripted"])
    turn = doc["turns"][0]
    other = "explore" if turn["decision"]["strategy"] != "explore" else "clarify"
    turn["decision"]["strategy"] = other
    turn["continuation"]["turns_remaining"] = 99
    unvetoed = next(c for c in turn["candidates"] if not c["vetoed_by"])
    unvetoed["vetoed_by"] = "recent_redundancy"
    result = verify_session(session_of(doc))
    fields = {(m.check, m.field) for m in result.mismatches if m.turn == 1}
    assert ("decision", "decision.strategy") in fields
    assert ("continuation", "continuation.turns_remaining") in fields
    assert any(check == "vetoes" for check, _ in fields)
    decision = next(m for m in result.mismatches if m.field == "decision.strategy")
    assert decision.recorded == other and decision.replayed != other


def test_an_edited_veto_reason_fails_with_a_readable_diff(produced: dict[str, Path]) -> None:
    from rich.console import Console

    from interview_cli.ui.replay import verify_view

    # a slim record keeps the vetoes that would have won: the first session holding one
    doc, turn = next(
        (d, t)
        for d in (load(p) for p in produced.values())
        for t in d["turns"]
        if t.get("decision", {}).get("veto_reasons")
    )
    recorded = dict(turn["decision"]["veto_reasons"])
    key, original = next(iter(recorded.items()))
    turn["decision"]["veto_reasons"][key] = "the moderator said so"
    result = verify_session(session_of(doc))
    assert [(m.turn, m.check, m.field) for m in result.mismatches] == [
        (turn["turn_number"], "vetoes", f"veto_reasons[{key}]")
    ]
    assert result.mismatches[0].recorded == "the moderator said so"
    assert result.mismatches[0].replayed == original
    console = Console(width=200, record=True)
    console.print(verify_view(result))
    shown = console.export_text()
    assert f"vetoes · veto_reasons[{key}]" in shown
    assert "- recorded: the moderator said so" in shown and f"+ replayed: {original}" in shown
    # a reason recorded for a veto the core does not make is a difference too
    turn["decision"]["veto_reasons"] = {**recorded, "explore@n1": "invented"}
    (m,) = verify_session(session_of(doc)).mismatches
    assert (m.field, m.recorded, m.replayed) == (
        "veto_reasons[explore@n1]",
        "invented",
        "(missing)",
    )
    # files written before the field existed record no reasons: nothing to compare
    for t in doc["turns"]:
        if t.get("decision"):
            t["decision"]["veto_reasons"] = {}
    assert verify_session(session_of(doc)).ok


def test_an_edited_final_graph_is_reported(produced: dict[str, Path]) -> None:
    doc = load(produced["mec-cooperative"])
    doc["graph"]["nodes"][0]["label"] = "something nobody said"
    result = verify_session(session_of(doc))
    assert [(m.check, m.turn) for m in result.mismatches] == [("final_state", 0)]
    assert result.mismatches[0].field.startswith("graph.nodes[0].label")


def test_verify_is_deterministic(produced: dict[str, Path]) -> None:
    session = read_session(produced["jtbd-cooperative"])
    assert verify_session(session).to_dict() == verify_session(session).to_dict()


@pytest.mark.parametrize(
    ("a", "b", "found"),
    [
        ({"x": [1, 2]}, {"x": [1, 2]}, None),
        ({"x": [1, 2]}, {"x": [1, 3]}, ("x[1]", 2, 3)),
        ({"x": 1}, {"x": 1.0}, None),
        ({"x": True}, {"x": 1}, ("x", True, 1)),
        ({"x": 1}, {}, ("x", 1, "(missing)")),
        ([1], [1, 2], (" (length)", 1, 2)),
    ],
)
def test_first_difference(a: Any, b: Any, found: Any) -> None:
    assert first_difference(a, b) == found


# A correction of an earlier answer and a request to go back to something said before.
CORRECTED = (
    "The battery lasts about four days, so I never have to think about charging.",
    "Sorry, I said four days, it's two. Two days on a charge is still plenty for me.",
    "The noise cancelling lets me switch off on the bus.",
    "Can we go back to the charging?",
    "It charges in ten minutes before I leave, so I never plan around it.",
    "I don't know, that's about it.",
)


def test_a_correction_and_a_request_to_go_back_replay_from_the_recorded_extractions(
    tmp_path: Path,
) -> None:
    path = run_interview(
        tmp_path, concept="headphones_mec", session_id="corrected", answers=CORRECTED, max_turns=8
    )
    session = read_session(path)
    (superseded,) = [s for t in session.turns for s in t.graph_delta.superseded]
    assert superseded.label == "battery lasts about four days"
    assert all(t.question.focus_node_id != superseded.node_id for t in session.turns[2:])
    (asked,) = [t for t in session.turns if t.extraction and t.extraction.steer]
    after = session.turns[asked.turn_number]  # the question asked after the request
    assert after.question.focus_label == asked.extraction.steer
    assert asked.decision is not None
    assert any("the respondent asked to go back to" in r for r in asked.decision.rationale)
    assert verify_session(session).ok


DOUBTFUL = (
    "The noise cancelling, so I can focus on the train.",
    "I get my reports read before work. Arthritis, mind.",
    "Dunno really.",
    "No idea.",
    "Not sure.",
)


def test_a_word_said_in_passing_is_not_asked_about_and_replays_so(tmp_path: Path) -> None:
    path = run_interview(
        tmp_path, concept="headphones_mec", session_id="doubtful", answers=DOUBTFUL, max_turns=7
    )
    session = read_session(path)
    nodes = [n for t in session.turns if t.extraction for n in t.extraction.nodes]
    (said,) = [n for n in nodes if n.label == "arthritis"]
    assert said.confidence < snapshot_methodology(session).tuning.vetoes.min_focus_confidence
    # "What does 'arthritis' lead to, for you?" was never asked
    assert all(t.question.focus_label != "arthritis" for t in session.turns)
    reasons = [r for t in session.turns if t.decision for r in t.decision.veto_reasons.values()]
    assert any("the reading of this node is doubtful" in r for r in reasons)
    assert verify_session(session).ok
