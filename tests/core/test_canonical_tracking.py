"""Canonical slots in node tracking and in the turn (core.canonical.tracking, core.turn):
paraphrases tracked as one concept, advance() scoring through a slot, and the flag off being
the surface-only core."""

from __future__ import annotations

from pathlib import Path

from canonical_fixtures import apply, batch, slot
from kg_fixtures import extract, methodology, n

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.canonical.slots import CanonicalState
from interview_cli.core.canonical.tracking import canonical_info, slot_tracking_view
from interview_cli.core.decide.vetoes import FocusEntry
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.models import Assessment, Extraction, RubricScore
from interview_cli.core.signals.node_signals import is_exhausted
from interview_cli.core.tracker import (
    NodeStateTracker,
    advance_turn,
    append_response_signal,
    register_node,
    update_focus,
)
from interview_cli.core.turn import CoreState, TurnInput, advance, decide_turn

ROOT = Path(__file__).resolve().parents[2]


# ---- node tracking through slots ---------------------------------------------------------


def test_paraphrases_are_tracked_as_one_concept() -> None:
    """Focusing "battery life" and then "long battery life" is one slot's streak; shallow
    answers on either exhaust both."""
    graph = KnowledgeGraph()
    extract(graph, [n("battery life"), n("long battery life"), n("price")], turn=1)
    state, _ = apply(
        CanonicalState(),
        graph,
        [
            batch(
                graph,
                "battery life",
                "long battery life",
                "price",
                proposals=[
                    slot("battery", "battery life", "long battery life"),
                    slot("price", "price"),
                ],
            ),
        ],
        1,
    )
    fast, quick, price = (
        graph.find_by_label(x)[0] for x in ("battery life", "long battery life", "price")
    )
    tracker = NodeStateTracker()
    for node_id in (fast, quick, price):
        tracker = register_node(tracker, graph.node(node_id), 1)
    history: list[FocusEntry] = []
    for turn, focus in ((1, fast), (2, quick), (3, fast), (4, quick)):
        tracker = advance_turn(tracker, turn)
        tracker = append_response_signal(tracker, "surface")
        tracker = update_focus(tracker, focus, turn, "deepen")
        history.append(FocusEntry(turn, "deepen", focus))
    tracker = append_response_signal(advance_turn(tracker, 5), "shallow")
    tuning = methodology().tuning.exhaustion

    def exhausted(t: NodeStateTracker, node_id: str) -> bool:
        s = t.states[node_id]
        return is_exhausted(
            focus_count=s.focus_count,
            turns_since_last_yield=s.turns_since_last_yield,
            current_focus_streak=s.current_focus_streak,
            shallow=s.shallow_ratio,
            tuning=tuning,
        )

    assert not exhausted(tracker, fast) and not exhausted(tracker, quick)  # streak 1 each
    view = slot_tracking_view(tracker, state, history)
    for node_id in (fast, quick):
        s = view.states[node_id]
        assert (s.focus_count, s.current_focus_streak, s.consecutive_same_strategy) == (4, 4, 4)
        assert s.all_response_depths == ("surface", "surface", "surface", "shallow")
        assert exhausted(view, node_id)
    assert view.states[price] == tracker.states[price]  # a candidate slot does not aggregate
    assert (
        view.states[fast].label == "battery life"
        and view.states[quick].label == "long battery life"
    )
    info = canonical_info(state, graph=graph, tracker=view, methodology=methodology())
    assert (info.enabled, info.concept_count, info.new_slots, info.new_surface_nodes) == (
        True,
        1,
        2,
        3,
    )
    assert info.exhaustion_score > 0.5


