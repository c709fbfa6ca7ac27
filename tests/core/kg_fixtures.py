"""Builders shared by the knowledge-graph tests (graph, dedup, state, tracker, coverage).

A small laddering ontology built in code, so these tests do not move when the shipped
methodology files are tuned: attribute (1) -> consequence (2) -> value (3, terminal).
"""

from __future__ import annotations

from typing import Any

from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.update import GraphDelta, apply_extraction
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction

ONTOLOGY: dict[str, Any] = {
    "nodes": [
        {"name": "attribute", "level": 1},
        {"name": "consequence", "level": 2},
        {"name": "value", "level": 3, "terminal": True},
    ],
    "edges": [
        {
            "name": "leads_to",
            "permitted_connections": [
                ["attribute", "consequence"],
                ["attribute", "value"],
                ["consequence", "consequence"],
                ["consequence", "value"],
            ],
        },
        {
            "name": "contrasts_with",
            "chain": False,
            "permitted_connections": [["attribute", "attribute"]],
        },
        {
            "name": "revises",
            "chain": False,
            "permitted_connections": [["attribute", "attribute"], ["value", "value"]],
        },
    ],
}


def methodology(**tuning: Any) -> Methodology:
    return Methodology.model_validate(
        {
            "method": {"name": "ladder_test", "goal": "test laddering"},
            "ontology": ONTOLOGY,
            "strategies": [
                {"name": "deepen", "family": "deepen"},
                {"name": "explore", "family": "explore", "node_binding": "none"},
            ],
            "tuning": tuning,
        }
    )


def n(label: str, node_type: str = "attribute", **kw: Any) -> ExtractedNode:
    return ExtractedNode(label=label, node_type=node_type, quote=kw.pop("quote", label), **kw)


def e(source: str, target: str, relation: str = "leads_to", **kw: Any) -> ExtractedEdge:
    return ExtractedEdge(source=source, target=target, relation=relation, **kw)


def extract(
    graph: KnowledgeGraph,
    nodes: list[ExtractedNode] = (),  # type: ignore[assignment]
    edges: list[ExtractedEdge] = (),  # type: ignore[assignment]
    *,
    turn: int = 1,
    meth: Methodology | None = None,
) -> GraphDelta:
    """Apply one turn's extraction (utterance id ``u{turn}``) and return the delta."""
    return apply_extraction(
        graph,
        Extraction(nodes=list(nodes), edges=list(edges)),
        methodology=meth or methodology(),
        utterance_id=f"u{turn}",
        turn=turn,
    )


def chain_graph(*links: tuple[str, str, str, str]) -> KnowledgeGraph:
    """A graph from (source label, source type, target label, target type) leads_to links."""
    graph = KnowledgeGraph()
    for turn, (s, st, t, tt) in enumerate(links, start=1):
        delta = extract(graph, [n(s, st), n(t, tt)], [e(s, t)], turn=turn)
        assert not delta.rejected, delta.rejected
    return graph
