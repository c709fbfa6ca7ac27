"""Matching labels to rungs, and the ground-truth evaluation of a session."""

from __future__ import annotations

from typing import Any

import pytest
from sim_helpers import persona

from interview_cli.config.schemas import Methodology
from interview_cli.llm.offline.matching import MATCH_THRESHOLD, PersonaLadders, label_score
from interview_cli.session import (
    AnswerRecord,
    ClosingRecord,
    ConceptSnapshot,
    DecisionRecord,
    MethodologySnapshot,
    QuestionRecord,
    SessionFile,
    SessionSettings,
    TurnRecord,
)
from interview_cli.simulation.evaluation import evaluate_session, repeated_questions, summarise


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Noise-cancelling", "noise cancelling"),  # case and punctuation
        ("not stressed", "not stressed before trips"),  # the extractor cut a clause break
        ("stay", "stay in while cycling"),  # ... even down to the first word
        ("feel peace of mind", "peace of mind"),  # ... or added a frame word
        ("feel deserve nice things", "feel I deserve nice things"),  # ... or dropped a pronoun
        ("rich life", "a full and rich life"),  # a contiguous part keeping most of it
    ],
)
def test_labels_that_name_the_rung_match(a: str, b: str) -> None:
    assert label_score(a, b) >= MATCH_THRESHOLD


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("stressed before trips", "not stressed before trips"),  # negation must agree
        ("battery", "long battery life works with my phone"),  # too small a part
        ("feel relaxed", "feel in control of my time"),
        ("self-respect", "social recognition"),
    ],
)
def test_other_labels_do_not(a: str, b: str) -> None:
    assert label_score(a, b) < MATCH_THRESHOLD


def test_locate_uses_aliases_and_prefers_the_best_rung(mec: Methodology) -> None:
    ladders = PersonaLadders(persona(), mec)
    found = ladders.locate("getting things done")
    assert found is not None and (found[0].ladder, found[0].index) == (0, 3)
    assert ladders.locate("vinyl collection") is None
    assert ladders.has_full_ladder  # the first ladder ends in a terminal value
    assert not ladders.is_full(ladders.ladders[1])


def _node(
    node_id: str, label: str, node_type: str, aliases: tuple[str, ...] = ()
) -> dict[str, Any]:
    return {"id": node_id, "label": label, "node_type": node_type, "aliases": list(aliases)}


def _session(graph: dict[str, Any], questions: list[tuple[str, str]]) -> SessionFile:
    turns = [
        TurnRecord(
            turn_number=i + 1,
            status="complete",
            question=QuestionRecord(text=text),
            answer=AnswerRecord(utterance_id=f"u{i + 1:03d}", text="..."),
            decision=DecisionRecord(strategy=strategy),
        )
        for i, (text, strategy) in enumerate(questions)
    ]
    return SessionFile(
        id="s",
        status="completed",
        termination_reason="Maximum turns reached",
        concept=ConceptSnapshot(id="c", name="C", objective="o", methodology="means_end_chain"),
        methodology=MethodologySnapshot(name="means_end_chain", version="1", sha256=""),
        settings=SessionSettings(max_turns=5),
        turns=turns,
        graph=graph,
        closing=ClosingRecord(question="Anything else?"),
    )


def test_evaluation_against_the_hidden_ladders(mec: Methodology) -> None:
    graph = {
        "nodes": [
            _node("n1", "ANC", "attribute", ("noise cancelling",)),
            _node("n2", "can focus on the train", "functional_consequence"),
            _node("n3", "feel in control", "psychosocial_consequence"),  # cut short: still it
            _node("n4", "getting things done", "instrumental_value"),  # an alias
            _node("n5", "self-respect", "terminal_value"),
            _node("n6", "long battery", "attribute"),
            _node("n7", "vinyl records", "attribute"),  # a tangent
        ],
        "links": [
            {"source": "n1", "target": "n2", "relations": {}},
            {"source": "n4", "target": "n5", "relations": {}},
            {"source": "n2", "target": "n3", "relations": {}},
        ],
    }
    questions = [
        ("What matters to you about headphones?", "deepen"),
        ('Why does "noise cancelling" matter to you?', "deepen"),
        ('Why does "noise cancelling" matter to you?', "clarify"),  # asked twice
        ("Is there anything else that is important to you?", "explore"),
    ]
    e = evaluate_session(_session(graph, questions), persona(), mec)
    assert e["rungs_total"] == 8
    assert e["rungs_elicited"] == 6  # the whole first ladder and the battery
    assert e["rung_recall"] == pytest.approx(6 / 8, abs=1e-4)
    assert e["ladder_recall"] == pytest.approx((5 / 5 + 1 / 3) / 2, abs=1e-4)
    assert e["ladders_opened"] == 2
    assert e["ladders_completed"] == 1
    assert e["terminal_reached"] is True and e["terminal_reachable"] is True
    assert e["graph_terminal_nodes"] == 1
    assert (e["linked_pairs"], e["pairs_total"]) == (3, 6)  # not productive <- in control
    assert e["unmatched_nodes"] == ["vinyl records"]
    assert e["strategy_mix"] == {"clarify": 1, "deepen": 2, "explore": 1}
    assert [r["turn"] for r in e["repeated_questions"]] == [3]
    assert e["turns"] == 4 and e["termination_reason"] == "Maximum turns reached"


def test_no_terminal_without_a_full_ladder(mec: Methodology) -> None:
    short = persona(ladders={"means_end_chain": [["cheap", "save money"]]})
    e = evaluate_session(_session({"nodes": [], "links": []}, []), short, mec)
    assert e["terminal_reached"] is None and e["terminal_reachable"] is False
    assert e["rung_recall"] == 0.0


def test_repeated_questions_use_the_similarity_threshold() -> None:
    qs = [
        "Why does the battery matter to you?",
        "What else matters to you?",
        "Why does the battery matter to you?",
        "why does the battery matter to you",
    ]
    assert [r["turn"] for r in repeated_questions(qs, 0.85)] == [3, 4]
    assert repeated_questions(qs[:2], 0.85) == []


def test_summary_rows_average_completed_interviews() -> None:
    def ev(recall: float, terminal: bool | None, reachable: bool) -> dict[str, Any]:
        return {
            "rung_recall": recall,
            "ladder_recall": recall,
            "ladders_completed": 1,
            "terminal_reached": terminal,
            "terminal_reachable": reachable,
            "linked_pairs": 1,
            "pairs_total": 4,
            "turns": 10,
            "repeated_questions": [],
            "cost_usd": 0.5,
            "termination_reason": "saturated",
            "strategy_mix": {"deepen": 3},
        }

    row = summarise(
        "p", [ev(0.5, True, True), ev(1.0, False, True), ev(0.2, None, False)], failed=1
    )
    assert row.interviews == 3 and row.failed == 1
    assert row.rung_recall == pytest.approx(0.5667, abs=1e-4)
    assert row.terminal_rate == 0.5 and row.terminal_eligible == 2
    assert row.link_rate == 0.25 and row.cost_usd == 1.5
    assert row.strategy_mix == {"deepen": 9} and row.termination == {"saturated": 3}
    empty = summarise("none", [])
    assert empty.rung_recall is None and empty.interviews == 0