def test_fast_car_and_quick_vehicle_are_one_concept_on_either_graph() -> None:
    """The brief's paraphrase pair: surface de-duplication already folds it into one node (the
    synonym table of core.text); where the surface graph holds both (a surface tier that did
    not catch it), their slot makes them one concept for tracking."""
    graph = KnowledgeGraph()
    extract(graph, [n("fast car")], turn=1)
    delta = extract(graph, [n("quick vehicle")], turn=2)
    assert [m.into_label for m in delta.nodes_merged] == ["fast car"]

    m = methodology()
    graph = KnowledgeGraph()
    fast = graph.add_node("fast car", "attribute", methodology=m, turn=1).id
    quick = graph.add_node("quick vehicle", "attribute", methodology=m, turn=2).id
    state, _ = apply(
        CanonicalState(),
        graph,
        [batch(graph, "fast car", proposals=[slot("speed_performance", "fast car")])],
        1,
    )
    state, record = apply(
        state,
        graph,
        [batch(graph, "quick vehicle", proposals=[slot("quick_vehicle", "quick vehicle")])],
        2,
    )
    assert state.slot_of() == {fast: "s1", quick: "s1"} and record.slots_promoted == ("s1",)
    tracker = NodeStateTracker()
    for node_id in (fast, quick):
        tracker = register_node(tracker, graph.node(node_id), 1)
    tracker = update_focus(advance_turn(tracker, 2), fast, 2, "deepen")
    view = slot_tracking_view(tracker, state, [FocusEntry(2, "deepen", fast)])
    assert view.states[quick].focus_count == 1 and view.states[quick].current_focus_streak == 1


# ---- the turn: advance with slots ---------------------------------------------------------


def mec() -> Methodology:
    text = (ROOT / "methodologies" / "means_end_chain.yaml").read_text(encoding="utf-8")
    return Methodology.model_validate(load_yaml(text))


CONCEPT = Concept.model_validate(
    {"id": "cars", "name": "Cars", "methodology": "means_end_chain", "objective": "why cars"}
)


def assessment(depth: int) -> Assessment:
    mid = RubricScore(score=3)
    return Assessment(
        response_depth=RubricScore(score=depth),
        specificity=mid,
        certainty=mid,
        valence=mid,
        engagement=mid,
        intellectual_engagement=mid,
    )


def test_advance_with_slots_scores_paraphrases_through_their_slot() -> None:
    m = mec()
    x = [
        Extraction(nodes=[n("battery life"), n("long battery life")]),
        Extraction(nodes=[]),
        Extraction(nodes=[]),
        Extraction(nodes=[]),
    ]
    on, off = CoreState.initial(CONCEPT, slots=True), CoreState.initial(CONCEPT)
    for turn, extraction in enumerate(x, start=1):
        inputs = TurnInput(
            methodology=m,
            concept=CONCEPT,
            extraction=extraction,
            assessment=assessment(1),
            utterance_id=f"u{turn}",
            max_turns=20,
        )
        off, off_outcome = advance(off, inputs)
        # The live pipeline's two halves: the proposals are made from the updated graph.
        decided = decide_turn(on, inputs)
        proposals = []
        if turn == 1:
            proposals = [
                batch(
                    decided.state.graph,
                    "battery life",
                    "long battery life",
                    proposals=[slot("battery", "battery life", "long battery life")],
                )
            ]
        on, outcome = decided.settle(proposals)
    fast, quick = (on.graph.find_by_label(x)[0] for x in ("battery life", "long battery life"))
    keys = ("graph.node.exhaustion_score", "graph.node.focus_streak", "graph.node.exhausted")
    signals = outcome.decision.node_signals
    assert [signals[fast][k] for k in keys] == [signals[quick][k] for k in keys]
    assert outcome.decision.global_signals["graph.canonical_concept_count"] == 1
    off_signals = off_outcome.decision.node_signals
    assert [off_signals[fast][k] for k in keys] != [off_signals[quick][k] for k in keys]
    # The tracker carried forward stays per surface node; the memory of asking is read
    # through the slot: after two empty questions on "battery life", its paraphrase is spent
    # too, and the third question goes elsewhere.
    assert on.tracker.states[fast].focus_count + on.tracker.states[quick].focus_count == 2
    assert outcome.decision.selected.node_id not in (fast, quick)


def test_slots_off_is_the_surface_only_core() -> None:
    m = mec()
    inputs = TurnInput(
        methodology=m,
        concept=CONCEPT,
        extraction=Extraction(nodes=[n("battery life")]),
        assessment=assessment(3),
        utterance_id="u1",
        max_turns=10,
    )
    plain, a = advance(CoreState.initial(CONCEPT), inputs)
    none, b = advance(CoreState.initial(CONCEPT, slots=False), inputs, embedder=None)
    assert plain.canonical is None and a.slot_discovery is None
    assert a.decision.to_dict() == b.decision.to_dict() and plain.to_dict() == none.to_dict()
    assert a.decision.global_signals["graph.canonical_concept_count"] == 0
