"""What signal detectors read and how they are registered (seed 001 "Signal Pools Architecture").

A detector is a pure function registered under one catalogue name:

- global detectors: ``fn(ctx, deps) -> value | None``, computed once per turn;
- node detectors: ``fn(ctx, state, deps) -> value | None``, computed for every tracked node.

``deps`` holds only the signals the catalogue entry declares in ``depends_on`` (global values,
and for node detectors that node's values), so an undeclared dependency cannot creep in and
break the dependency order. ``None`` means "not available this turn" (no assessment yet, no
stimulus elements): the signal is left out of the result and weights on it are skipped.

Registering a name that is not in the catalogue, or in the wrong scope, fails at import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from interview_cli.config.signal_catalogue import CATALOGUE_BY_NAME
from interview_cli.core.signals.trend import TrendState

if TYPE_CHECKING:
    from interview_cli.config.schemas import Methodology
    from interview_cli.core.graph.knowledge import KnowledgeGraph
    from interview_cli.core.models import Assessment
    from interview_cli.core.tracker import NodeState, NodeStateTracker

SignalValue = bool | int | float | str
Deps = Mapping[str, SignalValue]
GlobalFn = Callable[["SignalContext", Deps], SignalValue | None]
NodeFn = Callable[["SignalContext", "NodeState", Deps], SignalValue | None]


@dataclass(frozen=True)
class CanonicalInfo:
    """Dual-graph figures for the canonical signals; all zeros while canonical slots are off."""

    enabled: bool = False
    concept_count: int = 0
    edge_density: float = 0.0
    exhaustion_score: float = 0.0
    new_slots: int = 0
    new_surface_nodes: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "enabled": self.enabled,
            "concept_count": self.concept_count,
            "edge_density": self.edge_density,
            "exhaustion_score": self.exhaustion_score,
            "new_slots": self.new_slots,
            "new_surface_nodes": self.new_surface_nodes,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> CanonicalInfo:
        return cls(**dict(data)) if data else cls()


@dataclass(frozen=True)
class SignalContext:
    """Everything detection reads for one turn. Values only; nothing here is mutated.

    ``graph_state``, ``saturation``, ``velocity`` and ``coverage`` are ``core.state`` /
    ``core.coverage`` values (typed loosely here to keep the signal package import-light);
    ``graph`` is the ``KnowledgeGraph`` after this turn's update.
    """

    methodology: Methodology
    tracker: NodeStateTracker
    turn_number: int
    max_turns: int
    graph: KnowledgeGraph | None = None
    graph_state: Any = None
    assessment: Assessment | None = None
    strategy_history: tuple[str, ...] = ()
    velocity: Any = None
    saturation: Any = None
    trend: TrendState = field(default_factory=TrendState)
    canonical: CanonicalInfo = field(default_factory=CanonicalInfo)
    coverage: Any = None
    # The concept's guide topics to cover (``Concept.guide.must_cover``); empty: no guide.
    must_cover: tuple[str, ...] = ()
    # Past selections with their turns (``core.decide.vetoes.FocusEntry``), oldest first: when
    # a strategy was last asked, which ``strategy_history`` alone cannot say.
    focus_history: tuple[Any, ...] = ()

    @cached_property
    def node_types(self) -> dict[str, str]:
        """Node id -> type, read from the graph once a turn (node signals look types up for
        every neighbour of every node)."""
        return {} if self.graph is None else dict(self.graph.node_types())

    @cached_property
    def memo(self) -> dict[str, Any]:
        """Values several detectors of one turn share (a journey map, a grid, the guide's
        coverage), each built once a turn instead of once a detector."""
        return {}


@dataclass(frozen=True)
class DetectedSignals:
    """Detection output: ``{name: value}`` globally and ``{node_id: {name: value}}`` per node."""

    global_signals: dict[str, SignalValue]
    node_signals: dict[str, dict[str, SignalValue]]

    def for_node(self, node_id: str) -> dict[str, SignalValue]:
        return self.node_signals.get(node_id, {})

    def to_dict(self) -> dict[str, Any]:
        return {
            "global_signals": dict(self.global_signals),
            "node_signals": {k: dict(v) for k, v in self.node_signals.items()},
        }


@dataclass(frozen=True)
class Detector:
    name: str
    scope: Literal["global", "node"]
    fn: Callable[..., SignalValue | None]


DETECTORS: dict[str, Detector] = {}


def _register(name: str, scope: Literal["global", "node"], fn: Callable[..., Any]) -> None:
    spec = CATALOGUE_BY_NAME.get(name)
    if spec is None:
        raise ValueError(f"detector for {name!r}: no such signal in the catalogue")
    if spec.scope != scope:
        raise ValueError(f"detector for {name!r} is {scope} but the catalogue says {spec.scope}")
    if name in DETECTORS:
        raise ValueError(f"two detectors for {name!r}")
    DETECTORS[name] = Detector(name, scope, fn)


def global_signal(name: str) -> Callable[[GlobalFn], GlobalFn]:
    """Register a global detector for catalogue entry ``name``."""

    def wrap(fn: GlobalFn) -> GlobalFn:
        _register(name, "global", fn)
        return fn

    return wrap


def node_signal(name: str) -> Callable[[NodeFn], NodeFn]:
    """Register a per-node detector for catalogue entry ``name``."""

    def wrap(fn: NodeFn) -> NodeFn:
        _register(name, "node", fn)
        return fn

    return wrap
