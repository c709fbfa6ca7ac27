"""The session file's schema: one JSON document per interview (ARCHITECTURE "Session file").

A session holds everything needed to resume it, to show it, and to replay every decision:
the concept and methodology snapshots (the methodology's YAML text itself, so a replay on
another machine uses the same weights), the settings, every turn with the raw LLM outputs that
fed the core and the decision the core made, and the current graph, tracker and state.

Turn life cycle: a turn is appended with ``status="answered"`` the moment an answer arrives
(before any LLM call), and becomes ``"complete"`` when its processing has been saved. A session
that crashed in between holds an answered turn that ``run --resume`` processes again, so no
answer is ever lost.

Versioning: ``SCHEMA_VERSION`` is the version this code writes. Older files are upgraded by the
explicit steps in ``read.MIGRATIONS``; newer files are refused with a clear message.

Turn records: the typed records of a turn's decision (``TurnRecord``).
The core makes typed values (``core.decide.scored.ScoredCandidate``,
``core.graph.update.GraphDelta``, ``core.decide.moderator.ModeratorChoice``,
``core.decide.decision.SelectedFocus``); these are their records in the session file, read by
attribute everywhere (replay, verify, what-if, the views, reports).

Files must round-trip byte for byte, so a record written before a field existed must not gain
it on rewrite: ``Sparse`` records write back exactly the keys they were given (every key when
made from a core value) and keep unknown keys. Numbers are ``int | float`` so that a ``0``
stays ``0`` and a ``0.0`` stays ``0.0``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from interview_cli.core.decide.decision import SelectedFocus
from interview_cli.core.decide.moderator import ModeratorChoice
from interview_cli.core.decide.scored import SignalValue, candidate_key
from interview_cli.core.graph.update import GraphDelta
from interview_cli.core.models import Assessment, Extraction
from interview_cli.llm.protocol import LLMCall

Number = int | float
Signals = dict[str, SignalValue | None]


class Record(BaseModel):
    # Unknown keys are kept, not rejected: a file written by a newer patch release of the same
    # schema version must not lose data when this version rewrites it.
    model_config = ConfigDict(extra="allow")


class Sparse(Record):
    """A record that writes back only the keys it was given (and any unknown ones)."""

    @model_serializer(mode="wrap")
    def _given_keys_only(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        data: dict[str, object] = handler(self)
        given = self.model_fields_set | set(self.model_extra or {})
        return {key: value for key, value in data.items() if key in given}


class ContributionRecord(Sparse):
    """One weight key's share of a candidate's base score
    (``core.decide.scored.SignalContribution``)."""

    key: str
    value: SignalValue | None = None
    weight: Number = 0.0
    contribution: Number = 0.0


class CandidateRecord(Sparse):
    """A scored (strategy, node) candidate as recorded. A kept vetoed candidate has no
    ``signal_contributions`` on record (``contributions`` is then empty)."""

    strategy: str
    node_id: str | None = None
    node_label: str | None = None
    signal_contributions: list[ContributionRecord] = Field(default_factory=list)
    base_score: Number = 0.0
    phase_multiplier: Number = 1.0
    phase_bonus: Number = 0.0
    final_score: Number = 0.0
    rank: int | None = 0
    selected: bool = False
    vetoed_by: str | None = None
    stage: str = "joint"

    @property
    def key(self) -> str:
        """``strategy@node`` (or the strategy alone): how veto reasons name a candidate."""
        return candidate_key(self.strategy, self.node_id)


class CandidateSummary(Sparse):
    """Counts of every scored candidate of a turn (``session.schema.slim_candidates``); empty in
    older records, which hold every candidate in full."""

    scored: int = 0
    admissible: int = 0
    vetoed: int = 0
    not_kept: int = 0
    not_kept_by_strategy: dict[str, int] = Field(default_factory=dict)
    vetoed_not_kept: int = 0

    def __bool__(self) -> bool:
        return bool(self.model_fields_set or self.model_extra)


class NodeAddedRecord(Sparse):
    node_id: str = ""
    label: str = ""
    node_type: str = ""


class NodeMergedRecord(Sparse):
    """An extracted node folded into an existing one (``label`` -> ``into_label``)."""

    node_id: str = ""
    label: str = ""
    into_label: str = ""
    node_type: str = ""
    tier: str = ""
    score: Number = 0.0
    alias_added: bool = False


class SupersededRecord(Sparse):
    """An earlier node a correction superseded (``core.graph.update.NodeSuperseded``)."""

    node_id: str = ""
    label: str = ""
    by: str = ""
    by_label: str = ""


class EdgeRecord(Sparse):
    source: str = ""
    target: str = ""
    relation: str = ""


class RejectedRecord(Sparse):
    """An item the graph refused, and why (``core.models.RejectedItem``)."""

    kind: str = "?"
    item: dict[str, object] = Field(default_factory=dict)
    reason: str = ""


class DeltaRecord(Sparse):
    """What a turn's answer changed in the graph (``core.graph.update.GraphDelta``); empty
    (``{}``) on a turn not processed yet. Its parts are lenient records, not the core's strict
    models: the record reads back whatever shape an older file gave it."""

    nodes_added: list[NodeAddedRecord] = Field(default_factory=list)
    nodes_merged: list[NodeMergedRecord] = Field(default_factory=list)
    edges_added: list[EdgeRecord] = Field(default_factory=list)
    edges_merged: list[EdgeRecord] = Field(default_factory=list)
    rejected: list[RejectedRecord] = Field(default_factory=list)
    resolved: dict[str, str] = Field(default_factory=dict)
    superseded: list[SupersededRecord] = Field(default_factory=list)

    @classmethod
    def of(cls, delta: GraphDelta) -> DeltaRecord:
        return cls.model_validate(delta.model_dump(mode="json"))

    def __bool__(self) -> bool:
        return bool(self.model_fields_set or self.model_extra)


class ModeratorRecord(Sparse):
    """What the moderator decided instead of the tool (``core.decide.moderator.ModeratorChoice``).
    ``action`` stays a string here: an unknown one is refused where it is used
    (``pipeline.inputs.recorded_moderator``), with the turn named."""

    action: str
    strategy: str | None = None
    node_id: str | None = None
    text: str = ""

    @classmethod
    def of(cls, choice: ModeratorChoice) -> ModeratorRecord:
        return cls.model_validate(choice.to_dict())

    def choice(self) -> ModeratorChoice:
        """The core's value (raises ``ValueError`` on an unknown action)."""
        return ModeratorChoice.from_dict(self.model_dump(mode="json"))


