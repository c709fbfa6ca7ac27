"""Per-node state across turns: the NodeStateTracker of seed 001 "Node State Tracking".

Implements seed 001 "Node State Tracking" / "Node Tracker Persistence", seed 002 Path 8 and
seed 003 (ADR-015). Node-level signals (exhaustion, focus streak, recency, strategy repetition)
are computed from these values by ``core.signals``; this module only keeps the books.

Everything here is a value: ``NodeState`` and ``NodeStateTracker`` (in ``core.node_state``) are
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
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from interview_cli.config.tuning import RECENT_DEPTHS_WINDOW
from interview_cli.core.node_state import (
    ABOUT_INTERVIEW,
    ALREADY_SAID,
    CLOSING_OUTCOMES,
    DECLINED,
    DONT_KNOW,
    MOVE_ON,
    NEW_RUNG,
    NODE_TRACKER_SCHEMA_VERSION,
    NOTHING_NEW,
    PROBE_OUTCOMES,
    SHALLOW_DEPTHS,
    SKIPPED,
    NodeState,
    NodeStateTracker,
    Probe,
)

if TYPE_CHECKING:  # imported for annotations only; keeps this module free of import cycles
    from interview_cli.config.schemas import Methodology
    from interview_cli.core.graph import KnowledgeGraph
    from interview_cli.core.graph_records import Node
    from interview_cli.core.graph_update import GraphDelta

# The values live in core.node_state; many modules import them from here with the updates.
__all__ = [
    "ABOUT_INTERVIEW",
    "ALREADY_SAID",
    "CLOSING_OUTCOMES",
    "DECLINED",
    "DONT_KNOW",
    "MOVE_ON",
    "NEW_RUNG",
    "NODE_TRACKER_SCHEMA_VERSION",
    "NOTHING_NEW",
    "NodeState",
    "NodeStateTracker",
    "PROBE_OUTCOMES",
    "Probe",
    "SHALLOW_DEPTHS",
    "SKIPPED",
    "advance_turn",
    "append_response_signal",
    "apply_graph_delta",
    "record_probe_outcome",
    "record_yield",
    "register_node",
    "update_depths",
    "update_edge_counts",
    "update_focus",
]


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
    tracker = record_yield(tracker, delta.yield_node_ids, turn, graph_changed=delta.changed)
    return update_depths(tracker, depths)
