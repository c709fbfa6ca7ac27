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
explicit steps in ``store.MIGRATIONS``; newer files are refused with a clear message.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from interview_cli.core.models import Assessment, Extraction
from interview_cli.llm.protocol import LLMCall

SCHEMA_VERSION = 1

Status = Literal["active", "paused", "completed", "failed"]


class Record(BaseModel):
    # Unknown keys are kept, not rejected: a file written by a newer patch release of the same
    # schema version must not lose data when this version rewrites it.
    model_config = ConfigDict(extra="allow")


class MethodologySnapshot(Record):
    name: str
    version: str
    sha256: str
    path: str = ""
    source: str = Field(default="", description="the YAML text the session ran with")


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
    # Dual graph (issue 8): canonical slots on by default; discourse hints and the embedding
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
    asked_at: str = ""


class AnswerRecord(Record):
    utterance_id: str
    text: str
    received_at: str = ""


class DecisionRecord(Record):
    strategy: str
    node_id: str | None = None
    label: str | None = None
    phase: str = ""
    rationale: list[str] = Field(default_factory=list)
    veto_reasons: dict[str, str] = Field(
        default_factory=dict,
        description="why each recorded vetoed candidate was vetoed: 'strategy@node' -> reason",
    )


class ContinuationRecord(Record):
    should_continue: bool
    reason: str = ""
    turns_remaining: int | None = None


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
        description="this turn's propose_slots calls (core.canonical.SlotBatch), for replay",
    )
    slot_discovery: dict[str, Any] = Field(
        default_factory=dict, description="what applying them did (core.canonical)"
    )
    graph_delta: dict[str, Any] = Field(default_factory=dict)
    signals: dict[str, Any] = Field(default_factory=dict)
    node_signals: dict[str, dict[str, Any]] = Field(default_factory=dict)
    candidates: list[dict[str, Any]] = Field(default_factory=list)
    decision: DecisionRecord | None = None
    continuation: ContinuationRecord | None = None
    decision_inputs: dict[str, Any] = Field(
        default_factory=dict, description="what the pure decision was computed from (replay)"
    )
    llm_calls: list[LLMCall] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)


class Usage(Record):
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    cost_usd: float = 0.0
    by_task: dict[str, dict[str, float]] = Field(default_factory=dict)

    def add(self, call: LLMCall) -> None:
        self.calls += 1
        self.input_tokens += call.input_tokens
        self.output_tokens += call.output_tokens
        self.cache_write_tokens += call.cache_write_tokens
        self.cache_read_tokens += call.cache_read_tokens
        self.cost_usd = round(self.cost_usd + call.cost_usd, 8)
        task = self.by_task.setdefault(
            call.task, {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}
        )
        task["calls"] += 1
        task["input_tokens"] += call.input_tokens
        task["output_tokens"] += call.output_tokens
        task["cost_usd"] = round(task["cost_usd"] + call.cost_usd, 8)


class ClosingRecord(Record):
    question: str = ""
    summary: str = ""
    rating: int | None = Field(default=None, ge=1, le=4)
    comment: str = ""


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
    errors: list[str] = Field(default_factory=list)

    @property
    def completed_turns(self) -> list[TurnRecord]:
        return [t for t in self.turns if t.status == "complete"]

    @property
    def turn_count(self) -> int:
        return len(self.completed_turns)
