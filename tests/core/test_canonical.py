"""Canonical slots of the dual graph (core.canonical): the fuzzy threshold's calibration, slot
discovery (lifecycle, merging, rejected and failed batches, pending batches), edge
aggregation and the state's round trip. Tracking through slots and the turn with slots are in
test_canonical_tracking.py, the pipeline with slots in test_canonical_pipeline.py."""

from __future__ import annotations

import pytest
from canonical_fixtures import TUNING, apply, batch, slot
from kg_fixtures import e, extract, n

from interview_cli.config.tuning import CanonicalTuning
from interview_cli.core.canonical.slots import (
    WORD_RULES,
    CanonicalState,
    canonical_graph_state,
    dual_graph_comparison,
    label_similarity,
    pending_slot_batches,
)
from interview_cli.core.graph.knowledge import KnowledgeGraph

# Calibration of the fuzzy threshold (core.canonical docstring): paraphrases the word tier can
# see, and pairs that share words but mean different things.
PARAPHRASES = [
    ("fast car", "quick vehicle"),
    ("long battery life", "battery life"),
    ("noise cancelling", "noise cancellation"),
    ("save money", "saving cash"),
    ("feel relaxed", "relaxing feeling"),
    ("comfortable fit", "comfy fit"),
    ("easy to use", "simple to use"),
    ("cheap price", "affordable price"),
    ("feel calm", "feeling peaceful"),
    ("reliable connection", "dependable connection"),
    ("sound quality", "quality of the sound"),
    ("buy online", "purchase online"),
    ("coffee taste", "flavour of the coffee"),
    ("save time", "saves time in the morning"),
    ("peace of mind", "mind at peace"),
    ("being productive", "productivity"),
    ("get work done", "getting work done on the commute"),
    ("quiet office", "silent office"),
    ("fix the problem", "repair the problem"),
    ("long battery", "battery lasts long"),
    ("being organised", "organisation"),
    ("speed_performance", "performance speed"),
]
DISTINCT = [
    ("fast car", "cheap car"),
    ("feel relaxed", "feel stressed"),
    ("save time", "save money"),
    ("battery life", "sound quality"),
    ("expensive", "not expensive"),
    ("reliable", "unreliable"),
    ("noise cancelling", "noise at the office"),
    ("feel in control", "feel tired"),
    ("focus on the train", "sleep on the train"),
    ("comfortable fit", "comfortable price"),
    ("being organised", "being productive"),
    ("good sound", "good battery"),
    ("easy to carry", "easy to pair"),
    ("feel calm", "feel happy"),
    ("long battery life", "short battery life"),
    ("coffee ready", "coffee strong"),
    ("peace of mind", "inner harmony"),
    ("wear them all afternoon", "wear them on the train"),
    ("personal service", "personal data"),
    ("product design", "production cost"),
]


def test_fuzzy_threshold_separates_the_calibration_pairs() -> None:
    paraphrase = [label_similarity(a, b) for a, b in PARAPHRASES]
    distinct = [label_similarity(a, b) for a, b in DISTINCT]
    assert min(paraphrase) >= TUNING.fuzzy_threshold > max(distinct)
    assert label_similarity("fast car", "quick vehicle") == 1.0
    assert label_similarity("expensive", "not expensive") == 0.0  # polarity never merges


# ---- discovery ---------------------------------------------------------------------------


def test_slot_lifecycle_candidate_then_active_at_support_two() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("battery life")], turn=1)
    state, record = apply(
        CanonicalState(),
        graph,
        [batch(graph, "battery life", proposals=[slot("battery", "battery life")])],
        1,
    )
    (s1,) = state.slots
    assert (s1.id, s1.status, s1.support_count, s1.first_seen_turn, s1.promoted_turn) == (
        "s1",
        "candidate",
        1,
        1,
        None,
    )
    assert record.slots_created == ("s1",) and record.graph_state.concept_count == 0

    extract(graph, [n("long battery life")], turn=2)
    state, record = apply(
        state,
        graph,
        [
            batch(
                graph,
                "long battery life",
                proposals=[slot("long_battery_life", "long battery life")],
            )
        ],
        2,
    )
    (s1,) = state.slots
    assert (s1.status, s1.support_count, s1.promoted_turn) == ("active", 2, 2)
    assert record.slots_promoted == ("s1",) and record.slots_updated == ("s1",)
    assert record.mappings_created[0].via == "fuzzy"
    assert state.last_new_slots == 0 and state.last_new_surface_nodes == 1


