"""One turn of the pure core, from recorded model outputs to the next decision.

``advance(state, TurnInput) -> (state', TurnOutcome)`` is the whole pure turn of seed 001's
pipeline (stages 4-7: graph update, node tracking, state computation, strategy selection,
continuation, and the canonical slot step) in the order the seeds require (seed 003 "Data Flow",
seed 002 Path 2 "critical ordering"):

    advance_turn -> apply_extraction (dedup, cross-turn edges, provenance)
    -> tracker: register, edge counts, yield -> coverage
    -> graph state -> saturation, velocity, response trend
    -> tracker: response depth (and a terminal don't-know) to the PREVIOUS focus
    -> decide (signals, candidates, vetoes, joint scoring, continuation)
    -> tracker: focus moves to the selected node; strategy and focus history
    -> canonical slots (dual graph): the turn's slot proposals are applied (``core.canonical``)

Slot proposals come from a model call that needs the updated graph and overlaps question
generation, so the turn has two halves: ``decide_turn`` (everything up to the decision) and
``DecidedTurn.settle`` (the slot step); ``decide_turn`` is itself ``answer_turn`` (up to the
tool's own decision) and ``AnsweredTurn.decide`` (the moderator's choice over it, which /alt
makes from that decision). ``advance`` is the whole turn in one call, on recorded inputs:
replay, verify, what-if and the benchmarks call it; the live pipeline calls the two halves
around its model calls. Either way the same code runs. ``CoreState`` is what a session file
keeps between turns (``to_dict``/``from_dict``).

The turn also decides what the interview does about the answer's safety reading
(``safety_response``: the methodology's response to it, the careful path when there was no
reading) and why the interview ends after it (``TurnOutcome.termination_reason``); the shell
only says and saves what was decided, so ``replay --verify`` checks both. The closing answer
takes the first stage of a turn (``take_closing_answer``, then ``settle_closing``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from interview_cli.config.schemas import Concept, Methodology, StrategySpec
from interview_cli.config.study import SafetyResponse
from interview_cli.config.tuning import QUESTION_HISTORY
from interview_cli.core.canonical.proposals import apply_slot_proposals
from interview_cli.core.canonical.slots import (
    CANONICAL_STATE_VERSION,
    CanonicalState,
    SlotBatch,
    SlotDiscoveryRecord,
    pending_slot_batches,
)
from interview_cli.core.canonical.tracking import canonical_info, slot_tracking_view
from interview_cli.core.coverage import (
    CoverageState,
    initial_coverage,
    record_node_focus,
    record_raise,
    update_coverage,
)
from interview_cli.core.decide.continuation import Continuation
from interview_cli.core.decide.decision import (
    Decision,
    DecisionInputs,
    aim_at_element,
    decide,
    focus_entry,
)
from interview_cli.core.decide.moderator import (
    ModeratorChoice,
    mark_skipped,
    note_skip,
    take_alternative,
)
from interview_cli.core.decide.policies import ADAPTIVE, apply_policy
from interview_cli.core.decide.scored import ScoredCandidate
from interview_cli.core.decide.steer import SteerRequest, resolve_steer
from interview_cli.core.decide.vetoes import FocusEntry
from interview_cli.core.graph.dedup import Embedder
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.node_link import from_json, to_json
from interview_cli.core.graph.update import GraphDelta, apply_extraction
from interview_cli.core.models import NON_CONTENT_KINDS, Assessment, Extraction, RejectedItem
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
    MOVE_ON,
    NEW_RUNG,
    NOTHING_NEW,
    NodeStateTracker,
    advance_turn,
    append_response_signal,
    apply_graph_delta,
    record_probe_outcome,
    update_focus,
)

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
    # The canonical half of the dual graph; None when canonical slots are off.
    canonical: CanonicalState | None = None

    @classmethod
    def initial(
        cls, concept: Concept, *, slots: bool = False, slot_rules: int = CANONICAL_STATE_VERSION
    ) -> CoreState:
        """``slot_rules``: the canonical state version to build slots by (a replay passes the
        one the session ran with)."""
        return cls(
            coverage=initial_coverage(concept) if concept.elements else None,
            canonical=CanonicalState(version=slot_rules) if slots else None,
        )

    # The session file keeps the graph, the tracker and the canonical state in fields of their own.
    def to_dict(self) -> dict[str, Any]:
        dumped = self._dump()
        if self.canonical is not None:
            dumped["canonical"] = self.canonical.to_dict()
        return dumped

    def _dump(self) -> dict[str, Any]:
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
        canonical: Mapping[str, Any] | None = None,
    ) -> CoreState:
        """``canonical``: the session's canonical state when slots are on (``{}`` before the
        first turn), None when they are off."""
        slots = None if canonical is None else CanonicalState.from_dict(canonical)
        if not state:
            base = cls.initial(concept)
            return replace(
                base,
                graph=from_json(graph) if graph else base.graph,
                tracker=NodeStateTracker.from_dict(tracker or None),
                canonical=slots,
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
            canonical=slots,
        )


HISTORY_LIMIT = 30  # seed 001: strategy_history is a deque(maxlen=30)


def recent_questions(asked: Sequence[str]) -> tuple[str, ...]:
    """The window of ``asked`` (questions up to and including this turn's) a decision reads."""
    return tuple(asked[-QUESTION_HISTORY:])


def kept_steer(extraction: Extraction, assessment: Assessment | None) -> str | None:
    """The reply's request to go back to something ("Can we go back to the charging?" asks
    for a node, whatever the reply's kind), unless a safety reading dropped it with the rest
    of the reply."""
    safety = assessment.safety if assessment is not None else "none"
    return extraction.steer if safety == "none" else None


def content_of(extraction: Extraction, assessment: Assessment | None) -> Extraction:
    """The extraction the graph takes: none of it when the reply is not an answer.

    "I already said that", "can we move on" and remarks about the interview itself carry no
    content about the topic; whatever a model extracted from them ("again", "headphones")
    would become the next question's focus. It is dropped, each item with the reason; so is
    what a reply read as distress, abuse or off-topic talk held (``Assessment.safety``).
    """
    kind = assessment.answer_kind if assessment is not None else "answer"
    safety = assessment.safety if assessment is not None else "none"
    steer = kept_steer(extraction, assessment)
    # so does taking something back ("that was a joke"): what the reply was, it disowns
    retracted = extraction.retracted if safety == "none" else []
    if not (extraction.nodes or extraction.edges):
        return (
            extraction
            if steer == extraction.steer and retracted == extraction.retracted
            else extraction.model_copy(update={"steer": steer, "retracted": retracted})
        )
    if safety != "none":  # distress, abuse or off-topic talk is never the next topic
        reason = f"the reply reads as '{safety}', not an answer about the topic"
    elif kind in NON_CONTENT_KINDS:
        reason = f"the reply is '{kind}', not an answer about the topic"
    else:
        return extraction
    # "It doesn't, I said. Can we go back to the independence thing?": the thing they ask to
    # talk about stays, whatever else the reply was (a safety reading took the steer away)
    asked_for = [n for n in extraction.nodes if steer is not None and n.label == steer]
    dropped = [
        *(
            RejectedItem(kind="node", item=n.model_dump(), reason=reason)
            for n in extraction.nodes
            if n not in asked_for
        ),
        *(RejectedItem(kind="edge", item=e.model_dump(), reason=reason) for e in extraction.edges),
    ]
    rejected = [*extraction.rejected, *dropped]
    return Extraction(
        extractable=bool(asked_for),
        reason=reason,
        nodes=asked_for,
        rejected=rejected,
        steer=steer,
        retracted=retracted,
    )


def answer_into_graph(
    state: CoreState,
    extraction: Extraction,
    assessment: Assessment | None,
    methodology: Methodology,
    utterance_id: str,
    embedder: Embedder | None = None,
) -> tuple[KnowledgeGraph, Extraction, GraphDelta]:
    """The first step of every answer, the closing one's too: its content (``content_of``)
    applied to a copy of ``state``'s graph as the turn after ``state``'s (de-duplication,
    cross-turn edges, provenance). Returns the graph, the content and the delta, which also
    lists what a non-answer's extraction held and why it went; ``state`` is not modified."""
    graph = state.graph.copy()  # apply_extraction works in place
    content = content_of(extraction, assessment)
    delta = apply_extraction(
        graph,
        content,
        methodology=methodology,
        utterance_id=utterance_id,
        turn=state.turn_count + 1,
        embedder=embedder,
    )
    if content is not extraction:
        delta.rejected.extend(content.rejected[len(extraction.rejected) :])
    return graph, content, delta


def _ceiling(assessment: Assessment | None) -> str | None:
    """The knowledge ceiling the answer reached: none when they did not know what the question
    asks ("I don't know what you're asking" is no don't-know about the topic)."""
    if assessment is None:
        return None
    return "none" if assessment.puzzled else assessment.knowledge_ceiling


def probe_outcome(
    delta: GraphDelta, assessment: Assessment | None, focus: str | None = None
) -> str:
    """What the previous question (on ``focus``) brought: a new node, or a new link from or to
    the focus (a climb onto a rung said before: ladders often meet at a shared value), or why
    it brought nothing (``tracker.PROBE_OUTCOMES``)."""
    if delta.nodes_added:
        return NEW_RUNG
    if focus is not None and any(focus in (e.source, e.target) for e in delta.edges_added):
        return NEW_RUNG
    kind = assessment.answer_kind if assessment is not None else "answer"
    if kind != "answer":
        return kind
    if _ceiling(assessment) not in (None, "none"):
        return DONT_KNOW
    return NOTHING_NEW


@dataclass(frozen=True)
class TurnInput:
    """Everything one turn decides from: the recorded model outputs and the session's settings.

    ``recent_questions``: the questions up to and including this turn's (``recent_questions()``
    cuts the window). ``slot_proposals``: the turn's answered ``propose_slots`` batches, for
    ``advance`` (the live pipeline passes them to ``DecidedTurn.settle`` instead).
    """

    methodology: Methodology
    concept: Concept
    extraction: Extraction
    assessment: Assessment | None
    utterance_id: str
    max_turns: int
    recent_questions: tuple[str, ...] = ()
    policy: str = ADAPTIVE
    slot_proposals: tuple[SlotBatch, ...] = ()
    moderator: ModeratorChoice | None = None


@dataclass(frozen=True)
class SafetyDecision:
    """What the interview does about an answer's safety reading (``kind``): ``redirect`` says
    ``message`` before the next question, ``pause`` says it and pauses the session, ``end``
    says it and ends the session with ``code`` as its reason (``config.study.SafetySpec``)."""

    kind: str
    action: str
    message: str = ""
    code: str = ""


def safety_response(
    assessment: Assessment | None, methodology: Methodology
) -> SafetyDecision | None:
    """The methodology's response to the answer's safety reading; None when there is nothing to
    do (no concern, or a ``continue``). Fails closed: an answer with no reading (``unchecked``:
    the assessor failed or wrote none) gets the careful path, ``safety.unchecked``.
    ``assessment`` None: the turn was given no reading to act on (a core decided without a
    reader); the live pipeline always passes one (``Assessment.neutral()`` when it failed)."""
    if assessment is None or assessment.safety == "none":
        return None
    response = methodology.safety.response(assessment.safety)
    if response is None or response.action == "continue":
        return None
    code = end_code(assessment.safety, response) if response.action == "end" else response.code
    return SafetyDecision(assessment.safety, response.action, response.message, code)


def end_code(kind: str, response: SafetyResponse) -> str:
    """The end reason a safety end records: its configured code, else ``ended_<kind>``."""
    return response.code or f"ended_{kind}"


STOPPED = "stopped"  # the end reason of a stop that names none


@dataclass(frozen=True)
class TurnOutcome:
    """What a turn produced. ``slot_discovery``: what the slot step did (None until it ran,
    and when canonical slots are off). ``decision`` is the one acted on; ``tool_decision``
    the tool's own when the moderator overruled it (None otherwise). ``safety``: what the
    interview does about the answer's safety reading (None: nothing)."""

    turn_number: int
    delta: GraphDelta
    graph_state: GraphState
    response_depth: str | None
    decision: Decision
    slot_discovery: SlotDiscoveryRecord | None = None
    tool_decision: Decision | None = None
    safety: SafetyDecision | None = None
    # what the answer asked to talk about next, resolved to a node (``core.decide.steer``);
    # taken when the decision's focus is that node
    steer: SteerRequest | None = None

    @property
    def termination_reason(self) -> str | None:
        """Why the interview ends after this turn: a safety end's code, else the stop's reason;
        None while it goes on (a safety pause ends nothing: the session is resumable)."""
        if self.safety is not None and self.safety.action == "end":
            return self.safety.code
        if not self.should_continue:
            return self.decision.continuation.reason or STOPPED
        return None

    @property
    def tool(self) -> Decision:
        """The tool's decision (with its candidates and signals), overruled or not."""
        return self.tool_decision if self.tool_decision is not None else self.decision

    @property
    def signals(self) -> Mapping[str, Any]:
        return self.decision.global_signals

    @property
    def candidates(self) -> Sequence[ScoredCandidate]:
        return self.decision.candidates

    @property
    def continuation(self) -> Continuation:
        return self.decision.continuation

    @property
    def should_continue(self) -> bool:
        return self.decision.continuation.should_continue


def closing_strategy(methodology: Methodology) -> StrategySpec:
    """The strategy of the closing question: the methodology's own, else a plain thank-you."""
    closing = [s for s in methodology.strategies if s.generates_closing_question]
    if closing:
        return closing[0]
    return StrategySpec(
        name="close",
        description="Thank the respondent and invite any last thought.",
        family="summary",
        node_binding="none",
        focus_mode="summary",
        generates_closing_question=True,
    )


@dataclass(frozen=True)
class DecidedTurn:
    """A turn up to its decision; the canonical slot step waits for the turn's proposals.

    ``state`` already holds the new graph, tracker and histories; its canonical state is still
    the previous turn's until ``settle`` applies the proposals.
    """

    state: CoreState
    outcome: TurnOutcome
    methodology: Methodology
    embedder: Embedder | None = None

    def slot_batches(self) -> list[SlotBatch]:
        """The new labels to ask ``propose_slots`` about (none when slots are off)."""
        if self.state.canonical is None:
            return []
        tuning = self.methodology.tuning.canonical
        return pending_slot_batches(self.state.canonical, self.state.graph, tuning=tuning)

    def next_strategy(self) -> StrategySpec:
        """The strategy of the next question: the selected one, or the closing one."""
        if not self.outcome.should_continue:
            return closing_strategy(self.methodology)
        strategy = self.methodology.strategy(self.outcome.decision.selected.strategy)
        assert strategy is not None  # decide selects among the methodology's strategies
        return strategy

    def settle(self, proposals: Sequence[SlotBatch] = ()) -> tuple[CoreState, TurnOutcome]:
        """End of turn: fold the proposals into the canonical state. Every turn, so canonical
        edges follow the surface graph even when no node is new; the next turn's scoring reads
        the result."""
        if self.state.canonical is None:
            return self.state, self.outcome
        canonical, record = apply_slot_proposals(
            self.state.canonical,
            list(proposals),
            graph=self.state.graph,
            turn=self.outcome.turn_number,
            tuning=self.methodology.tuning.canonical,
            embedder=self.embedder,
        )
        return (
            replace(self.state, canonical=canonical),
            replace(self.outcome, slot_discovery=record),
        )


def advance(
    state: CoreState, inputs: TurnInput, *, embedder: Embedder | None = None
) -> tuple[CoreState, TurnOutcome]:
    """One whole turn on recorded inputs; ``state`` is not modified.

    ``embedder``: the optional embedding tier for surface de-duplication (None: fuzzy only).
    """
    return decide_turn(state, inputs, embedder=embedder).settle(inputs.slot_proposals)


@dataclass(frozen=True)
class _Updated:
    """The state of a turn after its answer, before its decision."""

    graph: KnowledgeGraph
    delta: GraphDelta
    tracker: NodeStateTracker
    coverage: CoverageState | None
    graph_state: GraphState
    depth: str | None
    saturation: SaturationMetrics
    trend: TrendState
    steer: SteerRequest | None = None


def _take_answer(state: CoreState, inputs: TurnInput, embedder: Embedder | None) -> _Updated:
    """Graph update, node tracking and state computation for one answer."""
    m, assessment = inputs.methodology, inputs.assessment
    sat = m.tuning.saturation
    turn = state.turn_count + 1
    graph, content, delta = answer_into_graph(
        state, inputs.extraction, assessment, m, inputs.utterance_id, embedder
    )
    levels = m.ontology.levels
    follow = levels if m.tuning.vetoes.steer_follows_what_was_said else None
    steer, refused = resolve_steer(
        graph, content.steer, delta, follow=follow, doubted=m.tuning.vetoes.doubts
    )
    if refused is not None:
        delta.rejected.append(refused)
    tracker = advance_turn(state.tracker, turn)
    tracker = apply_graph_delta(tracker, graph, delta, methodology=m, turn=turn)
    coverage = state.coverage
    if coverage is not None:
        coverage = update_coverage(
            coverage, graph=graph, concept=inputs.concept, extraction=content, delta=delta
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
        answer_kind=assessment.answer_kind if assessment else None,
        knowledge_ceiling=_ceiling(assessment),
        breadth_answer=_answers_breadth_check(state, m),
        ran_without=m.tuning.ran_without,
        disowned=bool(delta.retracted),
    )
    trend = update_response_trend(
        state.trend,
        assessment,
        sat.fatigue_alpha,
        fatigue_threshold=sat.fatigue_threshold,
        productive_floor=sat.productive_answer_quality if delta.nodes_added else 0.0,
    )
    tracker = append_response_signal(tracker, depth, _ceiling(assessment))
    outcome = probe_outcome(delta, assessment, focus=tracker.previous_focus)
    left = tracker.previous_focus
    back_to = steer.node_id if steer is not None else None
    said_before = back_to is not None and all(n.node_id != back_to for n in delta.nodes_added)
    if m.tuning.vetoes.steer_leaves_focus and said_before and left not in (None, back_to):
        # they asked to go back to something else: the node asked about is left (not what
        # this answer says matters most, which goes on from it: "Keeping them light is the
        # thing", the review)
        outcome = MOVE_ON
    tracker = record_probe_outcome(tracker, outcome)
    return _Updated(graph, delta, tracker, coverage, graph_state, depth, saturation, trend, steer)


def _answers_breadth_check(state: CoreState, m: Methodology) -> bool:
    """The answer being taken replies to a breadth check ("what else matters ...?")."""
    last = state.focus_history[-1] if state.focus_history else None
    if last is None or last.turn != state.turn_count:
        return False
    spec = m.strategy(last.strategy)
    return spec is not None and spec.breadth_check


def _after_decision(
    state: CoreState, u: _Updated, velocity: VelocityState, decision: Decision, m: Methodology
) -> CoreState:
    """The state the next turn starts from: focus on the selected node, histories extended."""
    turn = state.turn_count + 1
    selected = decision.selected
    tracker = update_focus(u.tracker, selected.node_id, turn, selected.strategy)
    coverage = u.coverage
    if coverage is not None:
        max_focus = m.tuning.vetoes.element_max_focus
        coverage = record_node_focus(coverage, selected.node_id, max_focus=max_focus)
        if selected.element_id is not None and decision.continuation.should_continue:
            # raised by the next question, asked as the next turn's
            coverage = record_raise(
                coverage, selected.element_id, turn=turn + 1, max_focus=max_focus
            )
    return CoreState(
        graph=u.graph,
        tracker=tracker,
        saturation=u.saturation,
        velocity=velocity,
        trend=u.trend,
        strategy_history=(*state.strategy_history, selected.strategy)[-HISTORY_LIMIT:],
        focus_history=(*state.focus_history, focus_entry(decision, turn))[-HISTORY_LIMIT:],
        coverage=coverage,
        turn_count=turn,
        canonical=state.canonical,
    )


def decide_turn(
    state: CoreState, inputs: TurnInput, *, embedder: Embedder | None = None
) -> DecidedTurn:
    """The turn up to its decision (see ``advance``); ``state`` is not modified.

    With canonical slots on (``state.canonical``) the decision reads the canonical signals and
    tracks nodes through their slots (``core.canonical.tracking``). A ``policy`` other than
    ``adaptive`` replaces the selection with a baseline's (``core.decide.policies``). The
    moderator's choice (``inputs.moderator``) is taken over the tool's decision
    (``AnsweredTurn.decide``).
    """
    return answer_turn(state, inputs, embedder=embedder).decide(inputs.moderator)


def answer_turn(
    state: CoreState, inputs: TurnInput, *, embedder: Embedder | None = None
) -> AnsweredTurn:
    """The turn up to the tool's own decision (``inputs.moderator`` is not read)."""
    m = inputs.methodology
    u = _take_answer(state, inputs, embedder)
    views = _decision_views(state, u, m)
    velocity = update_velocity(
        state.velocity,
        surface_node_count=u.graph.node_count,
        canonical_node_count=views[1].concept_count,
        alpha=m.tuning.saturation.ewma_alpha,
    )
    tool = _decide(state, inputs, u, velocity, views)
    return AnsweredTurn(state, inputs, u, velocity, tool, embedder)


@dataclass(frozen=True)
class AnsweredTurn:
    """A turn taken up to the tool's decision (``tool``), the moderator's choice not yet.

    ``decide_turn`` in two steps, for a choice made from the tool's decision: ``/alt`` takes
    the next candidate of its ranking, then decides the turn with it without deciding it again.
    """

    state: CoreState
    inputs: TurnInput
    updated: _Updated
    velocity: VelocityState
    tool: Decision
    embedder: Embedder | None = None

    def decide(self, choice: ModeratorChoice | None = None) -> DecidedTurn:
        """The turn decided: the tool's decision, or the moderator's ``choice`` over it."""
        state, inputs, u, m = self.state, self.inputs, self.updated, self.inputs.methodology
        turn = state.turn_count + 1
        decision, tool = self.tool, None
        if choice is not None and choice.action == "alt":
            taken = take_alternative(decision, choice)
            tool, decision = decision, aim_at_element(taken, m, u.coverage)
        elif choice is not None and choice.action == "skip" and choice.node_id is not None:
            u = replace(u, tracker=mark_skipped(u.tracker, choice.node_id, turn))
            label = u.graph.node(choice.node_id).label if choice.node_id in u.graph else None
            views = _decision_views(state, u, m)
            redecided = _decide(state, inputs, u, self.velocity, views)
            tool, decision = decision, note_skip(redecided, label)
        new_state = _after_decision(state, u, self.velocity, decision, m)
        safety = safety_response(inputs.assessment, m)
        outcome = TurnOutcome(
            turn,
            u.delta,
            u.graph_state,
            u.depth,
            decision,
            tool_decision=tool,
            safety=safety,
            steer=u.steer,
        )
        return DecidedTurn(new_state, outcome, m, self.embedder)


def _decision_views(
    state: CoreState, u: _Updated, m: Methodology
) -> tuple[NodeStateTracker, CanonicalInfo]:
    """The tracker the decision reads and the canonical figures: with canonical slots on,
    scoring reads paraphrases through their slot (the tracker carried forward stays per node)."""
    if state.canonical is None:
        return u.tracker, CanonicalInfo()
    tracker = slot_tracking_view(u.tracker, state.canonical, state.focus_history)
    return tracker, canonical_info(state.canonical, graph=u.graph, tracker=tracker, methodology=m)


def _decide(
    state: CoreState,
    inputs: TurnInput,
    u: _Updated,
    velocity: VelocityState,
    views: tuple[NodeStateTracker, CanonicalInfo],
) -> Decision:
    """The tool's decision on the updated state (``decide``, or a baseline policy's)."""
    guide = inputs.concept.guide
    decision = decide(
        decision_inputs := DecisionInputs(
            methodology=inputs.methodology,
            tracker=views[0],
            turn_number=state.turn_count + 1,
            max_turns=inputs.max_turns,
            graph=u.graph,
            graph_state=u.graph_state,
            saturation=u.saturation,
            velocity=velocity,
            trend=u.trend,
            assessment=inputs.assessment,
            strategy_history=state.strategy_history,
            focus_history=state.focus_history,
            coverage=u.coverage,
            canonical=views[1],
            recent_questions=tuple(inputs.recent_questions),
            must_cover=tuple(guide.must_cover) if guide is not None else (),
            steer=u.steer,
        )
    )
    if inputs.policy != ADAPTIVE:
        decision = apply_policy(inputs.policy, decision, decision_inputs)
    return decision


# ---- the closing answer ------------------------------------------------------------------
# The answer to the closing question ("is that accurate, is anything missing?") is where a
# respondent corrects the summary or adds what was missing; it reaches the graph like any
# other answer. It asks for no next question, so it takes only the first stage of a turn
# (``answer_into_graph``), numbered as the turn after the last one, and the node tracker's
# registration of what it added: no signals, scores or continuation. With canonical slots on,
# what it added is then placed in slots like a turn's new nodes (``settle_closing``), from the
# closing's recorded slot proposals; replay and verify apply both to the replayed final state.


def take_closing_answer(
    state: CoreState,
    extraction: Extraction,
    *,
    methodology: Methodology,
    utterance_id: str,
    embedder: Embedder | None = None,
) -> tuple[CoreState, GraphDelta]:
    """``state`` with the closing answer's extraction applied; ``state`` is not modified."""
    # No assessment: the closing answer is not scored, so all its extraction is content (its
    # safety is not read either: no question follows it).
    graph, _, delta = answer_into_graph(
        state, extraction, None, methodology, utterance_id, embedder
    )
    # What it added is registered, but the tracker is not aged (``advance_turn``): no turn follows.
    turn = state.turn_count + 1
    tracker = apply_graph_delta(state.tracker, graph, delta, methodology=methodology, turn=turn)
    return replace(state, graph=graph, tracker=tracker), delta


def closing_slot_batches(state: CoreState, methodology: Methodology) -> list[SlotBatch]:
    """The labels the closing answer left without a slot, to ask ``propose_slots`` about
    (none when canonical slots are off)."""
    if state.canonical is None:
        return []
    return pending_slot_batches(state.canonical, state.graph, tuning=methodology.tuning.canonical)


def settle_closing(
    state: CoreState,
    proposals: Sequence[SlotBatch],
    *,
    methodology: Methodology,
    embedder: Embedder | None = None,
) -> tuple[CoreState, SlotDiscoveryRecord | None]:
    """``state`` (after ``take_closing_answer``) with the closing's slot proposals folded
    into its canonical state, numbered as the closing's turn; unchanged with canonical slots
    off."""
    if state.canonical is None:
        return state, None
    canonical, record = apply_slot_proposals(
        state.canonical,
        list(proposals),
        graph=state.graph,
        turn=state.turn_count + 1,
        tuning=methodology.tuning.canonical,
        embedder=embedder,
    )
    return replace(state, canonical=canonical), record
