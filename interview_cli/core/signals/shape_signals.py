"""Signals of the journey and grid shapes (``journey.*``, ``grid.*``).

Each detector returns None unless the methodology has that shape, so ladder interviews (and
sessions recorded before these signals existed) see nothing new. The journey's stage order
is the concept's (its elements, which the coverage state carries in order); the grid's
element count likewise. Node signals are computed from the node's own neighbourhood, so a
turn costs no more than a walk over each node's edges.
"""

from __future__ import annotations

from typing import Any

from interview_cli.config.shapes import GridSpec, JourneySpec
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.grid import Grid, build_grid
from interview_cli.core.journey import JourneyMap, build_journey
from interview_cli.core.signals.base import Deps, SignalContext, global_signal, node_signal


def _journey(ctx: SignalContext) -> JourneySpec | None:
    m = ctx.methodology
    return m.journey if m.shape == "journey" and ctx.graph is not None else None


def _grid(ctx: SignalContext) -> GridSpec | None:
    m = ctx.methodology
    return m.grid if m.shape == "grid" and ctx.graph is not None else None


def _element_pairs(ctx: SignalContext) -> list[tuple[str, str]]:
    coverage = ctx.coverage
    if coverage is None or not coverage.active:
        return []
    return [(e, e) for e in coverage.element_ids]


def _graph(ctx: SignalContext) -> KnowledgeGraph:
    """The turn's graph, which every journey and grid signal reads (a decision on a journey
    or a grid always has one)."""
    if ctx.graph is None:
        raise ValueError("a journey or grid signal is detected on the turn's graph: none given")
    return ctx.graph


def _journey_map(ctx: SignalContext) -> JourneyMap:
    if "journey" not in ctx.memo:
        ctx.memo["journey"] = build_journey(_graph(ctx), ctx.methodology, _element_pairs(ctx))
    return ctx.memo["journey"]  # type: ignore[no-any-return]


def _grid_view(ctx: SignalContext) -> Grid:
    if "grid" not in ctx.memo:
        ctx.memo["grid"] = build_grid(_graph(ctx), ctx.methodology, _element_pairs(ctx))
    return ctx.memo["grid"]  # type: ignore[no-any-return]


# ---- journey -----------------------------------------------------------------------------


@global_signal("journey.stage_coverage")
def _stage_coverage(ctx: SignalContext, deps: Deps) -> float | None:
    if _journey(ctx) is None:
        return None
    return _journey_map(ctx).coverage


@global_signal("journey.stages_pending")
def _stages_pending(ctx: SignalContext, deps: Deps) -> bool | None:
    if _journey(ctx) is None:
        return None
    if not _element_pairs(ctx):
        return True
    return any(not s.told for s in _journey_map(ctx).stages)


@global_signal("journey.gap_count")
def _gap_count(ctx: SignalContext, deps: Deps) -> int | None:
    if _journey(ctx) is None:
        return None
    journey = _journey_map(ctx)
    gaps = 0
    for stage in journey.told:
        gaps += (not stage.has_steps) + (not stage.emotions)
        gaps += sum(1 for p in stage.pains if not p.explored)
    return gaps


def _node_type(ctx: SignalContext, node_id: str) -> str | None:
    return ctx.node_types.get(node_id)


def _steps(ctx: SignalContext, spec: JourneySpec, stage: str) -> list[str]:
    return [s for s in _graph(ctx).successors(stage) if _node_type(ctx, s) in spec.step_types]


@node_signal("journey.node.missing_emotion")
def _missing_emotion(ctx: SignalContext, state: Any, deps: Deps) -> bool | None:
    spec = _journey(ctx)
    if spec is None or _node_type(ctx, state.node_id) != spec.stage_type:
        return None
    graph = _graph(ctx)
    for source in (state.node_id, *_steps(ctx, spec, state.node_id)):
        if any(_node_type(ctx, s) == spec.emotion_type for s in graph.successors(source)):
            return False
    return True


@node_signal("journey.node.missing_steps")
def _missing_steps(ctx: SignalContext, state: Any, deps: Deps) -> bool | None:
    spec = _journey(ctx)
    if spec is None or _node_type(ctx, state.node_id) != spec.stage_type:
        return None
    return not _steps(ctx, spec, state.node_id)


@node_signal("journey.node.unexplored_pain")
def _unexplored_pain(ctx: SignalContext, state: Any, deps: Deps) -> bool | None:
    spec = _journey(ctx)
    if spec is None or _node_type(ctx, state.node_id) != spec.pain_type:
        return None
    return _graph(ctx).out_degree(state.node_id) == 0


def _stage_node(ctx: SignalContext, spec: JourneySpec, node_id: str) -> str | None:
    frontier, seen = [node_id], set()
    while frontier:
        current = frontier.pop(0)
        if current in seen:
            continue
        seen.add(current)
        if _node_type(ctx, current) == spec.stage_type:
            return current
        frontier.extend(_graph(ctx).predecessors(current))
    return None


@node_signal("journey.node.stage_position")
def _stage_position(ctx: SignalContext, state: Any, deps: Deps) -> float | None:
    spec = _journey(ctx)
    if spec is None or not _graph(ctx).has_node(state.node_id):
        return None
    graph = _graph(ctx)
    stage = _stage_node(ctx, spec, state.node_id)
    if stage is None:
        return None
    order = [e for e, _ in _element_pairs(ctx)]
    element = graph.node(stage).element_id
    if element in order:
        return order.index(element) / max(1, len(order) - 1)
    stages = [n.id for n in graph.nodes(spec.stage_type)]
    return stages.index(stage) / max(1, len(stages) - 1)


# ---- grid --------------------------------------------------------------------------------


@global_signal("grid.construct_count")
def _construct_count(ctx: SignalContext, deps: Deps) -> int | None:
    spec = _grid(ctx)
    if spec is None:
        return None
    return len(_graph(ctx).nodes(spec.construct_type))


@global_signal("grid.rating_completion")
def _rating_completion(ctx: SignalContext, deps: Deps) -> float | None:
    if _grid(ctx) is None:
        return None
    completion = _grid_view(ctx).completion
    return 1.0 if completion is None else completion


@global_signal("grid.ratings_pending")
def _ratings_pending(ctx: SignalContext, deps: Deps) -> bool | None:
    if _grid(ctx) is None:
        return None
    return any(not c.complete for c in _grid_view(ctx).constructs)


def _element_count(ctx: SignalContext, spec: GridSpec) -> int:
    pairs = _element_pairs(ctx)
    return len(pairs) or len(_graph(ctx).nodes(spec.element_type))


@node_signal("grid.node.missing_ratings")
def _missing_ratings(ctx: SignalContext, state: Any, deps: Deps) -> bool | None:
    spec = _grid(ctx)
    if spec is None or _node_type(ctx, state.node_id) != spec.construct_type:
        return None
    graph = _graph(ctx)
    rated = [
        p
        for p in graph.predecessors(state.node_id, (spec.rating_relation,))
        if graph.relations(p, state.node_id)[spec.rating_relation].value is not None
    ]
    return len(rated) < _element_count(ctx, spec)


@node_signal("grid.node.laddered")
def _laddered(ctx: SignalContext, state: Any, deps: Deps) -> bool | None:
    spec = _grid(ctx)
    if spec is None or _node_type(ctx, state.node_id) != spec.construct_type:
        return None
    graph = _graph(ctx)
    return any(
        _node_type(ctx, s) not in (spec.element_type, spec.construct_type)
        for s in graph.successors(state.node_id)
    )
