"""The journey map a journey-shaped interview builds (pure: graph in, view out).

A journey methodology (``shape: journey``) names its stage, touchpoint, action, emotion and
pain node types in its ``journey:`` section. This module reads them back out of the surface
graph as an ordered list of stages, each with what happened there (touchpoints and actions),
how it felt (emotions with a valence) and what went wrong (pain points, and whether each was
followed up). Signals (``core.signals.shape_signals``) and the report's journey section both
read this one view.

Stage order: the concept's stages (its ``elements``, in order) first, matched to stage nodes
by ``element_id`` or by label; stages the respondent named that the concept does not list
follow in the order they were first told. A concept stage nobody has told yet is listed
without a node, so the map shows the gap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from interview_cli.config.schemas import Methodology
from interview_cli.config.shapes import JourneySpec
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.text import normalise


@dataclass(frozen=True)
class Feeling:
    node_id: str
    label: str
    valence: float | None


@dataclass(frozen=True)
class Pain:
    node_id: str
    label: str
    explored: bool
    fixes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Stage:
    label: str
    node_id: str | None = None
    element_id: str | None = None
    touchpoints: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    emotions: tuple[Feeling, ...] = ()
    pains: tuple[Pain, ...] = ()

    @property
    def told(self) -> bool:
        return self.node_id is not None

    @property
    def valence(self) -> float | None:
        """Mean valence of the stage's emotions (None: no emotion with a valence yet)."""
        values = [e.valence for e in self.emotions if e.valence is not None]
        return sum(values) / len(values) if values else None

    @property
    def has_steps(self) -> bool:
        return bool(self.touchpoints or self.actions)


@dataclass(frozen=True)
class JourneyMap:
    stages: tuple[Stage, ...]

    @property
    def told(self) -> list[Stage]:
        return [s for s in self.stages if s.told]

    @property
    def coverage(self) -> float:
        """Share of the journey's stages told so far (0.0 before any stage)."""
        if not self.stages:
            return 0.0
        return sum(1 for s in self.stages if s.told) / len(self.stages)

    def position(self, stage_node: str) -> float | None:
        ids = [s.node_id for s in self.stages]
        if stage_node not in ids:
            return None
        return ids.index(stage_node) / max(1, len(ids) - 1)

    def to_dict(self) -> list[dict[str, object]]:
        return [
            {
                "stage": s.label,
                "element_id": s.element_id,
                "told": s.told,
                "touchpoints": list(s.touchpoints),
                "actions": list(s.actions),
                "emotions": [{"label": e.label, "valence": e.valence} for e in s.emotions],
                "valence": s.valence,
                "pain_points": [
                    {"label": p.label, "explored": p.explored, "fixes": list(p.fixes)}
                    for p in s.pains
                ],
            }
            for s in self.stages
        ]


def journey_spec(methodology: Methodology) -> JourneySpec | None:
    return methodology.journey if methodology.shape == "journey" else None


def _valence(graph: KnowledgeGraph, spec: JourneySpec, source: str, target: str) -> float | None:
    relation = graph.relations(source, target).get(spec.emotion_relation)
    if relation is not None and relation.value is not None:
        return relation.value
    stance = graph.node(target).stance
    return float(stance * spec.valence_scale[1]) if stance else None


def _stage_of(
    graph: KnowledgeGraph, spec: JourneySpec, stage_id: str, label: str, element: str | None
) -> Stage:
    steps = [stage_id]
    touchpoints: list[str] = []
    actions: list[str] = []
    for succ in graph.successors(stage_id):
        kind = graph.node(succ).node_type
        if kind == spec.touchpoint_type:
            touchpoints.append(graph.node(succ).label)
            steps.append(succ)
        elif kind == spec.action_type:
            actions.append(graph.node(succ).label)
            steps.append(succ)
    emotions: dict[str, Feeling] = {}
    pains: dict[str, Pain] = {}
    for step in steps:
        for succ in graph.successors(step):
            node = graph.node(succ)
            if graph.is_superseded(succ):
                continue
            if node.node_type == spec.emotion_type and succ not in emotions:
                emotions[succ] = Feeling(succ, node.label, _valence(graph, spec, step, succ))
            elif node.node_type == spec.pain_type and succ not in pains:
                fixes = tuple(graph.node(f).label for f in graph.successors(succ))
                pains[succ] = Pain(succ, node.label, explored=bool(fixes), fixes=fixes)
    return Stage(
        label=label,
        node_id=stage_id,
        element_id=element,
        touchpoints=tuple(touchpoints),
        actions=tuple(actions),
        emotions=tuple(emotions.values()),
        pains=tuple(pains.values()),
    )


def build_journey(
    graph: KnowledgeGraph,
    methodology: Methodology,
    concept_stages: Sequence[tuple[str, str]] = (),
) -> JourneyMap:
    """The journey map; ``concept_stages`` are the concept's (id, label) pairs in order."""
    spec = journey_spec(methodology)
    if spec is None:
        return JourneyMap(())
    nodes = [n for n in graph.nodes(spec.stage_type) if not graph.is_superseded(n.id)]
    by_element = {n.element_id: n for n in nodes if n.element_id}
    by_label = {normalise(n.label): n for n in nodes}
    used: set[str] = set()
    stages: list[Stage] = []
    for element_id, label in concept_stages:
        node = by_element.get(element_id) or by_label.get(normalise(label))
        if node is None or node.id in used:
            stages.append(Stage(label=label, element_id=element_id))
            continue
        used.add(node.id)
        stages.append(_stage_of(graph, spec, node.id, label, element_id))
    for node in nodes:
        if node.id not in used:
            stages.append(_stage_of(graph, spec, node.id, node.label, node.element_id))
    return JourneyMap(tuple(stages))
