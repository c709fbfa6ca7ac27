"""The values of per-node tracking: ``Probe``, ``NodeState`` and ``NodeStateTracker``.

Seed 001 "Node State Tracking" / "Node Tracker Persistence": what the interview remembers
about each node across turns (focus, yield, depth of the answers, the questions asked on it
and what each brought) and how a session file stores it. Frozen values only; the functions
that produce the next turn's tracker live in ``core.tracker``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from interview_cli.config.tuning import RECENT_DEPTHS_WINDOW
from interview_cli.core.models import DECLINED

NODE_TRACKER_SCHEMA_VERSION = 1
SHALLOW_DEPTHS: frozenset[str] = frozenset({"surface", "shallow"})

# What one question on a node brought (the memory of asking, INTERVIEWING.md): a new rung,
# nothing new, a don't-know, or one of the replies that close the node at once.
NEW_RUNG = "new_rung"
NOTHING_NEW = "nothing_new"
DONT_KNOW = "dont_know"
ALREADY_SAID = "already_said"
MOVE_ON = "move_on"
ABOUT_INTERVIEW = "about_interview"
# DECLINED (from core.models) is the respondent's /pass: they would rather not answer it.
SKIPPED = "skipped"  # the moderator's /skip: done with this node, whatever the scores say
PROBE_OUTCOMES: tuple[str, ...] = (
    NEW_RUNG, NOTHING_NEW, DONT_KNOW, ALREADY_SAID, MOVE_ON, ABOUT_INTERVIEW, DECLINED, SKIPPED
)  # fmt: skip
# The respondent (or the moderator) said, in effect, "enough about this": the node is closed
# after one of these.
CLOSING_OUTCOMES: frozenset[str] = frozenset({ALREADY_SAID, MOVE_ON, DECLINED, SKIPPED})


@dataclass(frozen=True)
class Probe:
    """One question asked on a node: the turn it was asked, the strategy, what it brought."""

    turn: int
    strategy: str
    outcome: str

    @property
    def fruitless(self) -> bool:
        return self.outcome != NEW_RUNG

    def to_list(self) -> list[Any]:
        return [self.turn, self.strategy, self.outcome]

    @classmethod
    def from_list(cls, data: Any) -> Probe:
        turn, strategy, outcome = data
        return cls(int(turn), str(strategy), str(outcome))


@dataclass(frozen=True)
class NodeState:
    """Everything the tracker knows about one node (every field of seed 001's NodeState)."""

    # Basic info
    node_id: str
    label: str
    created_at_turn: int
    depth: int = 0
    node_type: str = ""
    is_terminal: bool = False
    level: int = 0

    # Engagement metrics
    focus_count: int = 0
    last_focus_turn: int | None = None
    turns_since_last_focus: int = 0
    current_focus_streak: int = 0

    # Yield metrics
    last_yield_turn: int | None = None
    turns_since_last_yield: int = 0
    yield_count: int = 0
    yield_rate: float = 0.0

    # Response quality: response depths (surface/shallow/moderate/deep) of the answers given
    # while this node was the focus, oldest first.
    all_response_depths: tuple[str, ...] = ()

    # Relationships
    connected_node_ids: frozenset[str] = frozenset()
    edge_count_outgoing: int = 0
    edge_count_incoming: int = 0

    # Strategy usage
    strategy_usage_count: Mapping[str, int] = field(default_factory=dict)
    last_strategy_used: str | None = None
    consecutive_same_strategy: int = 0

    # Turn of a terminal "don't know" given while this node was the focus (seed 004 Tier 1
    # knowledge ceiling); None when the respondent never hit the ceiling here.
    knowledge_ceiling_turn: int | None = None

    # Every question asked on this node and what its answer brought, oldest first.
    probes: tuple[Probe, ...] = ()

    # Window used by ``shallow_ratio``; set from tuning.exhaustion.recent_depths_window when
    # the node is registered so that the property needs no configuration at read time.
    recent_depths_window: int = RECENT_DEPTHS_WINDOW

    @property
    def is_orphan(self) -> bool:
        """The node has no edges at all."""
        return (self.edge_count_incoming + self.edge_count_outgoing) == 0

    @property
    def edge_count(self) -> int:
        return self.edge_count_incoming + self.edge_count_outgoing

    @property
    def recent_response_depths(self) -> tuple[str, ...]:
        return self.all_response_depths[-self.recent_depths_window :]

    @property
    def fruitless_probes(self) -> int:
        return sum(1 for p in self.probes if p.fruitless)

    def fruitless_with(self, strategy: str) -> Probe | None:
        """The first question with ``strategy`` on this node that brought nothing new."""
        return next((p for p in self.probes if p.strategy == strategy and p.fruitless), None)

    @property
    def closed_by_respondent(self) -> Probe | None:
        """The answer that asked to leave this node ("move on", "I already said"), if any."""
        return next((p for p in self.probes if p.outcome in CLOSING_OUTCOMES), None)

    @property
    def shallow_ratio(self) -> float:
        """Share of surface/shallow answers among the last ``recent_depths_window`` answers."""
        recent = self.recent_response_depths
        if not recent:
            return 0.0
        return sum(1 for d in recent if d in SHALLOW_DEPTHS) / len(recent)

    @property
    def deep_ratio(self) -> float:
        """Share of deep answers among the last ``recent_depths_window`` answers."""
        recent = self.recent_response_depths
        if not recent:
            return 0.0
        return sum(1 for d in recent if d == "deep") / len(recent)

    def to_dict(self) -> dict[str, Any]:
        return {
            "node_id": self.node_id,
            "label": self.label,
            "created_at_turn": self.created_at_turn,
            "depth": self.depth,
            "node_type": self.node_type,
            "is_terminal": self.is_terminal,
            "level": self.level,
            "focus_count": self.focus_count,
            "last_focus_turn": self.last_focus_turn,
            "turns_since_last_focus": self.turns_since_last_focus,
            "current_focus_streak": self.current_focus_streak,
            "last_yield_turn": self.last_yield_turn,
            "turns_since_last_yield": self.turns_since_last_yield,
            "yield_count": self.yield_count,
            "yield_rate": self.yield_rate,
            "all_response_depths": list(self.all_response_depths),
            # Sorted so that the saved file does not depend on set iteration order.
            "connected_node_ids": sorted(self.connected_node_ids),
            "edge_count_outgoing": self.edge_count_outgoing,
            "edge_count_incoming": self.edge_count_incoming,
            "strategy_usage_count": dict(self.strategy_usage_count),
            "last_strategy_used": self.last_strategy_used,
            "consecutive_same_strategy": self.consecutive_same_strategy,
            "knowledge_ceiling_turn": self.knowledge_ceiling_turn,
            "probes": [p.to_list() for p in self.probes],
            "recent_depths_window": self.recent_depths_window,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NodeState:
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"node state has unknown fields: {', '.join(sorted(unknown))}")
        values = dict(data)
        values["all_response_depths"] = tuple(values.get("all_response_depths", ()))
        values["connected_node_ids"] = frozenset(values.get("connected_node_ids", ()))
        values["strategy_usage_count"] = dict(values.get("strategy_usage_count", {}))
        values["probes"] = tuple(Probe.from_list(p) for p in values.get("probes", ()))
        return cls(**values)


@dataclass(frozen=True)
class NodeStateTracker:
    """All node states of a session, the previous focus and the turn they were aged to."""

    states: Mapping[str, NodeState] = field(default_factory=dict)
    previous_focus: str | None = None
    turn: int = 0

    def get(self, node_id: str) -> NodeState | None:
        return self.states.get(node_id)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.states

    def __len__(self) -> int:
        return len(self.states)

    @property
    def node_ids(self) -> list[str]:
        """Tracked node ids in registration order."""
        return list(self.states)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": NODE_TRACKER_SCHEMA_VERSION,
            "previous_focus": self.previous_focus,
            "turn": self.turn,
            "states": {node_id: state.to_dict() for node_id, state in self.states.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> NodeStateTracker:
        """Rebuild a tracker; ``None`` (a session saved before any tracking) gives a fresh one."""
        if data is None:
            return cls()
        version = data.get("schema_version")
        if version != NODE_TRACKER_SCHEMA_VERSION:
            raise ValueError(
                f"node tracker schema_version {version!r} is not supported "
                f"(expected {NODE_TRACKER_SCHEMA_VERSION})"
            )
        raw_states = data.get("states", {})
        states = {node_id: NodeState.from_dict(raw) for node_id, raw in raw_states.items()}
        for node_id, state in states.items():
            if state.node_id != node_id:
                raise ValueError(f"node tracker entry {node_id!r} holds state of {state.node_id!r}")
        return cls(
            states=states,
            previous_focus=data.get("previous_focus"),
            turn=int(data.get("turn", 0)),
        )
