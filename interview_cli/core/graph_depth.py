"""Chain depth on a directed graph that may contain cycles, in linear time.

Serves seed 001 "Graph State Metrics" (DepthMetrics: max_depth, avg_depth, longest_chain_path)
for ``core.graph``. Longest simple paths are NP-hard on cyclic graphs and enumerating them is
exponential, so depth is measured on the condensation (strongly connected groups collapsed):
a cycle - concepts the respondent says lead to each other - counts as one rung. On acyclic
graphs this is the exact longest path in edges. Ties are broken by node creation order, so
the result is deterministic.
"""

from __future__ import annotations

import networkx as nx


def condensation_depths(g: nx.DiGraph) -> tuple[dict[str, int], list[str]]:
    """(node -> rungs on the longest chain ending there, one longest chain as a real path)."""
    if g.number_of_nodes() == 0:
        return {}, []
    order = {n: i for i, n in enumerate(g.nodes)}
    dag = nx.condensation(g)
    members: dict[int, list[str]] = {
        c: sorted(dag.nodes[c]["members"], key=order.__getitem__) for c in dag.nodes
    }
    first = {c: order[m[0]] for c, m in members.items()}
    depth: dict[int, int] = {}
    best_pred: dict[int, int | None] = {}
    for c in nx.lexicographical_topological_sort(dag, key=first.__getitem__):
        preds = sorted(dag.predecessors(c), key=first.__getitem__)
        depth[c], best_pred[c] = 0, None
        for p in preds:
            if depth[p] + 1 > depth[c]:
                depth[c], best_pred[c] = depth[p] + 1, p
    node_depth = {n: depth[c] for c, ms in members.items() for n in ms}
    end = min(depth, key=lambda c: (-depth[c], first[c]))
    sccs = [end]
    while (pred := best_pred[sccs[-1]]) is not None:
        sccs.append(pred)
    sccs.reverse()
    return node_depth, _walk_through(g, sccs, members, order)


def _walk_through(
    g: nx.DiGraph, sccs: list[int], members: dict[int, list[str]], order: dict[str, int]
) -> list[str]:
    """A real path visiting the chain of strongly connected groups ``sccs`` in order."""
    if len(sccs) == 1:
        return [members[sccs[0]][0]]
    path: list[str] = []
    entry = None
    for here, nxt in zip(sccs, sccs[1:], strict=False):
        targets = set(members[nxt])
        # The hop into the next group: the earliest-created edge endpoints, for determinism.
        u, v = min(
            ((a, b) for a in members[here] for b in g.successors(a) if b in targets),
            key=lambda e: (order[e[0]], order[e[1]]),
        )
        start = entry if entry is not None else u
        inside = nx.shortest_path(g.subgraph(members[here]), start, u) if start != u else [u]
        path.extend(inside)
        entry = v
    path.append(entry)  # type: ignore[arg-type]
    return path
