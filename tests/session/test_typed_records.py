"""The typed turn records (``session.schema``) read and write the session file exactly as
the untyped dicts did: every checked-in session, and a fresh one with the moderator's commands,
re-serialises its typed fields to the same JSON text (key order, ``0`` vs ``0.0`` and all)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.session.read import read_session_file
from interview_cli.session.schema import CandidateRecord, CandidateSummary, DeltaRecord, TurnRecord

TESTS = Path(__file__).resolve().parents[1]
TYPED_TURN_FIELDS = ("graph_delta", "signals", "node_signals", "candidates", "candidate_summary")


def checked_in_sessions() -> list[Path]:
    found = []
    for path in sorted(TESTS.rglob("*.json")):
        head = path.read_text(encoding="utf-8")[:200]
        if '"schema_version"' in head and '"turns"' in path.read_text(encoding="utf-8"):
            found.append(path)
    return found


def typed_pairs(raw: dict[str, Any], dumped: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """(where, as in the file, as re-serialised) for every typed field the file holds."""
    pairs = []
    for i, (a, b) in enumerate(zip(raw["turns"], dumped["turns"], strict=True)):
        for name in TYPED_TURN_FIELDS:
            if name in a:
                pairs.append((f"turns[{i}].{name}", a[name], b[name]))
        decision = a.get("decision") or {}
        for name in ("moderator", "tool_choice"):
            if name in decision:
                pairs.append((f"turns[{i}].decision.{name}", decision[name], b["decision"][name]))
    closing = raw.get("closing") or {}
    if "graph_delta" in closing:
        pairs.append(
            ("closing.graph_delta", closing["graph_delta"], dumped["closing"]["graph_delta"])
        )
    return pairs


def assert_round_trip(path: Path) -> list[tuple[str, Any, Any]]:
    seen: dict[str, Any] = {}
    session = read_session_file(path, prune=lambda doc: seen.update(copy.deepcopy(doc)))
    pairs = typed_pairs(seen, session.model_dump(mode="json"))
    for where, recorded, rewritten in pairs:
        assert json.dumps(rewritten) == json.dumps(recorded), f"{path.name}: {where}"
    return pairs


def test_there_are_checked_in_sessions() -> None:
    assert checked_in_sessions(), "no checked-in session file found under tests/"


@pytest.mark.parametrize("path", checked_in_sessions(), ids=lambda p: p.name)
def test_a_checked_in_session_rewrites_its_typed_fields_unchanged(path: Path) -> None:
    pairs = assert_round_trip(path)
    assert any(where.endswith(".candidates") and value for where, value, _ in pairs)


def test_a_fresh_session_with_the_moderators_commands_round_trips(tmp_path: Path) -> None:
    lines = [
        "I like the sound quality because it helps me focus",
        "/alt",
        "It lets me concentrate at work and feel calm",
        "/ask Why does calm matter to you?",
        "Because then I can think",
        "/quit",
    ]
    result = CliRunner().invoke(
        app,
        ["run", "--sessions-dir", str(tmp_path), "-c", "headphones_mec", "-p", "offline"],
        input="".join(line + "\n" for line in lines),
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.glob("*.json")
    pairs = assert_round_trip(path)
    moderators = [value for where, value, _ in pairs if where.endswith(".moderator") and value]
    assert {m["action"] for m in moderators} == {"alt", "ask"}
    session = read_session_file(path)
    alt = session.turns[0].decision
    assert alt is not None and alt.moderator is not None and alt.tool_choice is not None
    assert alt.moderator.action == "alt" and alt.tool_choice.strategy
    assert session.turns[0].graph_delta.nodes_added  # read by attribute


def test_records_write_back_only_the_keys_they_were_given() -> None:
    old = {"strategy": "deepen", "node_id": "n1", "final_score": 0, "rank": 2, "note": "kept"}
    record = CandidateRecord.model_validate(old)
    assert json.dumps(record.model_dump(mode="json")) == json.dumps(old)  # 0 stays 0, no keys added
    assert record.final_score == 0 and record.vetoed_by is None and record.key == "deepen@n1"
    turn = TurnRecord.model_validate(
        {"turn_number": 1, "question": {"text": "q"}, "answer": {"utterance_id": "u1", "text": "a"}}
    )
    assert turn.graph_delta == DeltaRecord() and not turn.graph_delta
    assert not turn.candidate_summary and CandidateSummary(scored=0)
    dumped = turn.model_dump(mode="json")
    assert dumped["graph_delta"] == {} and dumped["candidate_summary"] == {}
