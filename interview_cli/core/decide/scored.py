"""The records of strategy scoring: what a ranked (strategy, node) candidate carries.

A ``ScoredCandidate`` keeps its full score decomposition (seed 001 ``ScoredCandidate``) so a
session file can show, and replay can check, why each candidate ranked where it did. A
``Ranking`` is every candidate in rank order plus the one selected. ``core.decide.scoring`` makes
them; the turn record stores them through ``to_dict``/``from_dict``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from interview_cli.config.schemas import StrategySpec

SignalValue = bool | int | float | str
Signals = Mapping[str, SignalValue | None]
VetoCheck = Callable[[StrategySpec, str | None], str | None]
Stage = Literal["joint", "strategy", "node"]


def candidate_key(strategy: str, node_id: str | None) -> str:
    """``strategy@node`` (the strategy alone without a node): how veto reasons and records
    name a candidate."""
    return f"{strategy}@{node_id}" if node_id is not None else strategy


@dataclass(frozen=True)
class SignalContribution:
    """One weight key's share of a candidate's base score."""

    key: str
    value: SignalValue | None
    weight: float
    contribution: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "value": self.value,
            "weight": self.weight,
            "contribution": self.contribution,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SignalContribution:
        return cls(data["key"], data["value"], data["weight"], data["contribution"])


@dataclass(frozen=True)
class ScoredCandidate:
    """A (strategy, node) pair with its full score decomposition (seed 001 ``ScoredCandidate``)."""

    strategy: str
    node_id: str | None
    node_label: str | None
    signal_contributions: tuple[SignalContribution, ...]
    base_score: float
    phase_multiplier: float
    phase_bonus: float
    final_score: float
    rank: int = 0
    selected: bool = False
    vetoed_by: str | None = None
    stage: Stage = "joint"

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "node_id": self.node_id,
            "node_label": self.node_label,
            "signal_contributions": [c.to_dict() for c in self.signal_contributions],
            "base_score": self.base_score,
            "phase_multiplier": self.phase_multiplier,
            "phase_bonus": self.phase_bonus,
            "final_score": self.final_score,
            "rank": self.rank,
            "selected": self.selected,
            "vetoed_by": self.vetoed_by,
            "stage": self.stage,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScoredCandidate:
        return cls(
            strategy=data["strategy"],
            node_id=data["node_id"],
            node_label=data["node_label"],
            signal_contributions=tuple(
                SignalContribution.from_dict(c) for c in data["signal_contributions"]
            ),
            base_score=data["base_score"],
            phase_multiplier=data["phase_multiplier"],
            phase_bonus=data["phase_bonus"],
            final_score=data["final_score"],
            rank=data["rank"],
            selected=data["selected"],
            vetoed_by=data["vetoed_by"],
            stage=data.get("stage", "joint"),
        )


@dataclass(frozen=True)
class NodeInfo:
    """What ranking needs to know about a candidate node: its label and tie-break order."""

    label: str
    created_turn: int


@dataclass(frozen=True)
class Ranking:
    """Every scored candidate in rank order, the selected one, and how it was chosen."""

    candidates: tuple[ScoredCandidate, ...]
    selected: ScoredCandidate | None
    mode: Literal["joint", "two_stage"]
    fallback: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
