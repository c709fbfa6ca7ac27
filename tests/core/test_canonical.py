"""Canonical slots of the dual graph (core.canonical, core.canonical_tracking) and their place
in the turn: lifecycle, merging, edge aggregation, paraphrases tracked as one concept, flags
off, replay of a session with slots on, and slot discovery overlapping question generation."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml
from kg_fixtures import e, extract, methodology, n

from interview_cli.config.library import Library
from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.tuning import CanonicalTuning
from interview_cli.core.canonical import (
    CanonicalState,
    ProposedSlot,
    SlotBatch,
    canonical_graph_state,
    dual_graph_comparison,
    label_similarity,
    pending_slot_batches,
)
from interview_cli.core.canonical_slots import apply_slot_proposals
from interview_cli.core.canonical_tracking import canonical_info, slot_tracking_view
from interview_cli.core.graph import KnowledgeGraph
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
from interview_cli.core.vetoes import FocusEntry
from interview_cli.errors import LLMError
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.protocol import SlotProposal, SlotProposals, TaskResult
from interview_cli.llm.settings import resolve_llm_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session
from interview_cli.session import SessionFile, slim_candidates

ROOT = Path(__file__).resolve().parents[2]
TUNING = CanonicalTuning()

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


def batch(
    graph: KnowledgeGraph,
    *labels: str,
    proposals: list[ProposedSlot] | None = None,
    node_type: str = "attribute",
    failed: bool = False,
) -> SlotBatch:
    ids = tuple(graph.find_by_label(label, node_type)[0] for label in labels)
    return SlotBatch(
        node_type=node_type,
        node_ids=ids,
        labels=labels,
        proposals=tuple(proposals or ()),
        failed=failed,
    )


def slot(name: str, *labels: str, node_type: str = "attribute") -> ProposedSlot:
    return ProposedSlot(slot_name=name, node_type=node_type, surface_labels=labels)


def apply(
    state: CanonicalState, graph: KnowledgeGraph, batches: list[SlotBatch], turn: int, **kw: Any
) -> tuple[CanonicalState, Any]:
    return apply_slot_proposals(
        state, batches, graph=graph, turn=turn, tuning=kw.pop("tuning", TUNING), **kw
    )


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


def test_merging_by_name_by_similarity_and_never_across_types_or_polarity() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("battery life"), n("expensive"), n("battery life", "consequence")], turn=1)
    state, _ = apply(
        CanonicalState(),
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
    return Methodology.model_validate(yaml.safe_load(text))


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


# ---- the pipeline: concurrency, recording, replay -------------------------------------------

ANSWERS = [
    # "noise cancellation" (turn 6) is "noise cancelling" (turn 1) said again: surface
    # de-duplication keeps them apart, the canonical tier maps the second into the first's slot.
    "I love the noise cancelling and the long battery life because I can focus on the train",
    "The noise cancelling blocks the noise so I can concentrate on the train",
    "Concentrating on the train means I feel in control of my time",
    "Feeling in control of my time matters because I value freedom",
    "The battery life, I never think about charging",
    "I also love the noise cancellation",
    "The battery life is long so I am not stressed before trips",
]


def library() -> Library:
    return Library.discover(extra_roots=[ROOT], cwd=ROOT, env={})


def conduct(
    llm: Any, *, canonical: bool = True, answers: list[str] = ANSWERS, embedder: Any = None
) -> Interview:
    lib = library()
    concept = lib.concept("headphones_mec")
    session = new_session(
        session_id="dual-graph-test",
        concept=concept,
        methodology=lib.methodology(concept.value.methodology),
        settings=resolve_llm_settings("offline", env={}),
        max_turns=12,
        timestamps=False,
        canonical_slots=canonical,
        embeddings=embedder is not None,
    )
    interview = Interview(session, store=None, llm=llm, embedder=embedder)

    async def go() -> None:
        await interview.ensure_question()
        for answer in answers:
            result = await interview.submit(answer)
            if result.finished:
                break

    asyncio.run(go())
    return interview


def replay_with_slots(session: SessionFile) -> list[tuple[Any, CanonicalState | None]]:
    """The replay contract: advance() on the turn's recorded input, slot proposals included."""
    m = Methodology.model_validate(yaml.safe_load(session.methodology.source))
    c = Concept.model_validate(yaml.safe_load(session.concept.source))
    state = CoreState.initial(c, slots=session.settings.enable_canonical_slots)
    asked = [t.question.text for t in session.turns]
    out = []
    for index, turn in enumerate(session.completed_turns):
        assert turn.extraction is not None
        state, outcome = advance(
            state,
            TurnInput(
                methodology=m,
                concept=c,
                extraction=turn.extraction,
                assessment=turn.assessment,
                utterance_id=turn.answer.utterance_id,
                max_turns=session.settings.max_turns,
                recent_questions=tuple(asked[: index + 1][-6:]),
                slot_proposals=tuple(SlotBatch.model_validate(b) for b in turn.slot_proposals),
            ),
        )
        if state.canonical is not None:
            assert outcome.slot_discovery is not None
            assert outcome.slot_discovery.model_dump(mode="json") == turn.slot_discovery
        out.append((outcome, state.canonical))
    return out


