"""Property tests: chain depth on the condensation matches networkx's condensation exactly."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from interview_cli.core.graph.depth import _walk_through, chain_view, condensation_depths


def reference_depths(g: nx.DiGraph) -> tuple[dict[str, int], list[str]]:
    """The same measure through ``nx.condensation`` and a lexicographic topological sort."""
    if g.number_of_nodes() == 0:
        return {}, []
    order = {n: i for i, n in enumerate(g.nodes)}
    dag = nx.condensation(g)
    members = {c: sorted(dag.nodes[c]["members"], key=order.__getitem__) for c in dag.nodes}
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
    end = min(depth, key=lambda c: (-depth[c], first[c]))
    sccs = [end]
    while (pred := best_pred[sccs[-1]]) is not None:
        sccs.append(pred)
    sccs.reverse()
    return node_depth, _walk_through(g, sccs, members, order)


@st.composite
def graphs(draw: st.DrawFn) -> nx.DiGraph:
    n = draw(st.integers(0, 14))
    # Node ids out of creation order, so that ties cannot be broken by name by accident.
    ids = [f"n{i}" for i in draw(st.permutations(range(n)))]
    g = nx.DiGraph()
    g.add_nodes_from(ids)
    if n:
        pairs = st.tuples(st.sampled_from(ids), st.sampled_from(ids))
        for a, b in draw(st.lists(pairs, max_size=3 * n)):
            kinds = draw(st.sets(st.sampled_from(["leads_to", "contrasts_with"]), min_size=1))
            g.add_edge(a, b, relations=dict.fromkeys(kinds, {}))
    return g


@settings(max_examples=120, deadline=None)
@given(graphs(), st.sampled_from([None, frozenset({"leads_to"})]))
def test_depths_and_chain_match_the_networkx_condensation(
    g: nx.DiGraph, relations: frozenset[str] | None
) -> None:
    depths, chain = condensation_depths(g, relations=relations)
    expected_depths, expected_chain = reference_depths(chain_view(g, relations))
    assert depths == expected_depths
    assert chain == expected_chain
    assert condensation_depths(g, relations=relations, with_path=False) == (depths, [])


def test_a_long_chain_needs_no_recursion() -> None:
    g = nx.DiGraph()
    nx.add_path(g, [f"n{i}" for i in range(5000)], relations={"leads_to": {}})
    g.add_edge("n4999", "n0", relations={"contrasts_with": {}})
    depths, chain = condensation_depths(g, relations={"leads_to"})
    assert depths["n4999"] == 4999 and len(chain) == 5000
    # Every edge followed: one group of 5000 concepts, 4999 rungs, a real path through it.
    depths, chain = condensation_depths(g)
    assert set(depths.values()) == {4999}
    assert all(g.has_edge(a, b) for a, b in zip(chain, chain[1:], strict=False))
