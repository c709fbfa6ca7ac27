"""Chain depth on a directed graph that may contain cycles, in linear time.

Serves seed 001 "Graph State Metrics" (DepthMetrics: max_depth, avg_depth, longest_chain_path)
for ``core.graph``. Longest simple paths are NP-hard on cyclic graphs and enumerating them is
exponential, so depth is measured on the condensation (strongly connected groups collapsed),
where a group of ``k`` concepts that lead to each other counts as ``k - 1`` rungs: the most
any simple path can climb inside it. That makes depth an upper bound on the longest simple
path that is exact on acyclic graphs and on small cycles, and - what the saturation counters
need - it never shrinks when an edge is added (an edge that closes a cycle merges groups, whose
sizes add up). Ties are broken by node creation order, so the result is deterministic.

``longest_chain_path`` is a real path through that chain of groups; inside groups of up to
``EXACT_GROUP`` concepts it is the longest one, so its length matches the depth whenever such a
path exists (larger groups, rare in an interview, take a shortest way through).
"""

from __future__ import annotations

from collections.abc import Collection

import networkx as nx

# Largest strongly connected group searched exhaustively for its longest inner path.
EXACT_GROUP = 7


def chain_view(g: nx.DiGraph, relations: Collection[str] | None) -> nx.DiGraph:
    """``g`` restricted to edges carrying at least one of ``relations`` (None: every edge)."""
    if relations is None:
        return g
    wanted = set(relations)
    return nx.subgraph_view(
        g, filter_edge=lambda u, v: not wanted.isdisjoint(g.edges[u, v].get("relations", ()))
    )


def condensation_depths(
    g: nx.DiGraph, *, with_path: bool = True
) -> tuple[dict[str, int], list[str]]:
    """(node -> rungs on the longest chain ending at its group, one longest chain as a path).

    ``with_path=False`` skips finding the path (returned empty) for callers that need depths.
    """
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
        depth[c], best_pred[c] = 0, None
        for p in sorted(dag.predecessors(c), key=first.__getitem__):
            if depth[p] + 1 > depth[c]:
                depth[c], best_pred[c] = depth[p] + 1, p
        depth[c] += len(members[c]) - 1
    node_depth = {n: depth[c] for c, ms in members.items() for n in ms}
    if not with_path:
        return node_depth, []
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
    path: list[str] = []
    entry: str | None = None
    for i, here in enumerate(sccs):
        exit_node: str | None = None
        next_entry: str | None = None
        if i + 1 < len(sccs):
            targets = set(members[sccs[i + 1]])
            # The hop into the next group: the earliest-created edge endpoints, for determinism.
            exit_node, next_entry = min(
                ((a, b) for a in members[here] for b in g.successors(a) if b in targets),
                key=lambda e: (order[e[0]], order[e[1]]),
            )
        path.extend(_inside(g, members[here], entry, exit_node, order))
        entry = next_entry
    return path


def _inside(
    g: nx.DiGraph,
    group: list[str],
    start: str | None,
    end: str | None,
    order: dict[str, int],
) -> list[str]:
    """A simple path inside ``group`` from ``start`` to ``end`` (either may be free).

    Longest (first found in creation order) for small groups; a shortest way for large ones.
    """
    if len(group) == 1:
        return [group[0]]
    sub = g.subgraph(group)
    starts = [start] if start is not None else group
    if len(group) > EXACT_GROUP:
        s = starts[0]
        return nx.shortest_path(sub, s, end) if end is not None else [s]
    best: list[str] = []
    for s in starts:
        stack: list[tuple[str, list[str]]] = [(s, [s])]
        while stack:
            node, walked = stack.pop()
            if (end is None or node == end) and len(walked) > len(best):
                best = walked
            for nxt in sorted(sub.successors(node), key=order.__getitem__, reverse=True):
                if nxt not in walked:
                    stack.append((nxt, [*walked, nxt]))
    return best