def test_replay_reproduces_a_session_with_slots_on() -> None:
    interview = conduct(OfflineLLM(0))
    session = interview.session
    assert any(s.status == "active" for s in interview.canonical.slots)  # type: ignore[union-attr]
    assert any(m.via != "new" for m in interview.canonical.mappings)  # type: ignore[union-attr]
    replayed = replay_with_slots(session)
    for turn, (outcome, _) in zip(session.completed_turns, replayed, strict=True):
        d = outcome.decision
        assert (d.selected.strategy, d.selected.node_id) == (
            turn.decision.strategy,
            turn.decision.node_id,
        )  # type: ignore[union-attr]
        assert d.global_signals == turn.signals
        # The record keeps the candidates that explain the decision (session.slim_candidates).
        kept = slim_candidates([c.to_dict() for c in d.candidates])[0]
        assert kept == [c.model_dump(mode="json") for c in turn.candidates]
    assert replayed[-1][1].to_dict() == session.canonical  # type: ignore[union-attr]
    assert session.completed_turns[0].signals["graph.canonical_concept_count"] == 0
    calls = [c.task for t in session.turns for c in t.llm_calls]
    assert "propose_slots" in calls and session.usage.by_task["propose_slots"]["calls"] >= 1


def test_flag_off_records_no_slots_and_replays_on_the_surface_core() -> None:
    interview = conduct(OfflineLLM(0), canonical=False)
    session = interview.session
    assert interview.canonical is None and session.canonical == {}
    assert all(not t.slot_proposals and not t.slot_discovery for t in session.turns)
    assert "propose_slots" not in {c.task for t in session.turns for c in t.llm_calls}
    for turn, (outcome, slots) in zip(
        session.completed_turns, replay_with_slots(session), strict=True
    ):
        assert slots is None
        assert outcome.decision.selected.strategy == turn.decision.strategy  # type: ignore[union-attr]
        assert outcome.decision.global_signals == turn.signals


class Rendezvous(OfflineLLM):
    """Question generation and slot proposals each wait for the other to have started: only
    concurrent execution completes a turn."""

    def __init__(self) -> None:
        super().__init__(0)
        self.question_started = asyncio.Event()
        self.slots_started = asyncio.Event()

    async def generate_question(self, request: Any, on_token: Any = None) -> Any:
        self.question_started.set()
        await asyncio.wait_for(self.slots_started.wait(), 2)
        self.slots_started.clear()
        return await super().generate_question(request, on_token)

    async def propose_slots(self, request: Any) -> Any:
        self.slots_started.set()
        await asyncio.wait_for(self.question_started.wait(), 2)
        self.question_started.clear()
        return await super().propose_slots(request)


def test_one_slot_call_per_turn_whatever_the_node_types() -> None:
    session = conduct(OfflineLLM(0)).session
    several = [t for t in session.turns if len({b["node_type"] for b in t.slot_proposals}) > 1]
    assert several, "the scripted interview must leave several node types pending in a turn"
    for turn in session.turns:
        assert sum(c.task == "propose_slots" for c in turn.llm_calls) <= 1
    # The one call's proposals reach every batch, not only the first node type's.
    for turn in several:
        assert all(b["proposals"] for b in turn.slot_proposals)


def test_slot_discovery_overlaps_question_generation() -> None:
    interview = conduct(Rendezvous(), answers=ANSWERS[:1])
    (turn,) = interview.session.turns
    assert turn.status == "complete" and turn.slot_proposals and not turn.failures
    assert interview.session.pending_question is not None


class FlakySlots(OfflineLLM):
    """propose_slots raises on turn 1, returns an unusable (empty) response on turn 2."""

    async def propose_slots(self, request: Any) -> Any:
        turn = request.seed  # the session seed (0) + the turn number
        if turn == 1:
            raise LLMError("slots down (test)", provider="offline", task="propose_slots")
        if turn == 2:
            return TaskResult[SlotProposals](value=SlotProposals(), failures=["bad json"])
        return TaskResult[SlotProposals](
            value=SlotProposals(
                proposals=[
                    SlotProposal(slot_name="x", node_type=request.node_type, surface_labels=[label])
                    for label in request.labels
                ]
            )
        )


