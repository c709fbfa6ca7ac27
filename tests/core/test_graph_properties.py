"""Property tests: graph invariants after any sequence of extractions; lossless JSON round trip."""

from __future__ import annotations

import gc
import json
import weakref
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kg_fixtures import methodology

from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.node_link import from_json, to_json
from interview_cli.core.graph.update import apply_extraction
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction
from interview_cli.core.state import compute_graph_state
from interview_cli.core.text import normalise

METH = methodology()
TYPES = ["attribute", "consequence", "value", "emotion"]  # "emotion" is not in the ontology
RELATIONS = ["leads_to", "contrasts_with", "revises", "causes"]  # "causes" is not either
# A small vocabulary with near-duplicates, negations and head-word variants, so that exact and
# fuzzy merges, blocks and ambiguous endpoints all happen often.
WORDS = [
    "comfort",
    "Comfort!",
    "comforts",
    "not comfortable",
    "comfortable",
    "noise",
    "noise cancelling",
    "noise cancelation",
    "noise cancellation",
    "saves time",
    "saving time",
    "price",
    "cheap",
    "inexpensive",
    "expensive",
    "feel calm",
    "calm",
    "wellbeing",
    "?!",
]

nodes_st = st.builds(
    lambda label, kind, stance: ExtractedNode(
        label=label, node_type=kind, quote=label, stance=stance
    ),
    st.sampled_from(WORDS),
    st.sampled_from(TYPES),
    st.sampled_from([-1, 0, 1]),
)
edges_st = st.builds(
    lambda s, t, r: ExtractedEdge(source=s, target=t, relation=r, quote=f"{s}->{t}"),
    st.sampled_from(WORDS + ["unknown thing"]),
    st.sampled_from(WORDS + ["unknown thing"]),
    st.sampled_from(RELATIONS),
)
extraction_st = st.builds(
    # Quotes made unique per position, so provenance can be counted mention by mention.
    lambda nodes, edges: Extraction(
        nodes=[
            node.model_copy(update={"quote": f"{node.label} #{i}"}) for i, node in enumerate(nodes)
        ],
        edges=edges,
    ),
    st.lists(nodes_st, max_size=6),
    st.lists(edges_st, max_size=6),
)
turns_st = st.lists(extraction_st, min_size=1, max_size=8)


def check_invariants(graph: KnowledgeGraph) -> None:
    ontology = METH.ontology
    seen: Counter[tuple[str, str]] = Counter()
    for node in graph.nodes():
        assert ontology.node_type(node.node_type) is not None
        for key in {normalise(label) for label in node.labels}:
            seen[(node.node_type, key)] += 1
    assert all(count == 1 for count in seen.values()), seen
    for rel in graph.edges():
        assert graph.has_node(rel.source) and graph.has_node(rel.target)
        s_type, t_type = graph.node(rel.source).node_type, graph.node(rel.target).node_type
        assert ontology.is_edge_permitted(rel.relation, s_type, t_type)
        assert rel.provenance
    assert graph.edge_count == len(graph.edges())
    assert len(set(graph.node_ids())) == graph.node_count


def apply(graph: KnowledgeGraph, extraction: Extraction, turn: int):
    return apply_extraction(graph, extraction, methodology=METH, utterance_id=f"u{turn}", turn=turn)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns_st)
def test_invariants_hold_after_any_sequence_of_extractions(turns: list[Extraction]) -> None:
    graph = KnowledgeGraph()
    accepted = 0
    for turn, extraction in enumerate(turns, start=1):
        delta = apply(graph, extraction, turn)
        rejected_nodes = [r for r in delta.rejected if r.kind == "node"]
        rejected_edges = [r for r in delta.rejected if r.kind == "edge"]
        # every proposed item is accounted for exactly once
        assert len(delta.nodes_added) + len(delta.nodes_merged) + len(rejected_nodes) == len(
            extraction.nodes
        )
        assert len(delta.edges_added) + len(delta.edges_merged) + len(rejected_edges) == len(
            extraction.edges
        )
        accepted += len(extraction.nodes) - len(rejected_nodes)
        check_invariants(graph)
        # merges keep all provenance: one entry per accepted mention (quotes are unique)
        assert sum(len(node.provenance) for node in graph.nodes()) == accepted
        state = compute_graph_state(graph, METH, turn)
        path = state.longest_chain_path
        assert len(path) == len(set(path))
        assert all(graph.relations(a, b) for a, b in zip(path, path[1:], strict=False))
        assert state.max_depth <= max(len(path) - 1, 0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns_st, extraction_st)
