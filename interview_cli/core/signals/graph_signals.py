"""Global ``graph.*`` signals, read from this turn's ``GraphState`` and saturation metrics
(seed 001 "Graph State Metrics" / "Signal Namespacing", seed 002 Paths 11 and 16).

The graph state is computed once per turn by ``core.state.compute_graph_state``; these detectors
only expose its numbers under the seeds' signal names. Canonical figures come from
``SignalContext.canonical`` and are zeros while canonical slots are off.
"""

from __future__ import annotations

from interview_cli.core.signals.base import Deps, SignalContext, global_signal


def _state_value(ctx: SignalContext, attribute: str) -> int | float | bool | None:
    state = ctx.graph_state
    return None if state is None else getattr(state, attribute)


@global_signal("graph.node_count")
def _node_count(ctx: SignalContext, deps: Deps) -> int | float | bool | None:
    return _state_value(ctx, "node_count")


@global_signal("graph.edge_count")
def _edge_count(ctx: SignalContext, deps: Deps) -> int | float | bool | None:
    return _state_value(ctx, "edge_count")


@global_signal("graph.orphan_count")
def _orphan_count(ctx: SignalContext, deps: Deps) -> int | float | bool | None:
    return _state_value(ctx, "orphan_count")


@global_signal("graph.max_depth")
def _max_depth(ctx: SignalContext, deps: Deps) -> int | float | bool | None:
    return _state_value(ctx, "max_depth")


@global_signal("graph.depth_ratio")
def _depth_ratio(ctx: SignalContext, deps: Deps) -> int | float | bool | None:
    return _state_value(ctx, "depth_ratio")


@global_signal("graph.avg_depth")
def _avg_depth(ctx: SignalContext, deps: Deps) -> int | float | bool | None:
    return _state_value(ctx, "avg_depth")


@global_signal("graph.chain_completion.ratio")
def _chain_completion_ratio(ctx: SignalContext, deps: Deps) -> int | float | bool | None:
    return _state_value(ctx, "chain_completion_ratio")


@global_signal("graph.chain_completion.has_complete")
def _has_complete_chain(ctx: SignalContext, deps: Deps) -> int | float | bool | None:
    return _state_value(ctx, "has_complete_chain")


@global_signal("graph.edge_density")
def _edge_density(ctx: SignalContext, deps: Deps) -> int | float | bool | None:
    return _state_value(ctx, "edge_density")


@global_signal("graph.new_info_rate")
def _new_info_rate(ctx: SignalContext, deps: Deps) -> float | None:
    sat = ctx.saturation
    return None if sat is None else float(sat.new_info_rate)


@global_signal("graph.canonical_concept_count")
def _canonical_concept_count(ctx: SignalContext, deps: Deps) -> int:
    return ctx.canonical.concept_count if ctx.canonical.enabled else 0


@global_signal("graph.canonical_edge_density")
def _canonical_edge_density(ctx: SignalContext, deps: Deps) -> float:
    return ctx.canonical.edge_density if ctx.canonical.enabled else 0.0


@global_signal("graph.canonical_exhaustion_score")
def _canonical_exhaustion_score(ctx: SignalContext, deps: Deps) -> float:
    return ctx.canonical.exhaustion_score if ctx.canonical.enabled else 0.0
