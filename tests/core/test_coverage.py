"""Coverage of stimulus elements: mapping, reactions, the four gaps, total-focus exhaustion."""

from __future__ import annotations

from kg_fixtures import e, extract, n

from interview_cli.config.schemas import Concept
from interview_cli.core.coverage import (
    CoverageState,
    compute_gaps,
    initial_coverage,
    record_element_focus,
    record_node_focus,
    update_coverage,
)
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.models import Extraction

CONCEPT = Concept(
    id="oat_drink",
    name="Oat drink",
    methodology="ladder_test",
    objective="Test an oat drink concept",
    elements=[
        {"id": "texture", "label": "texture", "aliases": ["mouthfeel"]},
        {"id": "price", "label": "price point"},
        {"id": "pack", "label": "recyclable carton"},
    ],
)


def turn(graph: KnowledgeGraph, state: CoverageState, nodes, edges=(), t: int = 1) -> CoverageState:
    delta = extract(graph, list(nodes), list(edges), turn=t)
    extraction = Extraction(nodes=list(nodes), edges=list(edges))
    return update_coverage(state, graph=graph, concept=CONCEPT, extraction=extraction, delta=delta)


def test_initial_state_every_element_unmentioned() -> None:
    state = initial_coverage(CONCEPT)
    assert state.active and state.ratio == 0.0 and state.unmentioned_count == 3
    assert [(g.element_id, g.gap_type) for g in state.gaps] == [
        ("texture", "unmentioned"),
        ("price", "unmentioned"),
        ("pack", "unmentioned"),
    ]


def test_mapping_by_label_alias_and_extractor_element_id() -> None:
    graph = KnowledgeGraph()
    state = turn(
        graph,
        initial_coverage(CONCEPT),
        [n("creamy textures"), n("nice mouthfeel"), n("good for the planet", element_id="pack")],
    )
    assert state.element_node_ids == {"texture": ["n1", "n2"], "price": [], "pack": ["n3"]}
    assert state.elements_of_node("n3") == ["pack"]
    assert state.ratio == 2 / 3 and state.unmentioned_count == 1
    # "price" alone does not cover the element "price point"
    state = turn(graph, state, [n("price")], t=2)
    assert state.element_node_ids["price"] == []


def test_reactions_and_the_gap_types() -> None:
    graph = KnowledgeGraph()
    state = turn(
        graph,
        initial_coverage(CONCEPT),
        [n("creamy texture", reaction="positive"), n("price point")],
    )
    assert state.gaps_of("texture") == ["unconnected"]
    assert state.gaps_of("price") == ["no_reaction", "unconnected"]
    state = turn(
        graph,
        state,
        [n("price point", reaction="confused"), n("feel full", "consequence")],
        [e("creamy texture", "feel full")],
        t=2,
    )
    assert state.reactions["price"] == ["confused"]
    assert state.gaps_of("price") == ["no_comprehension", "unconnected"]
    assert state.gaps_of("texture") == []  # mentioned, reacted to, connected
    state = turn(graph, state, [n("price point", reaction="negative")], t=3)
    assert state.latest_reaction("price") == "negative"
    assert state.gaps_of("price") == ["unconnected"]
    assert state.has_gaps


def test_reaction_reaches_the_element_through_the_merged_node() -> None:
    graph = KnowledgeGraph()
    state = turn(graph, initial_coverage(CONCEPT), [n("good for the planet", element_id="pack")])
    # No element named this time and the label alone matches no element: the reaction
    # reaches "pack" through the node the mention merged into.
    state = turn(graph, state, [n("Good for the planet!", reaction="positive")], t=2)
    assert state.reactions["pack"] == ["positive"]
    assert state.gaps_of("pack") == ["unconnected"]


def test_focus_counts_are_totals_not_reset_on_switch() -> None:
    # Seed 000 Hotspot 7: A, A, B, A must exhaust A at max_focus=3 (the seed's reset needed 6).
    state = initial_coverage(CONCEPT)
    for element in ("texture", "texture", "price", "texture"):
        state = record_element_focus(state, element, max_focus=3)
    assert state.focus_counts == {"texture": 3, "price": 1, "pack": 0}
    assert state.exhausted == ["texture"] and state.is_exhausted("texture")
    state = record_element_focus(state, "texture", max_focus=3)
    assert state.exhausted == ["texture"]  # listed once, permanently
    assert record_element_focus(state, "nope", max_focus=3) is state


def test_node_focus_counts_for_its_elements() -> None:
    graph = KnowledgeGraph()
    state = turn(graph, initial_coverage(CONCEPT), [n("texture of the carton", element_id="pack")])
    state = record_node_focus(state, "n1", max_focus=4)
    assert state.focus_counts == {"texture": 1, "price": 0, "pack": 1}
    assert record_node_focus(state, None, max_focus=4) is state


def test_stale_mappings_are_ignored() -> None:
    state = initial_coverage(CONCEPT).model_copy(update={"element_node_ids": {"texture": ["gone"]}})
    gaps = compute_gaps(state, KnowledgeGraph())
    assert ("texture", "unmentioned") in [(g.element_id, g.gap_type) for g in gaps]


def test_exploratory_concept_has_no_coverage() -> None:
    concept = Concept(id="c", name="c", methodology="m", objective="explore")
    state = initial_coverage(concept)
    assert not state.active and state.ratio == 1.0 and not state.has_gaps
    graph = KnowledgeGraph()
    extract(graph, [n("anything")])
    assert update_coverage(state, graph=graph, concept=concept) is state
