"""The knowledge graph: invariants, merges, cross-turn edges, rejections, JSON round trip."""

from __future__ import annotations

import json

import pytest
from kg_fixtures import e, extract, methodology, n

from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.node_link import from_json, to_json
from interview_cli.core.graph.records import GraphInvariantError
from interview_cli.core.graph.update import apply_extraction
from interview_cli.core.models import Extraction


def test_new_nodes_get_counter_ids_and_full_attributes() -> None:
    graph = KnowledgeGraph()
    delta = extract(graph, [n("Noise cancelling", stance=1, confidence=0.9), n("long battery")])
    assert [a.node_id for a in delta.nodes_added] == ["n1", "n2"]
    node = graph.node("n1")
    assert node.label == "Noise cancelling"
    assert node.node_type == "attribute"
    assert node.aliases == ()
    assert node.provenance == ({"utterance_id": "u1", "quote": "Noise cancelling", "turn": 1},)
    assert (node.stance, node.confidence, node.created_turn) == (1, 0.9, 1)
    assert node.superseded_by is None and node.element_id is None
    assert delta.resolved == {"Noise cancelling": "n1", "long battery": "n2"}
    assert delta.changed


def test_same_inputs_give_the_same_graph() -> None:
    def build() -> dict[str, object]:
        graph = KnowledgeGraph()
        extract(
            graph, [n("comfort"), n("feel relaxed", "consequence")], [e("comfort", "feel relaxed")]
        )
        extract(graph, [n("price"), n("comforts")], turn=2)
        return to_json(graph)

    assert build() == build()


def test_exact_duplicate_merges_and_keeps_all_provenance() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("Battery life", quote="the battery life")], turn=1)
    delta = extract(graph, [n("battery  LIFE!", quote="battery life again", stance=-1)], turn=2)
    assert delta.nodes_added == []
    (merged,) = delta.nodes_merged
    assert (merged.node_id, merged.tier, merged.alias_added) == ("n1", "exact", False)
    node = graph.node("n1")
    assert [p["quote"] for p in node.provenance] == ["the battery life", "battery life again"]
    assert [p["utterance_id"] for p in node.provenance] == ["u1", "u2"]
    assert node.stance == -1  # the latest opinion counts
    assert not delta.changed  # a merge alone is no new information


def test_fuzzy_duplicate_becomes_an_alias() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("saves time")], turn=1)
    delta = extract(graph, [n("saving time")], turn=2)
    (merged,) = delta.nodes_merged
    assert merged.tier == "fuzzy" and merged.alias_added and merged.into_label == "saves time"
    assert graph.node("n1").aliases == ("saving time",)
    assert graph.find_by_label("Saving time") == ["n1"]
    assert graph.node_count == 1


def test_dedup_only_within_a_node_type() -> None:
    graph = KnowledgeGraph()
    delta = extract(graph, [n("quality", "attribute"), n("quality", "value")])
    assert len(delta.nodes_added) == 2
    assert graph.find_by_label("quality", "value") == ["n2"]


def test_negated_and_head_word_variants_stay_separate() -> None:
    graph = KnowledgeGraph()
    delta = extract(graph, [n("expensive"), n("not expensive"), n("noise"), n("noise cancelling")])
    assert len(delta.nodes_added) == 4 and delta.nodes_merged == []


def test_duplicate_within_one_extraction_merges() -> None:
    graph = KnowledgeGraph()
    delta = extract(graph, [n("comfort", quote="a"), n("Comfort", quote="b")])
    assert len(delta.nodes_added) == 1 and len(delta.nodes_merged) == 1
    assert len(graph.node("n1").provenance) == 2


def test_rejected_nodes_carry_reasons() -> None:
    graph = KnowledgeGraph()
    delta = extract(graph, [n("comfort", "feeling"), n("!!!"), n("fine")])
    assert [r.reason for r in delta.rejected] == [
        "unknown node type 'feeling'",
        "label has no letters or digits",
    ]
    assert all(r.kind == "node" for r in delta.rejected)
    assert delta.rejected[0].item["label"] == "comfort"
    assert graph.node_count == 1


