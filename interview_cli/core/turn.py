"""One turn of the pure core, from recorded model outputs to the next decision.

``advance(state, inputs) -> (state', outcome)`` is the pure half of seed 001's turn pipeline
(stages 4-7: graph update, node tracking, state computation, strategy selection, continuation)
in the order the seeds require (seed 003 "Data Flow", seed 002 Path 2 "critical ordering"):

    advance_turn -> apply_extraction (dedup, cross-turn edges, provenance)
    -> tracker: register, edge counts, yield -> coverage
    -> graph state -> saturation, velocity, response trend
    -> tracker: response depth (and a terminal don't-know) to the PREVIOUS focus
    -> decide (signals, candidates, vetoes, joint scoring, continuation)
    -> tracker: focus moves to the selected node; strategy and focus history

The live pipeline calls it once per answer; ``replay`` calls it over a session's recorded
extractions and assessments and must reproduce every recorded decision. ``CoreState`` is
what a session file keeps between turns (``to_dict``/``from_dict``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.core.canonical import CanonicalState
from interview_cli.core.canonical_tracking import canonical_info, slot_tracking_view
from interview_cli.core.coverage import (
    CoverageState,
    initial_coverage,
    record_node_focus,
    update_coverage,
)
from interview_cli.core.decide import Decision, DecisionInputs, decide, focus_entry
from interview_cli.core.dedup import Embedder
from interview_cli.core.graph import KnowledgeGraph, from_json, to_json
from interview_cli.core.graph_update import GraphDelta, apply_extraction
from interview_cli.core.models import NON_CONTENT_KINDS, Assessment, Extraction, RejectedItem
from interview_cli.core.policies import ADAPTIVE, apply_policy
from interview_cli.core.signals import CanonicalInfo, TrendState, update_response_trend
from interview_cli.core.signals.llm_signals import response_depth_category
from interview_cli.core.state import (
    GraphState,
    SaturationMetrics,
    VelocityState,
    compute_graph_state,
    update_saturation,
    update_velocity,
)
from interview_cli.core.tracker import (
    DONT_KNOW,
    NEW_RUNG,
    NOTHING_NEW,
    NodeStateTracker,
    advance_turn,
    append_response_signal,
    apply_graph_delta,
    record_probe_outcome,
    update_focus,
)
from interview_cli.core.vetoes import FocusEntry

HISTORY_LIMIT = 30  # seed 001: strategy_history is a deque(maxlen=30)
CORE_STATE_VERSION = 1


@dataclass(frozen=True)
class CoreState:
    """Everything the core carries from one turn to the next."""

    graph: KnowledgeGraph = field(default_factory=KnowledgeGraph)
    tracker: NodeStateTracker = field(default_factory=NodeStateTracker)
    saturation: SaturationMetrics = field(default_factory=SaturationMetrics)
    velocity: VelocityState = field(default_factory=VelocityState)
    trend: TrendState = field(default_factory=TrendState)
    strategy_history: tuple[str, ...] = ()
    focus_history: tuple[FocusEntry, ...] = ()
    coverage: CoverageState | None = None
    turn_count: int = 0

    @classmethod
    def initial(cls, concept: Concept) -> CoreState:
        return cls(coverage=initial_coverage(concept) if concept.elements else None)

    # The session file keeps the graph and the tracker in fields of their own.
    def to_dict(self) -> dict[str, Any]:
        return {
            "graph": to_json(self.graph),
            "tracker": self.tracker.to_dict(),
            "state": {
                "version": CORE_STATE_VERSION,
                "turn_count": self.turn_count,
                "saturation": self.saturation.model_dump(mode="json"),
                "velocity": self.velocity.model_dump(mode="json"),
                "trend": self.trend.to_dict(),
                "strategy_history": list(self.strategy_history),
                "focus_history": [f.to_dict() for f in self.focus_history],
                "coverage": None
                if self.coverage is None
                else self.coverage.model_dump(mode="json"),
            },
        }

    @classmethod
    def from_dict(
        cls,
        *,
        graph: Mapping[str, Any] | None,
        tracker: Mapping[str, Any] | None,
        state: Mapping[str, Any] | None,
        concept: Concept,
    ) -> CoreState:
        if not state:
            base = cls.initial(concept)
            return replace(
                base,
                graph=from_json(graph) if graph else base.graph,
                tracker=NodeStateTracker.from_dict(tracker or None),
            )
        coverage = state.get("coverage")
        return cls(
            graph=from_json(graph) if graph else KnowledgeGraph(),
            tracker=NodeStateTracker.from_dict(tracker or None),
            saturation=SaturationMetrics.model_validate(state.get("saturation") or {}),
            velocity=VelocityState.model_validate(state.get("velocity") or {}),
            trend=TrendState.from_dict(state.get("trend")),
            strategy_history=tuple(state.get("strategy_history", ())),
            focus_history=tuple(FocusEntry.from_dict(f) for f in state.get("focus_history", ())),
            coverage=CoverageState.model_validate(coverage) if coverage else None,
            turn_count=int(state.get("turn_count", 0)),
        )


def content_of(extraction: Extraction, assessment: Assessment | None) -> Extraction:
    """The extraction the graph takes: none of it when the reply is not an answer.

    "I already said that", "can we move on" and remarks about the interview itself carry no
    content about the topic; whatever a model extracted from them ("again", "headphones")
    would become the next question's focus. It is dropped, each item with the reason.
    """
    kind = assessment.answer_kind if assessment is not None else "answer"
    if kind not in NON_CONTENT_KINDS or not (extraction.nodes or extraction.edges):
        return extraction
    reason = f"the reply is '{kind}', not an answer about the topic"
    dropped = [
        *(RejectedItem(kind="node", item=n.model_dump(), reason=reason) for n in extraction.nodes),
        *(RejectedItem(kind="edge", item=e.model_dump(), reason=reason) for e in extraction.edges),
    ]
    return Extraction(
        extractable=False, reason=reason, rejected=[*extraction.rejected, *dropped]
    )


def probe_outcome(delta: GraphDelta, assessment: Assessment | None) -> str:
    """What the previous question brought: a new node, or why not (``tracker.PROBE_OUTCOMES``)."""
    if delta.nodes_added:
        return NEW_RUNG
    kind = assessment.answer_kind if assessment is not None else "answer"
    if kind != "answer":
        return kind
    if assessment is not None and assessment.knowledge_ceiling != "none":
        return DONT_KNOW
    return NOTHING_NEW


@dataclass(frozen=True)
class TurnOutcome:
    turn_number: int
    delta: GraphDelta
    graph_state: GraphState
    response_depth: str | None
    decision: Decision


def advance(
    state: CoreState,
    *,
    methodology: Methodology,
    concept: Concept,
    extraction: Extraction,
    assessment: Assessment | None,
    utterance_id: str,
    max_turns: int,
    recent_questions: Sequence[str] = (),
    canonical: CanonicalInfo | None = None,
    policy: str = ADAPTIVE,
    slots: CanonicalState | None = None,
    embedder: Embedder | None = None,
) -> tuple[CoreState, TurnOutcome]:
    """Process one answer's recorded model outputs; ``state`` is not modified.

    ``slots`` (canonical slots on): the canonical state as of the end of the previous turn
    (``core.canonical``); the decision then reads the canonical signals and tracks nodes
    through their slots (``core.canonical_tracking``). ``embedder``: the optional embedding
    tier for surface de-duplication. Both None: the surface-only core, unchanged.

    A ``policy`` other than ``adaptive`` replaces the selection with a baseline's
    (``core.policies``, ``interview batch --policy``); the session records which one ran.
    """
    m = methodology
    sat = m.tuning.saturation
    turn = state.turn_count + 1
    graph = state.graph.copy()  # apply_extraction works in place; keep ``state`` untouched

    content = content_of(extraction, assessment)
    delta = apply_extraction(
        graph, content, methodology=m, utterance_id=utterance_id, turn=turn, embedder=embedder
    )
    if content is not extraction:
        delta.rejected.extend(content.rejected)
    tracker = advance_turn(state.tracker, turn)
    tracker = apply_graph_delta(tracker, graph, delta, methodology=m, turn=turn)
    coverage = state.coverage
    if coverage is not None:
        coverage = update_coverage(
            coverage, graph=graph, concept=concept, extraction=extraction, delta=delta
        )

    graph_state = compute_graph_state(graph, m, turn)
    depth = response_depth_category(assessment.response_depth.score) if assessment else None
    saturation = update_saturation(
        state.saturation,
        nodes_added=len(delta.nodes_added),
        edges_added=len(delta.edges_added),
        response_depth=depth,
        max_depth=graph_state.max_depth,
        mention_counts=graph.mention_counts(),
        tuning=sat,
    )
    trend = update_response_trend(
        state.trend, assessment, sat.fatigue_alpha, fatigue_threshold=sat.fatigue_threshold
    )
    tracker = append_response_signal(
        tracker, depth, assessment.knowledge_ceiling if assessment else None
    )
    tracker = record_probe_outcome(tracker, probe_outcome(delta, assessment))
    # Scoring reads paraphrases through their slot; the tracker carried forward stays per node.
    decision_tracker = tracker
    if slots is not None:
        decision_tracker = slot_tracking_view(tracker, slots, state.focus_history)
        if canonical is None:
            canonical = canonical_info(slots, graph=graph, tracker=decision_tracker, methodology=m)
    canonical = canonical or CanonicalInfo()
    velocity = update_velocity(
        state.velocity,
        surface_node_count=graph.node_count,
        canonical_node_count=canonical.concept_count,
        alpha=sat.ewma_alpha,
    )

    decision = decide(
        inputs := DecisionInputs(
            methodology=m,
            tracker=decision_tracker,
            turn_number=turn,
            max_turns=max_turns,
            graph=graph,
            graph_state=graph_state,
            saturation=saturation,
            velocity=velocity,
            trend=trend,
            assessment=assessment,
            strategy_history=state.strategy_history,
            focus_history=state.focus_history,
            coverage=coverage,
            canonical=canonical,
            recent_questions=tuple(recent_questions),
        )
    )
    if policy != ADAPTIVE:
        decision = apply_policy(policy, decision, inputs)

    selected = decision.selected
    tracker = update_focus(tracker, selected.node_id, turn, selected.strategy)
    if coverage is not None:
        coverage = record_node_focus(
            coverage, selected.node_id, max_focus=m.tuning.vetoes.element_max_focus
        )
    new_state = CoreState(
        graph=graph,
        tracker=tracker,
        saturation=saturation,
        velocity=velocity,
        trend=trend,
        strategy_history=(*state.strategy_history, selected.strategy)[-HISTORY_LIMIT:],
        focus_history=(*state.focus_history, focus_entry(decision, turn))[-HISTORY_LIMIT:],
        coverage=coverage,
        turn_count=turn,
    )
    return new_state, TurnOutcome(turn, delta, graph_state, depth, decision)
