"""Coverage of a concept test's stimulus elements, from session files: per session (where each
element came up, who raised it, the reactions, the ladders from it) and across sessions in
every report format, the Markdown export, the REFI-QDA export and the question card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from qdpx_check import NS, check_project, read_qdpx

from interview_cli.analysis.export.formats import export_markdown
from interview_cli.analysis.export.qdpx import export_qdpx
from interview_cli.analysis.report.build import build_report
from interview_cli.analysis.report.elements import (
    coverage_of,
    element_tables,
    session_coverage,
)
from interview_cli.analysis.report.question_card import question_card
from interview_cli.analysis.report.to_html import report_html
from interview_cli.analysis.report.to_json import report_to_dict
from interview_cli.analysis.report.to_markdown import report_markdown
from interview_cli.analysis.sources import ReportPruner, SessionSource, read_session
from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.coverage import initial_coverage, record_raise, update_coverage
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.update import apply_extraction
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction
from interview_cli.session.read import read_session_file

ROOT = Path(__file__).resolve().parents[2]
Q = f"{{{NS}}}"


def _load(kind: str, name: str) -> Any:
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text(encoding="utf-8"))


MEC = Methodology.model_validate(_load("methodologies", "means_end_chain"))
LOCK = Concept.model_validate(_load("concepts", "smart_lock_concept_mec"))


def _turn(graph: KnowledgeGraph, turn: int, nodes: list[ExtractedNode], edges=()) -> Extraction:
    extraction = Extraction(nodes=nodes, edges=list(edges))
    apply_extraction(graph, extraction, methodology=MEC, utterance_id=f"u{turn}", turn=turn)
    return extraction


def test_an_element_came_up_where_its_nodes_were_said_and_was_raised_where_asked() -> None:
    graph = KnowledgeGraph()
    state = initial_coverage(LOCK)
    first = _turn(
        graph,
        1,
        [
            ExtractedNode(
                label="fingerprint", node_type="attribute", quote="fingerprint", reaction="positive"
            )
        ],
    )
    state = update_coverage(state, graph=graph, concept=LOCK, extraction=first)
    state = record_raise(state, "auto_lock", turn=2, max_focus=3)
    said = ExtractedNode(
        label="the door locks itself when you leave",
        node_type="attribute",
        quote="love that",
        element_id="auto_lock",
        reaction="positive",
    )
    calm = ExtractedNode(
        label="sleep easy", node_type="psychosocial_consequence", quote="sleep easy"
    )
    link = ExtractedEdge(source=said.label, target=calm.label, relation="leads_to")
    second = _turn(graph, 2, [said, calm], [link])
    state = update_coverage(state, graph=graph, concept=LOCK, extraction=second)
    coverage = coverage_of(LOCK, MEC, graph, state)
    finger, auto = coverage.of("phone_fingerprint"), coverage.of("auto_lock")
    assert finger is not None and auto is not None
    assert (finger.turns, finger.raised, finger.reactions, finger.ladders) == (
        (1,),
        (),
        ("positive",),
        0,
    )
    assert finger.volunteered and not auto.volunteered
    assert (auto.turns, auto.raised, auto.reactions, auto.ladders) == ((2,), (2,), ("positive",), 1)
    assert [e.id for e in coverage.missing][:2] == ["guest_codes", "activity_log"]
    assert coverage.ratio == pytest.approx(2 / 7) and coverage.threshold == 0.6


@pytest.fixture
def yoghurt(produced: dict[str, Path]) -> Any:
    return read_session(produced["yoghurt-elements"])


def test_a_concept_tests_session_has_its_stimulus_and_element_table(yoghurt: Any) -> None:
    assert yoghurt.stimulus is not None and "Brightfield" in yoghurt.stimulus.text
    coverage = session_coverage(yoghurt)
    assert coverage is not None and len(coverage.elements) == 7
    assert coverage.covered and all(e.turns for e in coverage.covered)
    record = coverage.to_dict()
    assert set(record) == {"ratio", "threshold", "covered", "missing", "elements"}


def test_sessions_without_stimulus_elements_have_no_element_table(
    produced: dict[str, Path],
) -> None:
    headphones = read_session(produced["mec-scripted"])
    assert headphones.stimulus is None and session_coverage(headphones) is None
    assert element_tables([headphones]) == []


def test_every_report_format_lists_every_element_with_its_coverage(
    produced: dict[str, Path],
) -> None:
    pruner = ReportPruner()
    found = [
        SessionSource(read_session_file(p, prune=pruner), p)
        for p in (produced["yoghurt-elements"], produced["mec-scripted"])
    ]
    report = build_report(found)
    data = json.loads(json.dumps(report_to_dict(report)))
    [table] = data["elements"]
    assert table["concept"] == "plant_yoghurt_concept_mec" and table["sessions"] == 1
    ids = [e["id"] for e in table["elements"]]
    concept = Concept.model_validate(_load("concepts", "plant_yoghurt_concept_mec"))
    assert ids == [e.id for e in concept.elements]
    for element in table["elements"]:
        assert element["coverage"] in (0.0, 1.0)
        assert element["mentioned"] == (element["coverage"] == 1.0)
    # the pruned sessions kept what the table reads: the reactions recorded in the state
    assert any(e["reactions"] for e in table["elements"])
    markdown, html = report_markdown(report), report_html(report)
    for text in (markdown, html):
        assert "Stimulus elements: Oat &" in text and "unprompted" in text
        assert "12 g plant protein per pot" in text


def test_the_markdown_export_shows_the_stimulus_and_where_elements_came_up(yoghurt: Any) -> None:
    text = export_markdown(yoghurt)
    assert "Shown before the first question:" in text
    assert "## Stimulus elements:" in text and "element mentioned:" in text


def test_the_qdpx_export_codes_the_elements(yoghurt: Any) -> None:
    data = export_qdpx([yoghurt])
    assert check_project(data) == []
    project = read_qdpx(data)
    parents = project.root.findall(f"{Q}CodeBook/{Q}Codes/{Q}Code")
    elements = [p for p in parents if (p.get("name") or "").startswith("Stimulus elements")]
    assert len(elements) == 1 and len(elements[0].findall(f"{Q}Code")) == 7
    guids = {c.get("guid") for c in elements[0].findall(f"{Q}Code")}
    coded = {
        ref.get("targetGUID")
        for ref in project.root.iter(f"{Q}CodeRef")
        if ref.get("targetGUID") in guids
    }
    coverage = session_coverage(yoghurt)
    assert coverage is not None and len(coded) == len(coverage.covered) > 0


def test_the_stimulus_shown_counts_as_the_respondents_words(yoghurt: Any) -> None:
    card = question_card(yoghurt)
    assert card.counts["not_their_words"] == 0, card.flagged
    unshown = yoghurt.model_copy(update={"stimulus": None})
    raised = [t for t in yoghurt.turns if t.question.focus_element_id]
    if raised:  # quoting the concept's claims is fine only because it was shown
        assert question_card(unshown).counts["not_their_words"] > 0