def test_cross_turn_edge_resolves_against_earlier_nodes_and_aliases() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("saves time")], turn=1)
    extract(graph, [n("saving time")], turn=2)  # becomes an alias of n1
    delta = extract(
        graph, [n("less stress", "consequence")], [e("saving time", "less stress")], turn=3
    )
    assert [(c.source, c.target, c.relation) for c in delta.edges_added] == [
        ("n1", "n2", "leads_to")
    ]
    # An edge between two nodes of earlier turns, named by lemma variants only.
    delta = extract(graph, [], [e("save time", "LESS STRESS", quote="so I stress less")], turn=4)
    assert delta.edges_merged[0].source == "n1"
    (rel,) = graph.relations("n1", "n2").values()
    assert rel.quotes == ("so I stress less",)
    assert [p["turn"] for p in rel.provenance] == [3, 4]


def test_edge_rejections_name_the_reason() -> None:
    graph = KnowledgeGraph()
    delta = extract(
        graph,
        [n("comfort"), n("feel relaxed", "consequence")],
        [
            e("comfort", "nowhere"),
            e("feel relaxed", "comfort"),
            e("comfort", "feel relaxed", "causes"),
        ],
    )
    reasons = [r.reason for r in delta.rejected]
    assert reasons == [
        "edge_skipped_missing_node: target 'nowhere' not in the graph",
        "'leads_to' is not permitted from consequence to attribute",
        "unknown relation 'causes'",
    ]
    assert graph.edge_count == 0 and all(r.kind == "edge" for r in delta.rejected)


def test_several_relations_between_the_same_two_nodes() -> None:
    graph = KnowledgeGraph()
    delta = extract(
        graph,
        [n("wireless"), n("wired")],
        [e("wireless", "wired", "contrasts_with"), e("wireless", "wired", "revises")],
    )
    assert len(delta.edges_added) == 2
    assert set(graph.relations("n1", "n2")) == {"contrasts_with", "revises"}
    assert graph.edge_count == 2 and graph.out_degree("n1") == 2 and graph.in_degree("n2") == 2
    assert to_json(from_json(to_json(graph))) == to_json(graph)


def test_cycles_and_self_loops_are_allowed() -> None:
    graph = KnowledgeGraph()
    delta = extract(
        graph,
        [n("focus", "consequence"), n("productive", "consequence")],
        [e("focus", "productive"), e("productive", "focus"), e("focus", "focus")],
    )
    assert len(delta.edges_added) == 3 and not delta.rejected
    assert graph.has_relation("n1", "n1", "leads_to")


def test_endpoint_resolution_picks_a_permitted_pair_this_turn_first() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("price", "attribute")], turn=1)
    delta = extract(graph, [n("price", "value"), n("comfort")], [e("comfort", "price")], turn=2)
    # attribute -> attribute is not permitted for leads_to; attribute -> value is.
    assert delta.edges_added[0].target == "n2"
    delta = extract(graph, [n("price", "value")], [e("price", "price", "revises")], turn=3)
    # Both price nodes could be meant; this turn's (the value) is tried first.
    assert (delta.edges_added[0].source, delta.edges_added[0].target) == ("n2", "n2")


def test_not_extractable_changes_nothing() -> None:
    graph = KnowledgeGraph()
    delta = apply_extraction(
        graph,
        Extraction(extractable=False, nodes=[n("comfort")]),
        methodology=methodology(),
        utterance_id="u1",
        turn=1,
    )
    assert graph.node_count == 0 and not delta.changed and delta.nodes_merged == []


def test_direct_mutations_enforce_the_invariants() -> None:
    meth = methodology()
    graph = KnowledgeGraph()
    a = graph.add_node("comfort", "attribute", methodology=meth, turn=1)
    c = graph.add_node("relaxed", "consequence", methodology=meth, turn=1)
    with pytest.raises(GraphInvariantError, match="already exists"):
        graph.add_node("Comfort!", "attribute", methodology=meth, turn=2)
    with pytest.raises(GraphInvariantError, match="unknown node type"):
        graph.add_node("x", "emotion", methodology=meth, turn=2)
    with pytest.raises(GraphInvariantError, match="not permitted"):
        graph.add_relation(c.id, a.id, "leads_to", methodology=meth, turn=2)
    with pytest.raises(GraphInvariantError, match="not a node"):
        graph.add_relation(a.id, "n99", "leads_to", methodology=meth, turn=2)
    with pytest.raises(GraphInvariantError, match="unknown relation"):
        graph.add_relation(a.id, c.id, "causes", methodology=meth, turn=2)
    assert graph.edge_count == 0
    # Aliases are labels too: one may not name another node of the same type.
    price = graph.add_node("price", "attribute", methodology=meth, turn=2)
    with pytest.raises(GraphInvariantError, match="already names attribute node"):
        graph.merge_into(a.id, label="Price")
    assert graph.find_by_label("price", "attribute") == [price.id]
    graph.merge_into(c.id, label="price")  # another type may share it
    with pytest.raises(GraphInvariantError, match="stance"):
        graph.add_node("loud", "attribute", methodology=meth, turn=2, stance=7)
    with pytest.raises(GraphInvariantError, match="confidence"):
        graph.merge_into(a.id, label="comfy", confidence=5.0)
    assert "comfy" not in graph.node(a.id).aliases