def test_json_round_trip_is_lossless(turns: list[Extraction], after: Extraction) -> None:
    graph = KnowledgeGraph()
    for turn, extraction in enumerate(turns, start=1):
        apply(graph, extraction, turn)
    data = to_json(graph)
    restored = from_json(json.loads(json.dumps(data)))
    assert to_json(restored) == data
    # Lossless in behaviour too: the restored graph (indexes, id counter) reacts identically.
    next_turn = len(turns) + 1
    assert apply(restored, after, next_turn) == apply(graph, after, next_turn)
    assert to_json(restored) == to_json(graph)


@settings(max_examples=25, deadline=None)
@given(turns_st)
def test_same_extractions_give_the_same_graph(turns: list[Extraction]) -> None:
    first, second = KnowledgeGraph(), KnowledgeGraph()
    for turn, extraction in enumerate(turns, start=1):
        assert apply(first, extraction, turn) == apply(second, extraction, turn)
    assert to_json(first) == to_json(second)


def _internals(graph: KnowledgeGraph) -> tuple[object, ...]:
    g = graph._g
    return (
        to_json(graph),
        [list(g.predecessors(n)) for n in g.nodes],
        [list(g.successors(n)) for n in g.nodes],
        graph._label_index,
        graph._lemma_index,
        graph._position,
        graph.edge_count,
        graph.next_node_number,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns_st, extraction_st)
def test_copy_is_the_json_round_trip_without_sharing(
    turns: list[Extraction], after: Extraction
) -> None:
    graph = KnowledgeGraph()
    for turn, extraction in enumerate(turns, start=1):
        apply(graph, extraction, turn)
    graph.node_depths()  # a warm depth cache must not leak stale depths into the copy
    copied, restored = graph.copy(), from_json(to_json(graph))
    # The same graph a loaded session has, down to adjacency order and the label indexes.
    assert _internals(copied) == _internals(restored)
    assert copied.node_depths() == restored.node_depths()
    before = to_json(graph)
    next_turn = len(turns) + 1
    # Changing the copy leaves the original alone, and the copy reacts like a loaded graph.
    assert apply(copied, after, next_turn) == apply(restored, after, next_turn)
    assert _internals(copied) == _internals(restored)
    assert copied.node_depths() == restored.node_depths()
    assert copied.longest_chain() == restored.longest_chain()
    assert to_json(graph) == before
    # And the other way round: changing the original leaves the copy alone (they share the
    # lists and relation entries that mutation replaces rather than changes).
    snapshot = to_json(copied)
    again = copied.copy()
    apply(copied, after, next_turn + 1)
    apply(copied, turns[0], next_turn + 2)
    assert to_json(again) == snapshot
    assert _internals(again) == _internals(from_json(snapshot))


def _two_nodes() -> tuple[KnowledgeGraph, str, str]:
    graph = KnowledgeGraph()
    a = graph.add_node("noise", "attribute", methodology=METH, turn=1)
    b = graph.add_node("calm", "consequence", methodology=METH, turn=1)
    seen = {"utterance_id": "u1", "quote": "noise makes me calm", "turn": 1}
    graph.add_relation(a.id, b.id, "leads_to", methodology=METH, turn=1, provenance=seen)
    return graph, a.id, b.id


@pytest.mark.parametrize("change_the_copy", [True, False])
def test_a_copy_and_its_original_change_independently(change_the_copy: bool) -> None:
    original, a, b = _two_nodes()
    duplicate = original.copy()
    changed, kept = (duplicate, original) if change_the_copy else (original, duplicate)
    before = to_json(kept)
    again = {"utterance_id": "u9", "quote": "quiet keeps me calm", "turn": 9}
    changed.add_relation(
        a, b, "leads_to", methodology=METH, turn=9, provenance=again, confidence=0.95
    )
    changed.merge_into(a, label="quietness", provenance=again, stance=1, confidence=0.9)
    changed.supersede(b, a)
    changed.add_node("silence", "attribute", methodology=METH, turn=9)
    assert to_json(kept) == before
    assert kept.find_by_label("quietness") == [] and changed.find_by_label("quietness") == [a]
    assert to_json(changed) != before


def test_a_dropped_graph_is_freed_without_the_cycle_collector() -> None:
    # networkx caches views on a DiGraph that point back at it; a graph read through them and
    # dropped would wait for a full collection (every turn drops the previous turn's graph).
    graph, a, b = _two_nodes()
    copied = graph.copy()
    for g in (graph, copied):
        g.nodes(), g.edges(), g.node_depths(), g.longest_chain(["leads_to"]), g.relation_counts()
        g.out_degree(a), g.in_degree(b), g.predecessors(b, ["leads_to"]), g.is_orphan(a)
    refs = [weakref.ref(graph._g), weakref.ref(copied._g)]
    gc.disable()
    try:
        del graph, copied, g
        assert [r() for r in refs] == [None, None]
    finally:
        gc.enable()
