"""The closing summary and the end screen's completed chains follow chain relations only."""

from __future__ import annotations

from pathlib import Path

from interview_cli.config.library import Library
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.state import compute_graph_state
from interview_cli.pipeline.summary import learned_summary, summary_chains

ROOT = Path(__file__).resolve().parents[2]


def test_a_contrast_is_no_step_of_a_ladder() -> None:
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = KnowledgeGraph()
    add = lambda label, kind: graph.add_node(label, kind, methodology=meth, turn=1).id  # noqa: E731
    wired = add("wired", "attribute")
    wireless = add("wireless", "attribute")
    free = add("move freely", "functional_consequence")
    calm = add("peace of mind", "terminal_value")
    for source, target, relation in (
        (wireless, free, "leads_to"),
        (free, calm, "leads_to"),
        (wired, wireless, "contrasts_with"),
    ):
        graph.add_relation(source, target, relation, methodology=meth, turn=1)

    assert summary_chains(graph, meth, 4) == [["wireless", "move freely", "peace of mind"]]
    assert learned_summary(graph, meth) == "- wireless → move freely → peace of mind"
    # "wired" reaches the value only through the contrast: one complete chain of two attributes.
    state = compute_graph_state(graph, meth, 1)
    assert state.chain_completion_ratio == 0.5
