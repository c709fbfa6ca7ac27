"""One pure decision per turn: signals -> candidates -> vetoes -> scoring -> continuation.

This is the "Strategy Selection" and "Continuation" half of seed 001's turn pipeline (stages 6
and 7) as a single function of recorded values, so the live pipeline and ``replay`` run exactly
the same code: ``decide(DecisionInputs) -> Decision`` (ARCHITECTURE principle 3). Inputs are
the state AFTER this turn's graph update, tracker update (register, edges, yield) and the
response-depth append to the previous focus; the focus update for the selected node happens
afterwards, in the caller (seed 002 Path 2 "critical ordering").

``DecisionInputs.to_dict``/``from_dict`` make every input JSON-able, so a decision can be
reproduced from a session file alone; ``Decision.to_dict``/``from_dict`` record the outcome with
its full score decomposition and a human rationale (used by ``/why`` and question prompts,
seed 001 "Signal Rationale in Prompts").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from interview_cli.config.schemas import RECORDED, Methodology, StrategySpec
from interview_cli.config.signal_catalogue import resolve_weight_key
from interview_cli.config.study import APPEALING_REACTIONS
from interview_cli.core.coverage import CoverageState
from interview_cli.core.decide.continuation import Continuation, StopInputs, decide_stopping
from interview_cli.core.decide.moderation import break_focus_tie
from interview_cli.core.decide.phase import Phase, phase_for_turn
from interview_cli.core.decide.scored import NodeInfo, Ranking, ScoredCandidate, candidate_key
from interview_cli.core.decide.scoring import rank_candidates
from interview_cli.core.decide.steer import SteerRequest, honour_steer
from interview_cli.core.decide.vetoes import FocusEntry, VetoContext, VetoRecorder
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.node_link import from_json, to_json
from interview_cli.core.models import Assessment
from interview_cli.core.signals import (
    CanonicalInfo,
    DetectedSignals,
    SignalContext,
    SignalValue,
    TrendState,
    detect_signals,
)
from interview_cli.core.state import GraphState, SaturationMetrics, VelocityState
from interview_cli.core.tracker import NodeStateTracker

DECISION_CANDIDATES = 10  # recorded: the top 10, the best of each strategy, every vetoed one
RATIONALE_CONTRIBUTIONS = 3


@dataclass(frozen=True)
class DecisionInputs:
    """Everything the decision of one turn depends on; nothing else is read."""

    methodology: Methodology
    tracker: NodeStateTracker
    turn_number: int
    max_turns: int
    graph: KnowledgeGraph | None = None
    graph_state: GraphState | None = None
    saturation: SaturationMetrics | None = None
    velocity: VelocityState | None = None
    trend: TrendState = field(default_factory=TrendState)
    assessment: Assessment | None = None
    strategy_history: tuple[str, ...] = ()
    focus_history: tuple[FocusEntry, ...] = ()
    coverage: CoverageState | None = None
    canonical: CanonicalInfo = field(default_factory=CanonicalInfo)
    recent_questions: tuple[str, ...] = ()
    must_cover: tuple[str, ...] = ()  # the concept's guide topics (``core.guide``)
    steer: SteerRequest | None = None  # the node the respondent asked to go back to

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"must_cover": list(self.must_cover)} if self.must_cover else {}
        if self.steer is not None:  # written only when asked: older inputs keep their shape
            extra["steer"] = self.steer.to_dict()
        return {
            **extra,
            "methodology": self.methodology.model_dump(mode="json"),
            "tracker": self.tracker.to_dict(),
            "turn_number": self.turn_number,
            "max_turns": self.max_turns,
            "graph": None if self.graph is None else to_json(self.graph),
            "graph_state": _dump(self.graph_state),
            "saturation": _dump(self.saturation),
            "velocity": _dump(self.velocity),
            "trend": self.trend.to_dict(),
            "assessment": _dump(self.assessment),
            "strategy_history": list(self.strategy_history),
            "focus_history": [f.to_dict() for f in self.focus_history],
            "coverage": _dump(self.coverage),
            "canonical": self.canonical.to_dict(),
            "recent_questions": list(self.recent_questions),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DecisionInputs:
        return cls(
            methodology=Methodology.model_validate(data["methodology"], context=RECORDED),
            tracker=NodeStateTracker.from_dict(data["tracker"]),
            turn_number=data["turn_number"],
            max_turns=data["max_turns"],
            graph=None if data.get("graph") is None else from_json(data["graph"]),
            graph_state=_load(GraphState, data.get("graph_state")),
            saturation=_load(SaturationMetrics, data.get("saturation")),
            velocity=_load(VelocityState, data.get("velocity")),
            trend=TrendState.from_dict(data.get("trend")),
            assessment=_load(Assessment, data.get("assessment")),
            strategy_history=tuple(data.get("strategy_history", ())),
            focus_history=tuple(FocusEntry.from_dict(f) for f in data.get("focus_history", ())),
            coverage=_load(CoverageState, data.get("coverage")),
            canonical=CanonicalInfo.from_dict(data.get("canonical")),
            recent_questions=tuple(data.get("recent_questions", ())),
            must_cover=tuple(data.get("must_cover", ())),
            steer=SteerRequest.from_dict(data.get("steer")),
        )


def _dump(model: Any) -> Any:
    return None if model is None else model.model_dump(mode="json")


def _load(model: Any, data: Any) -> Any:
    return None if data is None else model.model_validate(data)


@dataclass(frozen=True)
class SelectedFocus:
    """The selected strategy and its focus: a node, or (an element strategy, seed 004
    ``cover_element``) the stimulus element its question raises, or neither."""

    strategy: str
    node_id: str | None
    label: str | None
    element_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        # The element only when there is one: focuses of older sessions keep their shape.
        element = {"element_id": self.element_id} if self.element_id is not None else {}
        return {"strategy": self.strategy, "node_id": self.node_id, "label": self.label, **element}


@dataclass(frozen=True)
class Decision:
    """The outcome of one turn's selection, with everything needed to explain it."""

    phase: str
    selection_mode: str
    selected: SelectedFocus
    candidates: tuple[ScoredCandidate, ...]
    global_signals: dict[str, SignalValue]
    node_signals: dict[str, dict[str, SignalValue]]
    continuation: Continuation
    rationale: tuple[str, ...]
    veto_reasons: dict[str, str] = field(default_factory=dict)
    fallback: str | None = None
    # Rules above scoring: a close call settled (moderation), a stop deferred (continuation).
    tie_break: str | None = None
    stop_deferred: str | None = None
    # The respondent's request for the next focus, taken or why not (``core.decide.steer``).
    steer: str | None = None

    @property
    def selected_candidate(self) -> ScoredCandidate | None:
        return next((c for c in self.candidates if c.selected), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "selection_mode": self.selection_mode,
            "selected": self.selected.to_dict(),
            "candidates": [c.to_dict() for c in self.candidates],
            "global_signals": dict(self.global_signals),
            "node_signals": {k: dict(v) for k, v in self.node_signals.items()},
            "continuation": self.continuation.to_dict(),
            "rationale": list(self.rationale),
            "veto_reasons": dict(self.veto_reasons),
            "fallback": self.fallback,
            # Written only when a rule fired: decisions of older sessions keep their shape.
            **({"tie_break": self.tie_break} if self.tie_break is not None else {}),
            **({"stop_deferred": self.stop_deferred} if self.stop_deferred is not None else {}),
            **({"steer": self.steer} if self.steer is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        return cls(
            phase=data["phase"],
            selection_mode=data["selection_mode"],
            selected=SelectedFocus(**data["selected"]),
            candidates=tuple(ScoredCandidate.from_dict(c) for c in data["candidates"]),
            global_signals=dict(data["global_signals"]),
            node_signals={k: dict(v) for k, v in data["node_signals"].items()},
            continuation=Continuation.from_dict(data["continuation"]),
            rationale=tuple(data["rationale"]),
            veto_reasons=dict(data.get("veto_reasons", {})),
            fallback=data.get("fallback"),
            tie_break=data.get("tie_break"),
            stop_deferred=data.get("stop_deferred"),
            steer=data.get("steer"),
        )


# --------------------------------------------------------------------------------------------


def candidate_nodes(inputs: DecisionInputs) -> dict[str, NodeInfo]:
    """Tracked nodes that can be focused: still in the graph and not superseded."""
    focusable: set[str] | None = None
    if inputs.graph is not None:
        focusable = {n.id for n in inputs.graph.nodes() if n.superseded_by is None}
    return {
        node_id: NodeInfo(label=state.label, created_turn=state.created_at_turn)
        for node_id, state in inputs.tracker.states.items()
        if focusable is None or node_id in focusable
    }


def _coverage(inputs: DecisionInputs) -> CoverageState | None:
    """The coverage state when the concept has stimulus elements (coverage mode), else None."""
    c = inputs.coverage
    return c if c is not None and c.active else None


def element_strategies(methodology: Methodology) -> frozenset[str]:
    """The strategies whose question raises a stimulus element (``focus_mode: element``)."""
    return frozenset(s.name for s in methodology.strategies if s.focus_mode == "element")


def _strategies(inputs: DecisionInputs) -> list[StrategySpec]:
    """The strategies this turn ranks: an element strategy only in a concept test (a concept
    with stimulus elements); elsewhere it has nothing to be about."""
    strategies = inputs.methodology.strategies
    if _coverage(inputs) is not None:
        return list(strategies)
    return [s for s in strategies if s.focus_mode != "element"]


def aim_at_element(
    decision: Decision, methodology: Methodology, coverage: CoverageState | None
) -> Decision:
    """``decision`` with the element its element strategy raises (``CoverageState.
    element_to_raise``); unchanged when the selected strategy raises none."""
    spec = methodology.strategy(decision.selected.strategy)
    if spec is None or spec.focus_mode != "element" or coverage is None or not coverage.active:
        return decision
    element = coverage.element_to_raise(methodology.tuning.coverage.max_raises)
    if element is None:
        return decision
    return replace(decision, selected=replace(decision.selected, element_id=element))


def _appealing(coverage: CoverageState, element_id: str) -> bool:
    reaction = coverage.latest_reaction(element_id)
    return reaction is None or reaction in APPEALING_REACTIONS


def _unappealing_nodes(inputs: DecisionInputs, coverage: CoverageState) -> frozenset[str]:
    """Nodes of elements the respondent received without appeal (negative, neutral,
    skeptical, confused), and everything said in answer to an element question that met
    none: not laddered as what the respondent just offered."""
    out: set[str] = set()
    for element_id in coverage.element_ids:
        if not _appealing(coverage, element_id):
            out.update(coverage.element_node_ids.get(element_id, []))
    last = inputs.focus_history[-1] if inputs.focus_history else None
    if (
        last is not None
        and last.element_id is not None
        and not _appealing(coverage, last.element_id)
    ):
        turn = inputs.turn_number
        out.update(n for n, s in inputs.tracker.states.items() if s.created_at_turn == turn)
    return frozenset(out)


def _veto_context(inputs: DecisionInputs) -> VetoContext:
    coverage = _coverage(inputs)
    node_elements: dict[str, tuple[str, ...]] = {}
    counts: dict[str, int] = {}
    to_raise, unappealing = None, frozenset[str]()
    if coverage is not None:
        for element_id in coverage.element_ids:  # concept order
            for node_id in coverage.element_node_ids.get(element_id, []):
                node_elements[node_id] = (*node_elements.get(node_id, ()), element_id)
        counts = dict(coverage.focus_counts)
        to_raise = coverage.element_to_raise(inputs.methodology.tuning.coverage.max_raises)
        unappealing = _unappealing_nodes(inputs, coverage)
    return VetoContext(
        tuning=inputs.methodology.tuning.vetoes,
        ran_without=inputs.methodology.tuning.ran_without,
        tracker=inputs.tracker,
        turn_number=inputs.turn_number,
        focus_history=inputs.focus_history,
        consecutive_low_info=(
            inputs.saturation.consecutive_low_info if inputs.saturation is not None else 0
        ),
        list_closed=inputs.saturation is not None and inputs.saturation.list_closed,
        node_elements=node_elements,
        element_focus_counts=counts,
        graph=inputs.graph,
        element_to_raise=to_raise,
        unappealing=unappealing,
        puzzled=inputs.assessment is not None and inputs.assessment.puzzled,
    )


def _recorded_candidates(ranking: Ranking) -> tuple[ScoredCandidate, ...]:
    keep: list[ScoredCandidate] = []
    seen_strategies: set[tuple[str, str]] = set()
    top_by_stage: dict[str, int] = {}
    for c in ranking.candidates:
        n = top_by_stage.get(c.stage, 0)
        first_of_strategy = (c.stage, c.strategy) not in seen_strategies
        seen_strategies.add((c.stage, c.strategy))
        if n < DECISION_CANDIDATES or first_of_strategy or c.vetoed_by or c.selected:
            keep.append(c)
        top_by_stage[c.stage] = n + 1
    return tuple(keep)


def _element_line(decision: Decision, coverage: CoverageState | None) -> tuple[str, ...]:
    """The rationale's line on the element an element question raises."""
    element = decision.selected.element_id
    if element is None or coverage is None:
        return ()
    missing = len(coverage.missing)
    return (
        f"raises stimulus element '{element}': not mentioned yet "
        f"({missing} of {len(coverage.element_ids)} elements not mentioned)",
    )


def _describe_focus(c: ScoredCandidate) -> str:
    return f"{c.strategy} on '{c.node_label}'" if c.node_id is not None else c.strategy


def _describe_value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value).lower() if isinstance(value, bool) else str(value)


def build_rationale(
    ranking: Ranking, veto_reasons: Mapping[tuple[str, str | None], str], continuation: Continuation
) -> tuple[str, ...]:
    """Why this candidate won, in short sentences: score arithmetic, the top positive signal
    contributions with the catalogue's descriptions, the runner-up, vetoes that mattered."""
    chosen = ranking.selected
    if chosen is None:
        return ("no strategy could be scored",)
    lines = [
        f"{_describe_focus(chosen)} scored {chosen.final_score:.2f} "
        f"(base {chosen.base_score:.2f} x phase weight {chosen.phase_multiplier:g} "
        f"+ bonus {chosen.phase_bonus:g})"
    ]
    positive = sorted(
        (c for c in chosen.signal_contributions if c.contribution > 0),
        key=lambda c: (-c.contribution, c.key),
    )
    for part in positive[:RATIONALE_CONTRIBUTIONS]:
        resolved = resolve_weight_key(part.key)
        description = resolved[0].description if resolved is not None else ""
        lines.append(
            f"+{part.contribution:.2f} {part.key} (value {_describe_value(part.value)})"
            + (f": {description}" if description else "")
        )
    same_stage = [c for c in ranking.candidates if c.stage == chosen.stage and not c.selected]
    runner_up = next((c for c in same_stage if c.vetoed_by is None), None)
    if runner_up is not None:
        lines.append(f"runner-up: {_describe_focus(runner_up)} at {runner_up.final_score:.2f}")
    for c in same_stage:
        if c.vetoed_by is not None and c.final_score > chosen.final_score:
            reason = veto_reasons.get((c.strategy, c.node_id), c.vetoed_by)
            lines.append(f"vetoed: {_describe_focus(c)} at {c.final_score:.2f} - {reason}")
    if ranking.fallback is not None:
        lines.append(ranking.fallback)
    if not continuation.should_continue:
        lines.append(f"interview ends: {continuation.reason}")
    return tuple(lines)


def decide(inputs: DecisionInputs) -> Decision:
    """The turn's decision from recorded inputs alone (pure; same inputs, same Decision)."""
    methodology = inputs.methodology
    phase = phase_for_turn(inputs.turn_number, inputs.max_turns, methodology.phases.boundaries)
    detected = _detect(inputs)
    nodes = candidate_nodes(inputs)
    vetoes = VetoRecorder(_veto_context(inputs))
    ranking = rank_candidates(
        methodology,
        detected.global_signals,
        detected.node_signals,
        nodes,
        phase=phase,
        veto=vetoes,
        strategies=_strategies(inputs),
    )
    if ranking.selected is None:  # pragma: no cover - a methodology always has a strategy
        raise ValueError("no candidate to select: the methodology defines no strategy")
    ranking, tie = break_focus_tie(ranking, methodology, inputs.tracker, inputs.graph)
    stopping = decide_stopping(
        ranking,
        StopInputs(
            methodology=methodology,
            tracker=inputs.tracker,
            trend=inputs.trend,
            turn_number=inputs.turn_number,
            max_turns=inputs.max_turns,
            phase=phase,
            saturation=inputs.saturation,
            focus_history=inputs.focus_history,
            focusable=frozenset(nodes),
            answer_kind=inputs.assessment.answer_kind if inputs.assessment else None,
            coverage=_coverage(inputs),
            said_tired=bool(inputs.assessment and inputs.assessment.tiring),
            said_going=bool(inputs.assessment and inputs.assessment.going),
        ),
    )
    ranking, continuation, deferred = stopping.ranking, stopping.continuation, stopping.deferred
    if deferred is not None:
        tie = None  # the guard chose another move: the close call no longer decided anything
    chosen = ranking.selected
    ranking, steered = honour_steer(
        ranking,
        continuation,
        inputs.steer,
        methodology=methodology,
        tracker=inputs.tracker,
        node_signals=detected.node_signals,
        graph=inputs.graph,
    )
    if ranking.selected is not chosen:
        tie = None  # the respondent chose: the close call no longer decided anything
    notes = _Notes(tie.describe() if tie else None, deferred, steered)
    decision = _decision(inputs, detected, ranking, vetoes.reasons, continuation, phase, notes)
    decision = aim_at_element(decision, inputs.methodology, _coverage(inputs))
    line = _element_line(decision, _coverage(inputs))
    return replace(decision, rationale=decision.rationale + line) if line else decision


def _detect(inputs: DecisionInputs) -> DetectedSignals:
    """Every signal the turn's ranking reads, global and per node."""
    return detect_signals(
        SignalContext(
            methodology=inputs.methodology,
            tracker=inputs.tracker,
            turn_number=inputs.turn_number,
            max_turns=inputs.max_turns,
            graph=inputs.graph,
            graph_state=inputs.graph_state,
            assessment=inputs.assessment,
            strategy_history=inputs.strategy_history,
            velocity=inputs.velocity,
            saturation=inputs.saturation,
            trend=inputs.trend,
            canonical=inputs.canonical,
            coverage=_coverage(inputs),
            must_cover=inputs.must_cover,
            focus_history=inputs.focus_history,
        )
    )


@dataclass(frozen=True)
class _Notes:
    """What the rules above scoring did: a close call settled, a stop deferred, the
    respondent's request for the next focus."""

    tie_break: str | None
    stop_deferred: str | None
    steer: str | None

    def lines(self) -> tuple[str, ...]:
        return tuple(n for n in (self.tie_break, self.stop_deferred, self.steer) if n)


def _decision(
    inputs: DecisionInputs,
    detected: DetectedSignals,
    ranking: Ranking,
    veto_reasons: Mapping[tuple[str, str | None], str],
    continuation: Continuation,
    phase: Phase,
    notes: _Notes,
) -> Decision:
    """The decision record: the candidates kept, and the signals and vetoes they refer to."""
    chosen = _selected(ranking)
    recorded = _recorded_candidates(ranking)
    recorded_pairs = {(c.strategy, c.node_id) for c in recorded}
    recorded_nodes = {c.node_id for c in recorded if c.node_id is not None}
    if inputs.tracker.previous_focus is not None:
        recorded_nodes.add(inputs.tracker.previous_focus)
    return Decision(
        phase=phase,
        selection_mode=ranking.mode,
        selected=SelectedFocus(chosen.strategy, chosen.node_id, chosen.node_label),
        candidates=recorded,
        global_signals=dict(detected.global_signals),
        node_signals={
            node_id: dict(values)
            for node_id, values in detected.node_signals.items()
            if node_id in recorded_nodes
        },
        continuation=continuation,
        rationale=build_rationale(ranking, veto_reasons, continuation) + notes.lines(),
        veto_reasons={
            candidate_key(strategy, node_id): reason
            for (strategy, node_id), reason in veto_reasons.items()
            if (strategy, node_id) in recorded_pairs
        },
        fallback=ranking.fallback,
        tie_break=notes.tie_break,
        stop_deferred=notes.stop_deferred,
        steer=notes.steer,
    )


def _selected(ranking: Ranking) -> ScoredCandidate:
    assert ranking.selected is not None
    return ranking.selected


def focus_entry(decision: Decision, turn: int) -> FocusEntry:
    """The focus-history entry the caller appends after acting on ``decision``."""
    s = decision.selected
    return FocusEntry(
        turn=turn, strategy=s.strategy, node_id=s.node_id, label=s.label, element_id=s.element_id
    )


__all__ = [
    "DECISION_CANDIDATES",
    "Decision",
    "DecisionInputs",
    "FocusEntry",
    "SelectedFocus",
    "aim_at_element",
    "build_rationale",
    "candidate_nodes",
    "decide",
    "element_strategies",
    "focus_entry",
]