def test_min_support_is_a_tuning_knob() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("battery life"), n("long battery life")], turn=1)
    tuning = CanonicalTuning(min_support_nodes=3)
    state, _ = apply(
        CanonicalState(),
        graph,
        [
            batch(
                graph,
                "battery life",
                "long battery life",
                proposals=[slot("battery", "battery life", "long battery life")],
            )
        ],
        1,
        tuning=tuning,
    )
    assert [(s.status, s.support_count) for s in state.slots] == [("candidate", 2)]
    assert [m.via for m in state.mappings] == ["new", "grouped"]


def test_word_rules_merge_by_name_or_similarity_never_across_types_or_polarity() -> None:
    # A session recorded under the word rules (canonical state version 1) replays by them.
    graph = KnowledgeGraph()
    extract(graph, [n("battery life"), n("expensive"), n("battery life", "consequence")], turn=1)
    state, _ = apply(
        CanonicalState(version=WORD_RULES),
        graph,
        [
            batch(
                graph,
                "battery life",
                "expensive",
                proposals=[slot("battery", "battery life"), slot("price", "expensive")],
            ),
            batch(
                graph,
                "battery life",
                node_type="consequence",
                proposals=[slot("battery", "battery life", node_type="consequence")],
            ),
        ],
        1,
    )
    assert [(s.slot_name, s.node_type) for s in state.slots] == [
        ("battery", "attribute"),
        ("price", "attribute"),
        ("battery", "consequence"),
    ]
    extract(graph, [n("battery life span"), n("not expensive"), n("sporty look")], turn=2)
    state, record = apply(
        state,
        graph,
        [
            batch(
                graph,
                "battery life span",
                "not expensive",
                "sporty look",
                proposals=[
                    slot("battery_life_span", "battery life span"),
                    slot("price", "sporty look"),
                    slot("low_price", "not expensive"),
                ],
            )
        ],
        2,
    )
    by_label = {m.surface_label: (m.slot_id, m.via) for m in state.mappings}
    assert by_label["battery life span"] == ("s1", "fuzzy")
    assert by_label["sporty look"] == ("s2", "name")  # the model reused a slot name: trusted
    assert by_label["not expensive"][0] not in {"s1", "s2"}  # polarity differs: a new slot
    assert record.slots_created == (by_label["not expensive"][0],)


def test_embedder_merges_at_the_canonical_threshold_but_not_across_negation() -> None:
    class Fake:
        def similarity(self, a: str, b: str) -> float:
            return (
                0.65
                if {a, b}
                <= {"focus on the train", "concentrate on the train", "not focus on the train"}
                else 0.1
            )

    graph = KnowledgeGraph()
    extract(graph, [n("focus on the train", "consequence")], turn=1)
    state, _ = apply(
        CanonicalState(),
        graph,
        [
            batch(
                graph,
                "focus on the train",
                node_type="consequence",
                proposals=[slot("focus", "focus on the train", node_type="consequence")],
            )
        ],
        1,
    )
    extract(
        graph,
        [n("concentrate on the train", "consequence"), n("not focus on the train", "consequence")],
        turn=2,
    )
    b = batch(graph, "concentrate on the train", "not focus on the train", node_type="consequence")
    fuzzy, _ = apply(state, graph, [b], 2)
    embedded, record = apply(state, graph, [b], 2, embedder=Fake())
    assert len(fuzzy.slots) == 3  # the word tier cannot see "focus" ~ "concentrate"
    slots = {m.surface_label: (m.slot_id, m.via) for m in embedded.mappings}
    assert slots["concentrate on the train"] == ("s1", "embedding")
    assert slots["not focus on the train"][0] != "s1"
    assert embedded.slot("s1").status == "active"  # type: ignore[union-attr]


