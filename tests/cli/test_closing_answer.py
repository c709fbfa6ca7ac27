"""The closing answer reaches the graph (issue 21 item 2): a correction or an addition given to
"did I get that right, is anything missing?" is extracted like any answer, counted, shown in
the transcript, and reproduced by `replay --verify`; a plain "that covers it" adds nothing."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.analysis.replay.verify import verify_session
from interview_cli.cli.app import app
from interview_cli.config.library import Library
from interview_cli.config.schemas import Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction
from interview_cli.core.turn import CoreState, TurnInput, advance, take_closing_answer
from interview_cli.session.store import SessionStore

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = ["The noise cancelling.", "Because I can focus at work."]  # then the turn limit closes


def run(closing: str, sessions: Path) -> tuple[Any, dict[str, Any], Path]:
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--sessions-dir",
            str(sessions),
            "-c",
            "headphones_mec",
            "-p",
            "offline",
            "--max-turns",
            "2",
            "--no-rating",
        ],
        input="".join(line + "\n" for line in [*ANSWERS, closing]),
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    return result, json.loads(path.read_text(encoding="utf-8")), path


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


def test_an_addition_at_the_close_reaches_the_graph_and_verifies(sessions: Path) -> None:
    result, doc, path = run(
        "No, also the long battery life matters, because I never have to charge them.", sessions
    )
    closing = doc["closing"]
    added = [n["label"] for n in closing["graph_delta"]["nodes_added"]]
    assert added == ["long battery life", "never have to charge them"]
    labels = {n["label"] for n in doc["graph"]["nodes"]}
    assert {"long battery life", "never have to charge them"} <= labels
    assert closing["utterance_id"] == f"u{len(doc['turns']) + 1:03d}"
    assert "2 + the closing answer (3 answers)" in result.output
    outcome = verify_session(SessionStore(sessions).load(str(path)))
    assert outcome.ok, outcome.to_dict()["mismatches"]
    shown = CliRunner().invoke(
        app, ["sessions", "show", doc["id"], "--sessions-dir", str(sessions)]
    )
    assert "extracted: long battery life [attribute]" in shown.output


def test_agreement_at_the_close_adds_nothing(sessions: Path) -> None:
    _, doc, _ = run("No, I think that covers it. Thanks for asking.", sessions)
    assert doc["closing"]["graph_delta"]["nodes_added"] == []
    assert doc["closing"]["extraction"]["nodes"] == []


def test_verify_sees_a_closing_delta_that_was_edited(sessions: Path) -> None:
    _, doc, path = run("Also the long battery life.", sessions)
    doc["closing"]["graph_delta"]["nodes_added"] = []
    path.write_text(json.dumps(doc), encoding="utf-8")
    outcome = verify_session(SessionStore(sessions).load(str(path)))
    assert [m.check for m in outcome.mismatches] == ["closing"]


def test_the_core_step_numbers_the_closing_answer_after_the_last_turn() -> None:
    data = load_yaml((ROOT / "methodologies" / "means_end_chain.yaml").read_text("utf-8"))
    mec = Methodology.model_validate(data)
    state = CoreState(turn_count=4)
    node = ExtractedNode(label="long battery life", node_type="attribute", quote="battery")
    after, delta = take_closing_answer(
        state, Extraction(extractable=True, nodes=[node]), methodology=mec, utterance_id="u005"
    )
    assert [n.label for n in delta.nodes_added] == ["long battery life"]
    assert state.graph.node_count == 0  # the state it was given is untouched
    (added,) = after.tracker.states.values()
    assert added.created_at_turn == 5 and after.turn_count == 4


def test_the_closing_answer_takes_the_ordinary_turns_graph_step() -> None:
    """The same extraction on the same state: the closing answer changes the graph exactly as
    a turn would (the turn's own step, ``core.turn.answer_into_graph``), cross-turn edge and
    all, and registers what it added at the same turn number; only the turn ages the tracker."""
    lib = Library.discover(cwd=ROOT)
    concept = lib.concept("headphones_mec").value
    mec = lib.methodology("means_end_chain").value
    first = Extraction(
        extractable=True,
        nodes=[ExtractedNode(label="noise cancelling", node_type="attribute", quote="noise")],
    )
    inputs = TurnInput(mec, concept, first, None, "u001", max_turns=8)
    state, _ = advance(CoreState.initial(concept), inputs)
    node = ExtractedNode(
        label="can focus at work", node_type="functional_consequence", quote="I can focus"
    )
    edge = ExtractedEdge(source="noise cancelling", target="can focus at work", relation="leads_to")
    second = Extraction(extractable=True, nodes=[node], edges=[edge])

    turned, outcome = advance(state, replace(inputs, extraction=second, utterance_id="u002"))
    closed, delta = take_closing_answer(state, second, methodology=mec, utterance_id="u002")
    assert delta == outcome.delta and len(delta.edges_added) == 1
    assert closed.to_dict()["graph"] == turned.to_dict()["graph"]
    (new_id,) = [n.node_id for n in delta.nodes_added]
    assert closed.tracker.states[new_id].created_at_turn == 2
    assert closed.turn_count == 1 and turned.turn_count == 2


def test_a_closing_answer_interrupted_before_reading_is_read_on_resume(
    sessions: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after the closing answer was saved but before it was read: nothing is lost, the
    resume reads it into the graph, then rates and completes."""
    from interview_cli.pipeline import closing

    real = closing.read_into_graph

    async def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(closing, "read_into_graph", interrupted)
    argv = [
        "run",
        "--sessions-dir",
        str(sessions),
        "-c",
        "headphones_mec",
        "-p",
        "offline",
        "--max-turns",
        "2",
    ]
    answers = [*ANSWERS, "Also the long battery life."]
    first = CliRunner().invoke(app, argv, input="".join(a + "\n" for a in answers))
    assert first.exit_code != 0, first.output
    (path,) = sessions.glob("*.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["status"] == "paused"
    assert doc["closing"]["comment"] == "Also the long battery life."
    assert doc["closing"]["extraction"] is None

    monkeypatch.setattr(closing, "read_into_graph", real)
    second = CliRunner().invoke(
        app, ["run", "--sessions-dir", str(sessions), "--resume", doc["id"]], input="4\n"
    )
    assert second.exit_code == 0, second.output
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["status"] == "completed"
    assert [n["label"] for n in doc["closing"]["graph_delta"]["nodes_added"]] == [
        "long battery life"
    ]
    assert doc["closing"]["rating"] == 4
    assert verify_session(SessionStore(sessions).load(str(path))).ok
