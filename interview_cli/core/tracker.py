"""Per-node state across turns: the NodeStateTracker of seed 001 "Node State Tracking".

Implements seed 001 "Node State Tracking" / "Node Tracker Persistence", seed 002 Path 8 and
seed 003 (ADR-015). Node-level signals (exhaustion, focus streak, recency, strategy repetition)
are computed from these values by ``core.signals``; this module only keeps the books.

Everything here is a value: ``Probe``, ``NodeState`` and ``NodeStateTracker`` are
frozen dataclasses and every update function returns a new tracker (the old one is untouched,
so a replay can hold the tracker of every turn). Mappings inside the values are never mutated
after construction.

Order of calls in one turn N (seed 002 Path 8 "Key Integration Points"):

1. ``advance_turn(tracker, N)``: age every node (turns_since_last_focus/_yield).
2. Graph update: ``register_node`` for new nodes, ``update_edge_counts`` for new edges,
   ``record_yield`` for nodes that yielded (``apply_graph_delta`` does these three in order).
3. ``append_response_signal(tracker, depth)``: the answer's depth goes to the node the
   *previous* question focused on, BEFORE the focus moves (seed 003 "Response timing").
4. Signals and selection read the tracker.
5. ``update_focus(tracker, node_id, N, strategy)``: the newly selected focus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

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
    NEW_RUNG,
    NOTHING_NEW,
    DONT_KNOW,
    ALREADY_SAID,
    MOVE_ON,
    ABOUT_INTERVIEW,
    DECLINED,
    SKIPPED,
)
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


if TYPE_CHECKING:  # imported for annotations only; keeps this module free of import cycles
    from interview_cli.config.schemas import Methodology
    from interview_cli.core.graph.knowledge import KnowledgeGraph
    from interview_cli.core.graph.records import Node
    from interview_cli.core.graph.update import GraphDelta


# --------------------------------------------------------------------------------------------
# Update functions (each returns a new tracker)
# --------------------------------------------------------------------------------------------


def _evolve(state: NodeState, **changes: Any) -> NodeState:
    """``dataclasses.replace`` without re-running ``__init__``: every turn ages every node,
    and replace's per-call overhead dominated the tracker's cost on large graphs."""
    unknown = changes.keys() - NodeState.__dataclass_fields__.keys()
    if unknown:
        raise TypeError(f"NodeState has no field(s) {sorted(unknown)}")
    new = object.__new__(NodeState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _with_states(tracker: NodeStateTracker, changed: Mapping[str, NodeState]) -> NodeStateTracker:
    if not changed:
        return tracker
    states = dict(tracker.states)
    states.update(changed)
    return replace(tracker, states=states)


def _yield_rate(yield_count: int, focus_count: int) -> float:
    # Yields per focus attempt (seed 001). A node can yield without ever being focused (it was
    # created, or mentioned again spontaneously), so the ratio is capped at 1.
    return min(yield_count / max(focus_count, 1), 1.0)


def register_node(
    tracker: NodeStateTracker,
    node: Node,
    turn: int,
    *,
    level: int = 0,
    is_terminal: bool = False,
    depth: int = 0,
    recent_depths_window: int = RECENT_DEPTHS_WINDOW,
) -> NodeStateTracker:
    """Start tracking ``node`` (created at ``turn``). Registering a tracked node is a no-op."""
    if node.id in tracker.states:
        return tracker
    state = NodeState(
        node_id=node.id,
        label=node.label,
        created_at_turn=turn,
        depth=depth,
        node_type=node.node_type,
        is_terminal=is_terminal,
        level=level,
        recent_depths_window=recent_depths_window,
    )
    return _with_states(tracker, {node.id: state})


def update_edge_counts(
    tracker: NodeStateTracker, source_id: str, target_id: str
) -> NodeStateTracker:
    """Count one new edge (one relation) from ``source_id`` to ``target_id``.

    Untracked endpoints are skipped: the tracker never invents nodes. A self-loop counts as
    one outgoing and one incoming edge of the same node but does not connect it to itself.
    """
    changed: dict[str, NodeState] = {}
    source = tracker.states.get(source_id)
    if source is not None:
        connected = source.connected_node_ids
        if target_id != source_id:
            connected = connected | {target_id}
        changed[source_id] = _evolve(
            source,
            edge_count_outgoing=source.edge_count_outgoing + 1,
            connected_node_ids=connected,
        )
    target = changed.get(target_id) or tracker.states.get(target_id)
    if target is not None:
        connected = target.connected_node_ids
        if target_id != source_id:
            connected = connected | {source_id}
        changed[target_id] = _evolve(
            target,
            edge_count_incoming=target.edge_count_incoming + 1,
            connected_node_ids=connected,
        )
    return _with_states(tracker, changed)


def inherit_links(tracker: NodeStateTracker, old_id: str, new_id: str) -> NodeStateTracker:
    """``new_id`` revises ``old_id`` (a correction, the focus said again in clearer words):
    what the old wording was linked to was said of the new one, so the new one counts the
    old one's links as its own ("what it leads to" already said is not asked again). The
    graph keeps the links where they were said; the summary reads them with the new wording.
    Untracked nodes are skipped."""
    old, new = tracker.states.get(old_id), tracker.states.get(new_id)
    if old is None or new is None or old_id == new_id:
        return tracker
    revised = _evolve(
        new,
        edge_count_outgoing=new.edge_count_outgoing + old.edge_count_outgoing,
        edge_count_incoming=new.edge_count_incoming + old.edge_count_incoming,
        connected_node_ids=(new.connected_node_ids | old.connected_node_ids) - {new_id},
    )
    return _with_states(tracker, {new_id: revised})


def record_yield(
    tracker: NodeStateTracker,
    node_ids: Iterable[str],
    turn: int,
    *,
    graph_changed: bool | None = None,
) -> NodeStateTracker:
    """Record that the answer of ``turn`` yielded information on some nodes.

    Yielding nodes are ``node_ids`` (the new nodes and endpoints of new edges)
    plus the previous focus when the turn added anything to the graph: the question asked
    about that node is what produced the new material. ``graph_changed`` says whether the
    turn added a node or edge; by default it is "``node_ids`` is not empty".
    """
    ids = list(dict.fromkeys(node_ids))
    changed_graph = bool(ids) if graph_changed is None else graph_changed
    if changed_graph and tracker.previous_focus is not None:
        ids.append(tracker.previous_focus)
    changed: dict[str, NodeState] = {}
    for node_id in dict.fromkeys(ids):
        state = tracker.states.get(node_id)
        if state is None or (state.last_yield_turn == turn and state.yield_count > 0):
            # Untracked, or already counted for this turn: one yield per node per turn.
            continue
        yield_count = state.yield_count + 1
        changed[node_id] = _evolve(
            state,
            last_yield_turn=turn,
            turns_since_last_yield=0,
            yield_count=yield_count,
            yield_rate=_yield_rate(yield_count, state.focus_count),
        )
    return _with_states(tracker, changed)


def append_response_signal(
    tracker: NodeStateTracker,
    response_depth: str | None,
    knowledge_ceiling: str | None = None,
) -> NodeStateTracker:
    """Attribute the answer's depth (and a terminal don't-know) to the PREVIOUS focus.

    The answer being processed replies to the question that focused ``previous_focus``; it must
    be recorded there before ``update_focus`` moves the focus (seed 003 "Response timing").
    With no previous focus (the opening question) nothing is recorded.
    """
    node_id = tracker.previous_focus
    if node_id is None or node_id not in tracker.states:
        return tracker
    state = tracker.states[node_id]
    depths = state.all_response_depths
    if response_depth is not None:
        depths = (*depths, response_depth)
    ceiling_turn = state.knowledge_ceiling_turn
    if knowledge_ceiling == "terminal":
        ceiling_turn = tracker.turn
    if depths == state.all_response_depths and ceiling_turn == state.knowledge_ceiling_turn:
        return tracker
    return _with_states(
        tracker,
        {node_id: _evolve(state, all_response_depths=depths, knowledge_ceiling_turn=ceiling_turn)},
    )


def record_probe_outcome(tracker: NodeStateTracker, outcome: str) -> NodeStateTracker:
    """Remember what the last question on the PREVIOUS focus brought (its strategy is the
    one last used there). Called with the answer that replied to it, before the focus moves."""
    node_id = tracker.previous_focus
    state = tracker.states.get(node_id) if node_id is not None else None
    if state is None or state.last_strategy_used is None or state.last_focus_turn is None:
        return tracker
    probe = Probe(state.last_focus_turn, state.last_strategy_used, outcome)
    assert node_id is not None
    return _with_states(tracker, {node_id: _evolve(state, probes=(*state.probes, probe))})


def update_focus(
    tracker: NodeStateTracker, node_id: str | None, turn: int, strategy: str | None
) -> NodeStateTracker:
    """The question of ``turn`` focuses ``node_id`` with ``strategy`` (None: no node focus).

    Focus streaks count consecutive turns on the same node; every other node's streak drops
    to 0, and a turn without a node focus resets them all. ``consecutive_same_strategy`` counts
    consecutive uses of the same strategy *on this node* (its own history, other nodes' turns
    in between do not break it): what ``technique.node.strategy_repetition`` reads.
    """
    changed: dict[str, NodeState] = {}
    for other_id, state in tracker.states.items():
        if other_id != node_id and state.current_focus_streak:
            changed[other_id] = _evolve(state, current_focus_streak=0)
    target = tracker.states.get(node_id) if node_id is not None else None
    if target is not None:
        assert node_id is not None
        streak = target.current_focus_streak + 1 if tracker.previous_focus == node_id else 1
        usage = dict(target.strategy_usage_count)
        same = 0
        if strategy is not None:
            usage[strategy] = usage.get(strategy, 0) + 1
            same = (
                target.consecutive_same_strategy + 1 if target.last_strategy_used == strategy else 1
            )
        focus_count = target.focus_count + 1
        changed[node_id] = _evolve(
            target,
            focus_count=focus_count,
            last_focus_turn=turn,
            turns_since_last_focus=0,
            current_focus_streak=streak,
            strategy_usage_count=usage,
            last_strategy_used=strategy if strategy is not None else target.last_strategy_used,
            consecutive_same_strategy=same
            if strategy is not None
            else target.consecutive_same_strategy,
            yield_rate=_yield_rate(target.yield_count, focus_count),
        )
    new_focus = node_id if target is not None else None
    return replace(_with_states(tracker, changed), previous_focus=new_focus)


def advance_turn(tracker: NodeStateTracker, turn: int) -> NodeStateTracker:
    """Age every node to ``turn``: turns since the last focus and the last yield.

    A node never focused (or never yielding) counts from the turn it was created.
    """
    changed: dict[str, NodeState] = {}
    for node_id, state in tracker.states.items():
        focus_from = (
            state.last_focus_turn if state.last_focus_turn is not None else state.created_at_turn
        )
        yield_from = (
            state.last_yield_turn if state.last_yield_turn is not None else state.created_at_turn
        )
        since_focus = max(turn - focus_from, 0)
        since_yield = max(turn - yield_from, 0)
        if (
            since_focus != state.turns_since_last_focus
            or since_yield != state.turns_since_last_yield
        ):
            changed[node_id] = _evolve(
                state, turns_since_last_focus=since_focus, turns_since_last_yield=since_yield
            )
    return replace(_with_states(tracker, changed), turn=turn)


age = advance_turn


def update_depths(tracker: NodeStateTracker, depths: Mapping[str, int]) -> NodeStateTracker:
    """Refresh each tracked node's chain depth (``KnowledgeGraph.node_depths``)."""
    changed = {
        node_id: _evolve(state, depth=depths[node_id])
        for node_id, state in tracker.states.items()
        if node_id in depths and depths[node_id] != state.depth
    }
    return _with_states(tracker, changed)