def test_id_factory_supplies_ids_and_collisions_are_refused() -> None:
    meth = methodology()
    graph = KnowledgeGraph()
    ids = iter(["a", "a"])
    apply_extraction(
        graph,
        Extraction(nodes=[n("comfort")]),
        methodology=meth,
        utterance_id="u1",
        turn=1,
        id_factory=lambda: next(ids),
    )
    assert graph.node_ids() == ["a"]
    with pytest.raises(GraphInvariantError, match="unusable node id"):
        apply_extraction(
            graph,
            Extraction(nodes=[n("price")]),
            methodology=meth,
            utterance_id="u2",
            turn=2,
            id_factory=lambda: next(ids),
        )


def test_recent_labels_newest_mention_first() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("comfort"), n("price")], turn=1)
    extract(graph, [n("design")], turn=2)
    extract(graph, [n("comfort")], turn=3)  # mentioned again: most recent
    assert graph.recent_labels() == ["comfort", "design", "price"]
    assert graph.recent_labels(limit=2) == ["comfort", "design"]
    assert graph.label_index["comfort"] == ("n1",)


def test_json_round_trip_is_lossless_and_detached() -> None:
    graph = KnowledgeGraph()
    extract(
        graph,
        [n("saves time"), n("less stress", "consequence", stance=1)],
        [e("saves time", "less stress")],
    )
    extract(graph, [n("saving time", element_id="speed")], turn=2)
    graph.supersede("n1", "n2")
    data = to_json(graph)
    assert set(data) == {"directed", "multigraph", "graph", "nodes", "links"}
    restored = from_json(json.loads(json.dumps(data)))
    assert to_json(restored) == data
    assert restored.node("n1").aliases == ("saving time",)
    assert restored.node("n1").element_id == "speed"
    assert restored.find_by_label("saving time") == ["n1"]  # the label index is rebuilt
    assert restored.next_node_number == graph.next_node_number
    data["nodes"][0]["aliases"].append("tampered")
    assert graph.node("n1").aliases == ("saving time",)


def test_from_json_rejects_malformed_data() -> None:
    with pytest.raises(ValueError, match="lacks"):
        from_json({"nodes": [{"id": "n1", "label": "x"}], "links": []})
    good = to_json(KnowledgeGraph())
    with pytest.raises(ValueError, match="missing node"):
        from_json({**good, "links": [{"source": "a", "target": "b", "relations": {}}]})
    with pytest.raises(ValueError, match="malformed"):
        from_json({"links": []})


def test_restored_graph_resolves_ambiguous_labels_like_the_original() -> None:
    # Found by the property test: "comfort" names the value n2 and, via a later alias, the
    # older attribute n1; the label index must rank them the same after a round trip.
    graph = KnowledgeGraph()
    extract(graph, [n("comforts"), n("comfort", "value"), n("comfort")], turn=1)
    assert graph.find_by_label("comfort") == ["n2", "n1"]
    restored = from_json(to_json(graph))
    assert restored.find_by_label("comfort") == ["n2", "n1"]
    after = [e("comfort", "comfort", "revises")]
    assert extract(restored, [], after, turn=2) == extract(graph, [], after, turn=2)


def test_labels_folded_into_one_node_do_not_make_a_self_loop() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("comfortable fit")])
    # "comfortable fits" de-duplicates into "comfortable fit": the link is not a stated self-loop.
    delta = extract(graph, [], [e("comfortable fit", "comfortable fits", "contrasts_with")], turn=2)
    assert not delta.edges_added
    assert "same concept" in delta.rejected[0].reason
    # The model drawing a link from a label to itself is a real self-loop, and allowed.
    delta = extract(graph, [], [e("comfortable fit", "comfortable fit", "contrasts_with")], turn=3)
    assert [(c.source, c.target) for c in delta.edges_added] == [("n1", "n1")]
