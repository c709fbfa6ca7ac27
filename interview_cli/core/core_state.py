"""What the pure core carries from one turn to the next, and how a session file stores it.

``CoreState`` bundles the surface graph, the node tracker, saturation, velocity and trend,
the strategy and focus histories, element coverage and (with canonical slots on) the
canonical state. ``core.turn.advance`` takes one and returns the next; the session file keeps
the graph, the tracker and the canonical state in fields of their own (``to_dict``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from interview_cli.config.schemas import Concept
from interview_cli.core.canonical import CanonicalState
from interview_cli.core.coverage import CoverageState, initial_coverage
from interview_cli.core.graph import KnowledgeGraph
from interview_cli.core.graph_json import from_json, to_json
from interview_cli.core.signals import TrendState
from interview_cli.core.state import SaturationMetrics, VelocityState
from interview_cli.core.tracker import NodeStateTracker
from interview_cli.core.vetoes import FocusEntry

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
    def initial(cls, concept: Concept, *, slots: bool = False) -> CoreState:
        return cls(
            coverage=initial_coverage(concept) if concept.elements else None,
            canonical=CanonicalState() if slots else None,
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
