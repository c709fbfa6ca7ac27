"""What an extraction is shown as earlier concepts: never one the respondent took back."""

from __future__ import annotations

from pathlib import Path

from interview_cli.config.library import Library
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.pipeline.prompt_context import extraction_nodes

ROOT = Path(__file__).resolve().parents[2]


def test_a_concept_taken_back_is_no_earlier_concept_to_steer_to() -> None:
    # Round 16: "can we go back to the calls thing i never said about Carol" steered to "can
    # pull into a layby" ("make a call" in its quote), which Gary had disowned twice
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = KnowledgeGraph()
    layby = graph.add_node("can pull into a layby", "attribute", methodology=meth, turn=3).id
    depot = graph.add_node("can ring the depot", "attribute", methodology=meth, turn=3).id
    answer = "can we go back to the calls thing about Carol, ringing her from the layby"
    shown = [n.label for n in extraction_nodes(graph, meth, None, answer)]
    assert "can pull into a layby" in shown and depot
    graph.disown(layby)
    shown = [n.label for n in extraction_nodes(graph, meth, None, answer)]
    assert "can pull into a layby" not in shown and "can ring the depot" in shown