def test_failed_slot_calls_never_fail_the_turn_and_are_asked_again() -> None:
    interview = conduct(FlakySlots(0), answers=ANSWERS[:3])
    t1, t2, t3 = interview.session.turns
    assert all(t.status == "complete" for t in (t1, t2, t3))
    assert t1.slot_discovery["unmapped"] and "slots down" in t1.failures[-1]
    first_batch = t1.slot_proposals[0]
    assert first_batch["failed"] and "slots down" in first_batch["error"]
    assert t2.slot_proposals[0]["failed"] and t2.slot_proposals[0]["error"] == "bad json"
    asked_again = set(t3.slot_proposals[0]["node_ids"])
    assert set(first_batch["node_ids"]) <= asked_again
    assert not interview.canonical.slot_of().keys() ^ set(interview.core.graph.node_ids())  # type: ignore[union-attr]


# ---- observability ------------------------------------------------------------------------


def test_replay_and_report_views_show_slots_mappings_and_the_comparison() -> None:
    from rich.console import Console

    from interview_cli.analysis.report import dual_graph_rows
    from interview_cli.analysis.sources import SessionSource
    from interview_cli.ui.interview import dual_graph_table, slot_discovery_view

    session = conduct(OfflineLLM(0)).session
    lines = [slot_discovery_view(t.slot_discovery) for t in session.turns]
    text = "\n".join(str(line) for line in lines if line is not None)
    assert "+ s1 " in text and "active (support 2)" in text and "→ s" in text
    assert slot_discovery_view({}) is None

    (row,) = dual_graph_rows([SessionSource(path=Path("x.json"), session=session)])
    assert row["id"] == session.id and row["unmapped"] == 0
    assert row["surface_nodes"] == len(session.graph["nodes"])
    assert row["canonical_slots"] == len(session.canonical["slots"])
    console = Console(width=100, record=True)
    console.print(dual_graph_table([row]))
    assert "Surface vs canonical graph" in console.export_text()


def test_a_session_with_the_embedding_tier_replays_with_it() -> None:
    from interview_cli.analysis.replay import replay

    class Toy:
        """Every pair of labels about the train is close; nothing else is."""

        def similarity(self, a: str, b: str) -> float:
            return 0.9 if "train" in a and "train" in b else 0.0

    session = conduct(OfflineLLM(0), embedder=Toy()).session
    assert session.settings.enable_embeddings
    tiers = [m.tier for t in session.turns for m in t.graph_delta.nodes_merged]
    assert "embedding" in tiers  # "can concentrate on the train" folded into "can focus on ..."
    steps = list(replay(session, embedder=Toy()))
    assert [s.outcome.decision.global_signals for s in steps] == [
        t.signals for t in session.completed_turns
    ]
    assert steps[-1].after.canonical.to_dict() == session.canonical
    fuzzy_only = list(
        replay(
            session.model_copy(
                update={
                    "settings": session.settings.model_copy(update={"enable_embeddings": False})
                }
            )
        )
    )
    assert fuzzy_only[-1].after.to_dict()["graph"] != session.graph  # the tier mattered


def test_run_and_batch_flags_switch_the_dual_graph(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from interview_cli.cli.app import app

    runner = CliRunner()
    base = ["--library", str(ROOT), "--sessions-dir", str(tmp_path / "s")]
    args = ["run", "-c", "headphones_mec", "--provider", "offline", *base]
    for flags, slots, hints in (
        ([], True, False),
        (["--no-canonical-slots", "--discourse-hints"], False, True),
    ):
        result = runner.invoke(
            app, [*args, *flags], input="I like the sound because it is clear\n/quit\n"
        )
        assert result.exit_code == 0, result.output
        newest = max((tmp_path / "s").glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
        data = json.loads(newest.read_text())
        assert (data["settings"]["enable_canonical_slots"], bool(data["canonical"])) == (
            slots,
            slots,
        )
        assert bool(data["turns"][0]["discourse_hints"]) is hints
    out = tmp_path / "batch"
    result = runner.invoke(
        app,
        [
            "batch",
            "cooperative",
            "-c",
            "headphones_mec",
            "--runs",
            "1",
            "--max-turns",
            "3",
            "--no-canonical-slots",
            "--out",
            str(out),
            "--library",
            str(ROOT),
        ],
    )
    assert result.exit_code == 0, result.output
    (session,) = [json.loads(p.read_text()) for p in out.glob("*-r1.json")]
    assert session["settings"]["enable_canonical_slots"] is False and session["canonical"] == {}
