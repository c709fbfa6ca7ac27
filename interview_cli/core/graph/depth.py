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
from typing import TYPE_CHECKING, TypeAlias

import networkx as nx

if TYPE_CHECKING:
    # The graphs of this package: nodes are ids, attributes are dicts (typing only: networkx's
    # classes take no type arguments at run time).
    Digraph: TypeAlias = nx.DiGraph[str]

# Largest strongly connected group searched exhaustively for its longest inner path.
EXACT_GROUP = 7


def chain_view(g: Digraph, relations: Collection[str] | None) -> Digraph:
    """``g`` restricted to edges carrying at least one of ``relations`` (None: every edge)."""
    if relations is None:
        return g
    wanted = set(relations)
    view: Digraph = nx.subgraph_view(
        g, filter_edge=lambda u, v: not wanted.isdisjoint(g.edges[u, v].get("relations", ()))
    )
    return view


def condensation_depths(
    g: Digraph, *, with_path: bool = True, relations: Collection[str] | None = None
) -> tuple[dict[str, int], list[str]]:
    """(node -> rungs on the longest chain ending at its group, one longest chain as a path).

    ``relations``: follow only edges carrying one of them (None: every edge), as
    ``chain_view`` does. ``with_path=False`` skips finding the path (returned empty) for
    callers that need depths.

    Groups are found by Tarjan's algorithm on plain successor lists, which also yields them
    in reverse topological order; a group is numbered by its first-created member, which is
    also the tie-break, so the result does not depend on adjacency order.
    """
    if g.number_of_nodes() == 0:
        return {}, []
    order = {n: i for i, n in enumerate(g.nodes)}
    succ = _successors(g, relations)
    group_of, emitted = _strong_components(succ, order)
    members: dict[int, list[str]] = {c: [] for c in emitted}
    for n in g.nodes:  # creation order
        members[group_of[n]].append(n)
    preds: dict[int, set[int]] = {c: set() for c in emitted}
    for u, targets in succ.items():
        cu = group_of[u]
        for v in targets:
            if (cv := group_of[v]) != cu:
                preds[cv].add(cu)
    depth: dict[int, int] = {}
    best_pred: dict[int, int | None] = {}
    for c in reversed(emitted):  # every group after all groups that lead into it
        depth[c], best_pred[c] = 0, None
        for p in sorted(preds[c]):  # group numbers are creation order: earliest first
            if depth[p] + 1 > depth[c]:
                depth[c], best_pred[c] = depth[p] + 1, p
        depth[c] += len(members[c]) - 1
    node_depth = {n: depth[group_of[n]] for n in g.nodes}
    if not with_path:
        return node_depth, []
    end = min(depth, key=lambda c: (-depth[c], c))
    sccs = [end]
    while (pred := best_pred[sccs[-1]]) is not None:
        sccs.append(pred)
    sccs.reverse()
    view = chain_view(g, None if relations is None else frozenset(relations))
    return node_depth, _walk_through(view, sccs, members, order)


def _successors(g: Digraph, relations: Collection[str] | None) -> dict[str, list[str]]:
    if relations is None:
        return {n: list(targets) for n, targets in g.adjacency()}
    wanted = set(relations)
    return {
        n: [v for v, d in targets.items() if not wanted.isdisjoint(d.get("relations", ()))]
        for n, targets in g.adjacency()
    }


def _strong_components(
    succ: dict[str, list[str]], order: dict[str, int]
) -> tuple[dict[str, int], list[int]]:
    """(node -> its group's number, group numbers in reverse topological order).

    Iterative Tarjan: linear, and no recursion limit on long chains. A group's number is the
    creation index of its first member.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    group_of: dict[str, int] = {}
    emitted: list[int] = []
    for root in succ:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(succ[root]))]
        while work:
            v, targets = work[-1]
            for w in targets:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ[w])))
                    break
                if w in on_stack and index[w] < low[v]:
                    low[v] = index[w]
            else:
                work.pop()
                if work and low[v] < low[work[-1][0]]:
                    low[work[-1][0]] = low[v]
                if low[v] == index[v]:
                    group = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        group.append(w)
                        if w == v:
                            break
                    number = min(order[x] for x in group)
                    for x in group:
                        group_of[x] = number
                    emitted.append(number)
    return group_of, emitted


def _walk_through(
    g: Digraph, sccs: list[int], members: dict[int, list[str]], order: dict[str, int]
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
    g: Digraph,
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