def apply_graph_delta(
    tracker: NodeStateTracker,
    graph: KnowledgeGraph,
    delta: GraphDelta,
    *,
    methodology: Methodology,
    turn: int,
) -> NodeStateTracker:
    """The graph-update half of a turn in seed order: register, edge counts, yield, depths.

    ``graph`` is the graph after ``apply_extraction`` produced ``delta``.
    """
    ontology = methodology.ontology
    window = methodology.tuning.exhaustion.recent_depths_window
    depths = graph.node_depths(ontology.chain_relations)
    for added in delta.nodes_added:
        node = graph.node(added.node_id)
        spec = ontology.node_type(node.node_type)
        tracker = register_node(
            tracker,
            node,
            turn,
            level=spec.level if spec is not None else 0,
            is_terminal=node.node_type in ontology.terminal_types,
            depth=depths.get(node.id, 0),
            recent_depths_window=window,
        )
    for edge in delta.edges_added:
        tracker = update_edge_counts(tracker, edge.source, edge.target)
    if methodology.tuning.vetoes.revised_inherits_links:
        for revised in delta.superseded:
            tracker = inherit_links(tracker, revised.node_id, revised.by)
    tracker = record_yield(tracker, delta.yield_node_ids, turn, graph_changed=delta.changed)
    return update_depths(tracker, depths)