def test_left_out_labels_stand_alone_unknown_labels_are_rejected_failed_batches_retry() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("battery life"), n("sound quality"), n("price", "consequence")], turn=1)
    state, record = apply(
        CanonicalState(),
        graph,
        [
            batch(
                graph,
                "battery life",
                "sound quality",
                proposals=[slot("battery", "battery life", "made up")],
            ),
            batch(graph, "price", node_type="consequence", failed=True),
        ],
        1,
    )
    assert [s.slot_name for s in state.slots] == ["battery", "sound_quality"]
    assert [r.reason for r in record.rejected] == ["label was not asked about"]
    assert record.unmapped == (graph.find_by_label("price")[0],)
    retry = pending_slot_batches(state, graph, tuning=TUNING)
    assert [(b.node_type, b.labels) for b in retry] == [("consequence", ("price",))]


def test_pending_batches_group_by_type_at_most_eight_labels_with_existing_names() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n(f"feature {i}") for i in range(10)] + [n("calm", "consequence")], turn=1)
    state, _ = apply(
        CanonicalState(),
        graph,
        [batch(graph, "feature 0", proposals=[slot("feature_zero", "feature 0")])],
        1,
    )
    batches = pending_slot_batches(state, graph, tuning=TUNING)
    assert [(b.node_type, len(b.labels)) for b in batches] == [
        ("attribute", 8),
        ("attribute", 1),
        ("consequence", 1),
    ]
    assert batches[0].existing_slots == ("feature_zero",)
    assert "feature 0" not in batches[0].labels


def test_canonical_edges_aggregate_surface_edges_with_support_and_provenance() -> None:
    graph = KnowledgeGraph()
    extract(
        graph,
        [n("battery life"), n("save time", "consequence"), n("freedom", "value")],
        [e("battery life", "save time"), e("save time", "freedom")],
        turn=1,
    )
    extract(
        graph,
        [
            n("long battery life"),
            n("saves time in the morning", "consequence"),
            n("lonely", "value"),
        ],
        [e("long battery life", "saves time in the morning"), e("long battery life", "save time")],
        turn=2,
    )
    state, _ = apply(
        CanonicalState(),
        graph,
        [
            batch(
                graph,
                "battery life",
                "long battery life",
                proposals=[slot("battery", "battery life", "long battery life")],
            ),
            batch(
                graph,
                "save time",
                "saves time in the morning",
                node_type="consequence",
                proposals=[
                    slot(
                        "save_time",
                        "save time",
                        "saves time in the morning",
                        node_type="consequence",
                    )
                ],
            ),
            batch(graph, "freedom", "lonely", node_type="value"),
        ],
        2,
    )
    edges = {c.id: (c.support_count, c.surface_edge_ids) for c in state.edges}
    ids = {
        label: graph.find_by_label(label)[0]
        for label in (
            "battery life",
            "long battery life",
            "save time",
            "saves time in the morning",
            "freedom",
        )
    }
    assert edges["s1->s2:leads_to"] == (
        3,
        (
            f"{ids['battery life']}->{ids['save time']}:leads_to",
            f"{ids['long battery life']}->{ids['saves time in the morning']}:leads_to",
            f"{ids['long battery life']}->{ids['save time']}:leads_to",
        ),
    )
    assert edges["s2->s3:leads_to"][0] == 1  # s3 (freedom) is a candidate
    gs = canonical_graph_state(state)
    assert (gs.concept_count, gs.edge_count, gs.orphan_count, gs.max_depth, gs.avg_support) == (
        2,
        1,
        0,
        1,
        2.0,
    )
    assert gs.candidate_count == 2  # freedom, lonely: one node each
    comparison = dual_graph_comparison(graph, state)
    assert comparison["unmapped"] == 0 and comparison["canonical_slots"] == 4
    assert comparison["edge_node_ratio"] == round(4 / 6, 4)


def test_state_round_trips_through_its_dict() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("battery life"), n("long battery life")], turn=1)
    state, _ = apply(
        CanonicalState(), graph, [batch(graph, "battery life", "long battery life")], 1
    )
    data = state.to_dict()
    assert data["graph_state"]["concept_count"] == 1
    assert CanonicalState.from_dict(data) == state
    assert CanonicalState.from_dict({}) == CanonicalState()
    with pytest.raises(ValueError, match="version"):
        CanonicalState.from_dict({**data, "version": 99})
