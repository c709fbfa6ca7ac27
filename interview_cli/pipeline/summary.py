"""What the interview learned, for the closing summary: the respondent sees what was
understood and may rate it.

Read straight off the graph, no model call, so it says exactly what was recorded: up to a few
chains in the respondent's own words, from the most concrete concepts to the most abstract one
each reaches along the methodology's chain relations (a contrast is no step of a ladder).
"""

from __future__ import annotations

import networkx as nx

from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.depth import chain_view
from interview_cli.core.graph.knowledge import KnowledgeGraph


def summary_chains(graph: KnowledgeGraph, methodology: Methodology, limit: int) -> list[list[str]]:
    """Up to ``limit`` chains of labels, longest first; single labels when there are none."""
    level = {n.name: n.level for n in methodology.ontology.nodes}
    g = chain_view(graph.as_networkx(), methodology.ontology.chain_relations)
    chains: list[list[str]] = []
    for node in sorted(graph.nodes(), key=lambda n: (level.get(n.node_type, 99), n.id)):
        if g.in_degree(node.id):
            continue
        reach = nx.single_source_shortest_path(g, node.id, cutoff=12)
        best = max(reach, key=lambda t: (level.get(graph.node(t).node_type, 0), len(reach[t]), t))
        if len(reach[best]) >= 2:
            chains.append([graph.node(n).label for n in reach[best]])
    chains.sort(key=lambda c: -len(c))
    if not chains:
        chains = [[n.label] for n in graph.nodes()[:limit]]
    return chains[:limit]


def learned_summary(graph: KnowledgeGraph, methodology: Methodology, limit: int = 4) -> str:
    """The chains as a bulleted list (``- a → b → c``)."""
    lines = [" → ".join(chain) for chain in summary_chains(graph, methodology, limit)]
    return "\n".join(f"- {line}" for line in lines)
