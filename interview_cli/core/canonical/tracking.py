"""Node tracking through canonical slots, and the canonical signals' inputs.

Implements seed 001 "Dual-Graph Support" of ``NodeStateTracker`` (surface node ids resolve to
canonical slots for tracking, so paraphrases aggregate: "fast car" and "quick vehicle" are one
concept) and the canonical half of seed 001 "Signal Pools" (``graph.canonical_*``,
``meta.canonical.saturation``) via ``core.signals.CanonicalInfo``.

How the aggregation is done, and why this way: the tracker itself stays per surface node (it is
what the session file keeps and what candidates are built from), and ``slot_tracking_view``
derives, for one decision, a tracker in which every member of an ACTIVE slot carries the slot's
aggregate: focus and yield counts summed, "turns since" the minimum, last turns the maximum,
response depths merged in answer order, strategy use and edge counts summed, neighbours outside
the slot united.
Identity fields (id, label, type, level, creation turn) stay the member's own. So the node
signals (exhaustion, focus streak, yield stagnation, orphan, ...) of every paraphrase read the
slot-level state, and focusing "quick vehicle" right after "fast car" continues one streak.
Candidate slots (one surface node, or not yet confirmed) do not aggregate. ``core.turn.advance``
scores with the view and carries the real tracker forward.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from interview_cli.config.schemas import Methodology
from interview_cli.core.canonical.slots import (
    CanonicalState,
    aggregate_edges,
    canonical_graph_state,
)
from interview_cli.core.signals.base import CanonicalInfo
from interview_cli.core.signals.node_signals import exhaustion_score, shallow_ratio
from interview_cli.core.tracker import NodeState, NodeStateTracker

if TYPE_CHECKING:
    from interview_cli.core.decide.vetoes import FocusEntry
    from interview_cli.core.graph.knowledge import KnowledgeGraph


def _trailing_run(entries: Sequence[FocusEntry], members: set[str]) -> int:
    run = 0
    for entry in reversed(entries):
        if entry.node_id not in members:
            break
        run += 1
    return run


def _ordered_depths(states: Sequence[NodeState], history: Sequence[FocusEntry]) -> tuple[str, ...]:
    """The members' response depths in the order the answers were given.

    A node's depths are appended once per answered focus, so its k-th latest depth belongs to
    its k-th latest focus turn in the (bounded) focus history; older depths go first.
    """
    timed: list[tuple[float, int, int, str]] = []
    for order, state in enumerate(states):
        turns = [e.turn for e in history if e.node_id == state.node_id]
        depths = state.all_response_depths
        k = min(len(turns), len(depths))
        for i, depth in enumerate(depths):
            aligned = i - (len(depths) - k)
            turn = float(turns[len(turns) - k + aligned]) if aligned >= 0 else float("-inf")
            timed.append((turn, order, i, depth))
    return tuple(d for *_, d in sorted(timed))


def _aggregate(states: Sequence[NodeState], history: Sequence[FocusEntry]) -> dict[str, Any]:
    ids = {s.node_id for s in states}
    in_slot = [e for e in history if e.node_id in ids]
    focus_count = sum(s.focus_count for s in states)
    yield_count = sum(s.yield_count for s in states)
    usage: dict[str, int] = {}
    for s in states:
        for strategy, n in s.strategy_usage_count.items():
            usage[strategy] = usage.get(strategy, 0) + n
    latest = max(states, key=lambda s: s.last_focus_turn or 0)
    last_strategy = in_slot[-1].strategy if in_slot else latest.last_strategy_used
    same = (
        sum(1 for _ in _trailing_strategy(in_slot))
        if in_slot
        else max(s.consecutive_same_strategy for s in states)
    )
    focus_turns = [s.last_focus_turn for s in states if s.last_focus_turn is not None]
    yield_turns = [s.last_yield_turn for s in states if s.last_yield_turn is not None]
    ceilings = [s.knowledge_ceiling_turn for s in states if s.knowledge_ceiling_turn is not None]
    return {
        "focus_count": focus_count,
        "last_focus_turn": max(focus_turns) if focus_turns else None,
        "turns_since_last_focus": min(s.turns_since_last_focus for s in states),
        "current_focus_streak": _trailing_run(history, ids)
        if history
        else max(s.current_focus_streak for s in states),
        "last_yield_turn": max(yield_turns) if yield_turns else None,
        "turns_since_last_yield": min(s.turns_since_last_yield for s in states),
        "yield_count": yield_count,
        "yield_rate": min(yield_count / max(focus_count, 1), 1.0),
        "all_response_depths": _ordered_depths(states, history),
        "connected_node_ids": frozenset().union(*(s.connected_node_ids for s in states)) - ids,
        "edge_count_outgoing": sum(s.edge_count_outgoing for s in states),
        "edge_count_incoming": sum(s.edge_count_incoming for s in states),
        "strategy_usage_count": usage,
        "last_strategy_used": last_strategy,
        "consecutive_same_strategy": same,
        "knowledge_ceiling_turn": max(ceilings) if ceilings else None,
        "probes": tuple(sorted((p for s in states for p in s.probes), key=lambda p: p.turn)),
    }


def _trailing_strategy(entries: Sequence[FocusEntry]) -> Iterable[FocusEntry]:
    last = entries[-1].strategy
    for entry in reversed(entries):
        if entry.strategy != last:
            return
        yield entry


def slot_tracking_view(
    tracker: NodeStateTracker,
    canonical: CanonicalState,
    focus_history: Sequence[FocusEntry] = (),
) -> NodeStateTracker:
    """``tracker`` with each member of an active slot carrying the slot's aggregate state.

    Streaks and strategy runs are read from ``focus_history`` (oldest first) because focusing
    "quick vehicle" right after "fast car" continues the same slot's streak. Candidate slots
    are not stable concepts yet and do not aggregate. Returns ``tracker`` itself when no
    active slot has two tracked members.
    """
    members = canonical.members()
    changed: dict[str, NodeState] = {}
    for slot_id in canonical.active_ids():
        tracked = [tracker.states[n] for n in members.get(slot_id, []) if n in tracker.states]
        if len(tracked) < 2:
            continue
        aggregate = _aggregate(tracked, focus_history)
        for state in tracked:
            changed[state.node_id] = replace(state, **aggregate)
    if not changed:
        return tracker
    states = dict(tracker.states)
    states.update(changed)
    return NodeStateTracker(states=states, previous_focus=tracker.previous_focus, turn=tracker.turn)


def canonical_info(
    canonical: CanonicalState,
    *,
    graph: KnowledgeGraph,
    tracker: NodeStateTracker,
    methodology: Methodology,
) -> CanonicalInfo:
    """The canonical signals' inputs for this turn: edges re-aggregated from ``graph`` (the
    graph after this turn's update), exhaustion from ``tracker`` (a ``slot_tracking_view``)."""
    edges = aggregate_edges(canonical.mappings, graph)
    state = canonical_graph_state(canonical, edges)
    norm = methodology.tuning.saturation.edge_density_norm
    density = (
        min(state.edge_count / state.concept_count / norm, 1.0) if state.concept_count else 0.0
    )
    window = methodology.tuning.exhaustion.recent_depths_window
    members = canonical.members()
    scores = []
    for slot_id in canonical.active_ids():
        tracked = [tracker.states[n] for n in members.get(slot_id, []) if n in tracker.states]
        if tracked:  # every member carries the slot's aggregate in the view; read the first
            s = tracked[0]
            scores.append(
                exhaustion_score(
                    s.turns_since_last_yield,
                    s.current_focus_streak,
                    shallow_ratio(s.all_response_depths, window),
                )
            )
    return CanonicalInfo(
        enabled=True,
        concept_count=state.concept_count,
        edge_density=round(density, 6),
        exhaustion_score=round(sum(scores) / len(scores), 6) if scores else 0.0,
        new_slots=canonical.last_new_slots,
        new_surface_nodes=canonical.last_new_surface_nodes,
    )


__all__ = ["canonical_info", "slot_tracking_view"]
