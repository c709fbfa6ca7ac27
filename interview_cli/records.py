"""Typed records of a turn's decision, as the session file keeps them (``session.TurnRecord``).

The core makes typed values (``core.scored.ScoredCandidate``, ``core.graph_update.GraphDelta``,
``core.moderator.ModeratorChoice``, ``core.decide.SelectedFocus``); these are their records in
the session file, read by attribute everywhere (replay, verify, what-if, the views, reports).

Files must round-trip byte for byte, so a record written before a field existed must not gain
it on rewrite: ``Sparse`` records write back exactly the keys they were given (every key when
made from a core value) and keep unknown keys. Numbers are ``int | float`` so that a ``0``
stays ``0`` and a ``0.0`` stays ``0.0``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from interview_cli.core.decide import SelectedFocus
from interview_cli.core.graph_update import GraphDelta
from interview_cli.core.moderator import ModeratorChoice
from interview_cli.core.scored import SignalValue, candidate_key

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
    """One weight key's share of a candidate's base score (``core.scored.SignalContribution``)."""

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
    """Counts of every scored candidate of a turn (``session.slim_candidates``); empty in older
    records, which hold every candidate in full."""

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
    """What a turn's answer changed in the graph (``core.graph_update.GraphDelta``); empty
    (``{}``) on a turn not processed yet. Its parts are lenient records, not the core's strict
    models: the record reads back whatever shape an older file gave it."""

    nodes_added: list[NodeAddedRecord] = Field(default_factory=list)
    nodes_merged: list[NodeMergedRecord] = Field(default_factory=list)
    edges_added: list[EdgeRecord] = Field(default_factory=list)
    edges_merged: list[EdgeRecord] = Field(default_factory=list)
    rejected: list[RejectedRecord] = Field(default_factory=list)
    resolved: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def of(cls, delta: GraphDelta) -> DeltaRecord:
        return cls.model_validate(delta.model_dump(mode="json"))

    def __bool__(self) -> bool:
        return bool(self.model_fields_set or self.model_extra)


class ModeratorRecord(Sparse):
    """What the moderator decided instead of the tool (``core.moderator.ModeratorChoice``).
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

    @classmethod
    def of(cls, focus: SelectedFocus) -> FocusRecord:
        return cls.model_validate(focus.to_dict())


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
    # Who decided the next question: the tool, or the moderator (``moderator``: the
    # ``core.moderator.ModeratorChoice``; ``tool_choice``: what the tool had selected).
    decided_by: Literal["tool", "moderator"] = "tool"
    moderator: ModeratorRecord | None = None
    tool_choice: FocusRecord | None = None


class ContinuationRecord(Record):
    should_continue: bool
    reason: str = ""
    turns_remaining: int | None = None