class FocusRecord(Sparse):
    """A selected (strategy, node): the tool's own choice when the moderator overruled it."""

    strategy: str
    node_id: str | None = None
    label: str | None = None
    element_id: str | None = None

    @classmethod
    def of(cls, focus: SelectedFocus) -> FocusRecord:
        return cls.model_validate(focus.to_dict())


def _without_none(data: dict[str, object], *keys: str) -> dict[str, object]:
    """``data`` without ``keys`` whose value is None: a field added later is written only
    when it holds something, so records of older sessions keep their shape."""
    return {k: v for k, v in data.items() if not (k in keys and v is None)}


class DecisionRecord(Record):
    strategy: str
    node_id: str | None = None
    label: str | None = None
    # The stimulus element the next question raises (an element strategy), else None.
    element_id: str | None = None
    phase: str = ""
    rationale: list[str] = Field(default_factory=list)
    veto_reasons: dict[str, str] = Field(
        default_factory=dict,
        description="why each recorded vetoed candidate was vetoed: 'strategy@node' -> reason",
    )
    # Who decided the next question: the tool, or the moderator (``moderator``: the
    # ``core.decide.moderator.ModeratorChoice``; ``tool_choice``: what the tool had selected).
    decided_by: Literal["tool", "moderator"] = "tool"
    moderator: ModeratorRecord | None = None
    tool_choice: FocusRecord | None = None

    @model_serializer(mode="wrap")
    def _element_when_set(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        return _without_none(handler(self), "element_id")


class ContinuationRecord(Record):
    should_continue: bool
    reason: str = ""
    turns_remaining: int | None = None


# 2: the stimulus shown before the opening question (``SessionFile.stimulus``).
# 3: the resolved tuning in the methodology snapshot (``MethodologySnapshot.tuning``).
SCHEMA_VERSION = 3

Status = Literal["active", "paused", "completed", "failed"]


class MethodologySnapshot(Record):
    """The methodology a session ran with: its YAML text byte for byte (``sha256`` proves it)
    and the tuning the core resolved from it, every field explicit, with the habits a
    session recorded before they were habits ran without (``config.tuning.Tuning``). Replay
    decides with ``tuning`` (``pipeline.inputs.recorded_methodology``), so a later change of a
    default or a habit does not change what an old session replays. Empty: not recorded."""

    name: str
    version: str
    sha256: str
    path: str = ""
    source: str = Field(default="", description="the YAML text the session ran with")
    tuning: dict[str, Any] = Field(default_factory=dict)


class ConceptSnapshot(Record):
    id: str
    name: str
    objective: str
    methodology: str
    sha256: str = ""
    source: str = ""


class ClientChoice(Record):
    provider: str
    model: str


class SessionSettings(Record):
    max_turns: int
    language: str | None = None
    seed: int = 0
    clients: dict[str, ClientChoice] = Field(default_factory=dict)
    provider_label: str = "offline"
    # Dual graph: canonical slots on by default; discourse hints and the embedding
    # tier opt-in. ``enable_embeddings`` records whether the embedding model was actually used.
    enable_canonical_slots: bool = True
    enable_discourse_hints: bool = False
    enable_embeddings: bool = False
    ask_summary_rating: bool = True
    policy: str = "adaptive"


class QuestionRecord(Record):
    text: str
    kind: Literal["opening", "follow_up", "closing"] = "follow_up"
    strategy: str | None = None
    focus_node_id: str | None = None
    focus_label: str | None = None
    focus_type: str | None = None
    # The stimulus element the question raises (an element strategy; ``focus_label`` is then
    # the element's label), else None.
    focus_element_id: str | None = None
    asked_at: str = ""
    # Who worded the question: the tool, or the moderator (``/ask``: ``tool_text`` keeps the
    # tool's question it replaced). ``notes``: the moderator's ``/note``s on this turn.
    asked_by: Literal["tool", "moderator"] = "tool"
    tool_text: str | None = None
    notes: list[str] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _element_when_set(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        return _without_none(handler(self), "focus_element_id")


class AnswerRecord(Record):
    utterance_id: str
    text: str
    received_at: str = ""
    # The respondent's ``/pass``: they declined the question (not a "don't know").
    declined: bool = False


class SafetyRecord(Record):
    """What the safety reading of an answer found and what the interview did about it."""

    kind: str
    action: str
    message: str = ""
    code: str = ""


class TurnRecord(Record):
    turn_number: int
    status: Literal["answered", "complete"] = "answered"
    question: QuestionRecord
    answer: AnswerRecord
    extraction: Extraction | None = None
    assessment: Assessment | None = None
    discourse_hints: list[str] = Field(default_factory=list)
    slot_proposals: list[dict[str, Any]] = Field(
        default_factory=list,
        description="this turn's propose_slots calls (core.canonical.slots.SlotBatch), for replay",
    )
    slot_discovery: dict[str, Any] = Field(
        default_factory=dict, description="what applying them did (core.canonical)"
    )
    graph_delta: DeltaRecord = Field(default_factory=DeltaRecord)
    signals: Signals = Field(default_factory=dict)
    node_signals: dict[str, Signals] = Field(default_factory=dict)
    candidates: list[CandidateRecord] = Field(
        default_factory=list,
        description="the candidates that explain the decision (see slim_candidates)",
    )
    candidate_summary: CandidateSummary = Field(
        default_factory=CandidateSummary,
        description="counts of every scored candidate; empty in older records, which hold "
        "every candidate in full",
    )
    decision: DecisionRecord | None = None
    continuation: ContinuationRecord | None = None
    decision_inputs: dict[str, Any] = Field(
        default_factory=dict, description="what the pure decision was computed from (replay)"
    )
    llm_calls: list[LLMCall] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    safety: SafetyRecord | None = None


# The admissible candidates after the winner that a turn record keeps in full (besides the
# best of each strategy): with 2, a typical record measured 12.1 KB, with 1, under 12 KB.
RUNNERS_UP = 1


def slim_candidates(
    candidates: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """What a turn record keeps of the scored candidates (``ScoredCandidate.to_dict()``), and
    counts for the rest.

    Kept with their score decomposition: the selected candidate, the runners-up (the next
    ``RUNNERS_UP`` by rank) and the best candidate of each strategy, each with every term that
    moved its score. A zero term adds nothing to the arithmetic, and both its parts are on
    record elsewhere: the signal value in the turn's signals, the weight in the methodology
    snapshot. Vetoed candidates that would have won (scored at least the selected one) are
    kept without terms: which move was vetoed, by which veto, and its scores; the other vetoed
    ones and the other admissible candidates are counted. A pure function of the full list, so
    `replay --verify` applies it to the replayed candidates and compares like with like.
    """
    admissible = [c for c in candidates if not c.get("vetoed_by")]
    winner = next((c for c in candidates if c.get("selected")), None)
    bar = float(winner.get("final_score", 0.0)) if winner is not None else float("-inf")
    ranked = sorted(admissible, key=lambda c: (not c.get("selected"), c.get("rank") or 1 << 30))
    keep = {id(c) for c in ranked[: 1 + RUNNERS_UP]}
    best: dict[str, int] = {}
    for c in ranked:
        best.setdefault(str(c.get("strategy")), id(c))
    keep.update(best.values())
    kept: list[dict[str, Any]] = []
    rest: dict[str, int] = {}
    vetoed_not_kept = 0
    for c in candidates:
        if c.get("vetoed_by") and not c.get("selected"):
            if float(c.get("final_score", 0.0)) < bar:
                vetoed_not_kept += 1  # it would have lost anyway: it explains nothing
                continue
            kept.append({k: v for k, v in c.items() if k != "signal_contributions"})
        elif id(c) in keep or c.get("selected"):
            terms = [t for t in c.get("signal_contributions", []) if t.get("contribution")]
            kept.append({**c, "signal_contributions": terms})
        else:
            rest[str(c.get("strategy"))] = rest.get(str(c.get("strategy")), 0) + 1
    summary = {
        "scored": len(candidates),
        "admissible": len(admissible),
        "vetoed": len(candidates) - len(admissible),
        "not_kept": sum(rest.values()),
        "not_kept_by_strategy": dict(sorted(rest.items())),
        "vetoed_not_kept": vetoed_not_kept,
    }
    return kept, summary


def slim_veto_reasons(reasons: dict[str, str], kept: list[dict[str, Any]]) -> dict[str, str]:
    """The veto reasons of the vetoed candidates a slimmed record keeps."""
    keys = {
        candidate_key(str(c.get("strategy")), c.get("node_id")) for c in kept if c.get("vetoed_by")
    }
    return {key: reason for key, reason in reasons.items() if key in keys}


def slim_node_signals(
    node_signals: dict[str, dict[str, Any]], kept: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The per-node signals of the nodes a slimmed record keeps scored candidates on (a
    vetoed candidate is kept without terms, so its node's signals explain nothing on record)."""
    nodes = {c.get("node_id") for c in kept if c.get("node_id") and not c.get("vetoed_by")}
    return {node: values for node, values in node_signals.items() if node in nodes}


class Usage(Record):
    """What the session's model calls used and cost. ``cost_usd`` is the total, or None once a
    model without a price was called (``unpriced`` names them): unknown, never a number that
    reads as free; ``priced_cost_usd`` is what the priced calls cost (what a spend cap counts).
    Per task alike. Files written before kept the priced part in ``cost_usd`` next to a
    non-empty ``unpriced``: they are migrated on reading (``_unknown_when_unpriced``)."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    cost_usd: float | None = 0.0
    priced_cost_usd: float = 0.0
    by_task: dict[str, dict[str, float | None]] = Field(default_factory=dict)
    # provider:model of calls without a price: their cost is unknown.
    unpriced: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _unknown_when_unpriced(cls, data: Any) -> Any:
        """An older file's usage: its ``cost_usd`` was the priced part even with unpriced
        calls; now that part is ``priced_cost_usd`` and the total unknown."""
        if not isinstance(data, dict) or "priced_cost_usd" in data:
            return data
        data = dict(data)
        priced = data.get("cost_usd")
        data["priced_cost_usd"] = priced if isinstance(priced, int | float) else 0.0
        if data.get("unpriced"):
            data["cost_usd"] = None
            # A task that cost nothing beside unpriced calls is one of theirs.
            data["by_task"] = {
                task: {**figures, "cost_usd": None} if not figures.get("cost_usd") else figures
                for task, figures in (data.get("by_task") or {}).items()
            }
        return data

    def add(self, call: LLMCall) -> None:
        self.calls += 1
        self.input_tokens += call.input_tokens
        self.output_tokens += call.output_tokens
        self.cache_write_tokens += call.cache_write_tokens
        self.cache_read_tokens += call.cache_read_tokens
        cost = call.cost_usd or 0.0
        if call.cost_usd is None:
            label = f"{call.provider}:{call.model}"
            if label not in self.unpriced:
                self.unpriced = sorted([*self.unpriced, label])
        self.priced_cost_usd = round(self.priced_cost_usd + cost, 8)
        self.cost_usd = None if self.unpriced else self.priced_cost_usd
        task = self.by_task.setdefault(
            call.task, {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}
        )
        task["calls"] = (task["calls"] or 0) + 1
        task["input_tokens"] = (task["input_tokens"] or 0) + call.input_tokens
        task["output_tokens"] = (task["output_tokens"] or 0) + call.output_tokens
        known = task["cost_usd"]
        task["cost_usd"] = (
            None if known is None or call.cost_usd is None else round(known + cost, 8)
        )


class ClosingRecord(Record):
    question: str = ""
    # The closing question's strategy (the methodology's closing one, or "closing" when the
    # turn limit or the respondent closed); None in files written before.
    strategy: str | None = None
    summary: str = ""
    rating: int | None = Field(default=None, ge=1, le=4)
    comment: str = ""
    # The closing answer read like any other (``core.turn.take_closing_answer``): what was extracted
    # from it and what that added to the graph. Absent in files written before.
    utterance_id: str = ""
    extraction: Extraction | None = None
    graph_delta: DeltaRecord = Field(default_factory=DeltaRecord)
    # With canonical slots on: the closing's propose_slots batches (what was asked and what
    # came back) and what applying them did, as a turn keeps them. None in files written
    # before: their closing placed nothing in slots, and replay does the same.
    slot_proposals: list[dict[str, Any]] | None = None
    slot_discovery: dict[str, Any] | None = None


class StimulusRecord(Record):
    """What a concept test showed the respondent before the opening question
    (``config.study.Stimulus``): the text as shown, the image's path, and when."""

    text: str
    image: str | None = None
    shown_at: str = ""


class ConsentRecord(Record):
    """The concept's consent text as shown, the respondent's reply, and what it was taken as."""

    text: str
    answer: str = ""
    agreed: bool = False
    answered_at: str = ""


class ParticipantRecord(Record):
    """Who was interviewed, as the researcher names them (``run --participant --meta``)."""

    id: str
    meta: dict[str, str] = Field(default_factory=dict)


class RulesRecord(Record):
    """The rules that decided a stretch of a fork's first turns: its origin's policy, and its
    origin's methodology when the fork runs another (None: the session's own)."""

    until_turn: int
    policy: str = "adaptive"
    methodology: MethodologySnapshot | None = None


class ForkRecord(Record):
    """Where a fork came from: session ``session_id``, whose first ``turn`` turns it repeats
    as recorded (`interview fork`). ``earlier``: who decided those turns, earliest first (a
    fork of a fork keeps its origin's stretches); later turns are decided by the session's
    own ``settings.policy`` and methodology. ``run``: which of the fork's runs this is."""

    session_id: str
    turn: int
    run: int = 1
    earlier: list[RulesRecord] = Field(default_factory=list)

    def rules_at(self, turn_number: int) -> RulesRecord | None:
        """The origin's rules that decided turn ``turn_number``; None: the fork's own."""
        return next((r for r in self.earlier if turn_number <= r.until_turn), None)


class SessionFile(Record):
    schema_version: int = SCHEMA_VERSION
    id: str
    status: Status = "active"
    termination_reason: str | None = None
    created_at: str = ""
    updated_at: str = ""
    # interview-cli version that created the session (None: older files), so `replay --verify`
    # can tell a later change of the core from an edited file.
    tool_version: str | None = None
    concept: ConceptSnapshot
    methodology: MethodologySnapshot
    settings: SessionSettings
    pending_question: QuestionRecord | None = None
    turns: list[TurnRecord] = Field(default_factory=list)
    graph: dict[str, Any] = Field(default_factory=dict)
    canonical: dict[str, Any] = Field(default_factory=dict)
    tracker: dict[str, Any] = Field(default_factory=dict)
    state: dict[str, Any] = Field(default_factory=dict)
    opening_calls: list[LLMCall] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    closing: ClosingRecord | None = None
    simulation: dict[str, Any] | None = None
    participant: ParticipantRecord | None = None
    consent: ConsentRecord | None = None
    # None: the concept shows no stimulus, or the session began before stimuli were recorded.
    stimulus: StimulusRecord | None = None
    # A fork of another session (`interview fork`): None for every other session.
    fork: ForkRecord | None = None
    errors: list[str] = Field(default_factory=list)

    def policy_at(self, turn_number: int) -> str:
        """The policy that decided turn ``turn_number``: a fork's origin's for the turns it
        repeats, else the session's own."""
        rules = self.fork.rules_at(turn_number) if self.fork is not None else None
        return rules.policy if rules is not None else self.settings.policy

    @property
    def completed_turns(self) -> list[TurnRecord]:
        return [t for t in self.turns if t.status == "complete"]

    @property
    def turn_count(self) -> int:
        return len(self.completed_turns)

    @property
    def answer_count(self) -> int:
        """Answers the respondent gave: every completed turn's, and the closing one."""
        closing = self.closing
        return self.turn_count + (1 if closing is not None and closing.comment.strip() else 0)
