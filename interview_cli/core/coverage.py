"""Coverage of a concept's stimulus elements (evaluative interviews).

Implements seed 000 "CoverageState", "Coverage Gap Recomputation" (Complexity Hotspots 2),
"Non-Obvious Constraints 2" and "Element Focus Exhaustion" (Complexity Hotspots 7). Only
active when the concept lists ``elements``; exploratory concepts have none and every function
here then returns an inactive state with nothing to report.

Derived, not stored (seed 000 "State is derived"): element-node mappings and gaps are
recomputed from the whole graph on every update, so stale mappings (a node that no longer
exists) cannot survive. Three things are history and are carried forward: reactions per
element, focus counts, and the questions that raised an element the respondent had not
mentioned (``raised``: seed 004 ``cover_element``; ``element_to_raise`` picks the next one).

Deliberate departures from the seed:

- Focus counts are TOTAL focuses on an element, never reset when the interview switches to
  another element: the seed's reset-on-switch lets a respondent who keeps coming back to a
  topic be asked about it six or more times before it counts as exhausted.
- The "unconnected" gap: our concepts have no explicit connection requirements, so an element
  is unconnected when it is mentioned but none of its nodes has any edge yet (it was named but
  never linked to a consequence, another element or a value).
- "no_comprehension": the latest reaction recorded for the element is ``confused``.

A node maps to an element when the extractor said so (``element_id``) or when every content
word of the element's label or of one of its aliases appears in the node's label or one of its
aliases (``core.text`` lemmas and synonyms: "creamy texture" maps to element "texture").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from interview_cli.config.schemas import Concept, ConceptElement
from interview_cli.core.graph.dedup import same_word
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.records import Node
from interview_cli.core.graph.update import GraphDelta
from interview_cli.core.models import Extraction
from interview_cli.core.text import label_profile, normalise

GapType = Literal["unmentioned", "no_reaction", "no_comprehension", "unconnected"]
GAP_TYPES: tuple[GapType, ...] = ("unmentioned", "no_reaction", "no_comprehension", "unconnected")


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CoverageGap(_Frozen):
    element_id: str
    gap_type: GapType


class CoverageState(_Frozen):
    """Per-element mentions, reactions, focus counts, exhaustion and gaps."""

    element_ids: list[str] = Field(default_factory=list, description="concept order")
    element_node_ids: dict[str, list[str]] = Field(default_factory=dict)
    reactions: dict[str, list[str]] = Field(
        default_factory=dict, description="element id -> reactions recorded, oldest first"
    )
    focus_counts: dict[str, int] = Field(
        default_factory=dict, description="element id -> TOTAL turns focused on it"
    )
    exhausted: list[str] = Field(default_factory=list, description="permanent once listed")
    gaps: list[CoverageGap] = Field(default_factory=list)
    raised: dict[str, list[int]] = Field(
        default_factory=dict,
        description="element id -> the turns whose question raised it (the interviewer "
        "brought it up; the respondent had not mentioned it)",
    )

    @model_serializer(mode="wrap")
    def _without_empty_raised(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        # A state in which no element was raised dumps as it did before raising existed, so
        # the saved states of older sessions compare equal on replay.
        data: dict[str, object] = handler(self)
        if not data.get("raised"):
            data.pop("raised", None)
        return data

    @property
    def active(self) -> bool:
        return bool(self.element_ids)

    @property
    def mentioned(self) -> list[str]:
        return [e for e in self.element_ids if self.element_node_ids.get(e)]

    @property
    def ratio(self) -> float:
        """coverage.ratio: share of elements mentioned (1.0 when there are no elements)."""
        if not self.element_ids:
            return 1.0
        return len(self.mentioned) / len(self.element_ids)

    @property
    def has_gaps(self) -> bool:
        return bool(self.gaps)

    @property
    def unmentioned_count(self) -> int:
        return len(self.element_ids) - len(self.mentioned)

    def latest_reaction(self, element_id: str) -> str | None:
        history = self.reactions.get(element_id, [])
        return history[-1] if history else None

    def gaps_of(self, element_id: str) -> list[GapType]:
        return [g.gap_type for g in self.gaps if g.element_id == element_id]

    def elements_of_node(self, node_id: str) -> list[str]:
        """Elements a node is mapped to, in concept order."""
        return [e for e in self.element_ids if node_id in self.element_node_ids.get(e, [])]

    def is_exhausted(self, element_id: str) -> bool:
        return element_id in self.exhausted

    @property
    def missing(self) -> list[str]:
        """Elements not mentioned yet, in concept order."""
        return [e for e in self.element_ids if not self.element_node_ids.get(e)]

    def raise_count(self, element_id: str) -> int:
        return len(self.raised.get(element_id, []))

    def to_raise(self, max_raises: int) -> list[str]:
        """Elements an element question may still raise: not mentioned, raised fewer than
        ``max_raises`` times and not exhausted; the least raised first, then concept order
        (an element is not raised twice before every other one was raised once)."""
        left = [
            e for e in self.missing if self.raise_count(e) < max_raises and not self.is_exhausted(e)
        ]
        return sorted(left, key=self.raise_count)

    def element_to_raise(self, max_raises: int) -> str | None:
        """The element the next element question raises (the concept's order is the
        researcher's priority), or None when none is left."""
        left = self.to_raise(max_raises)
        return left[0] if left else None


# --------------------------------------------------------------------------------------------
# Mapping
# --------------------------------------------------------------------------------------------


def _label_covers(element_label: str, node_label: str) -> bool:
    """Every content word of the element label appears (lemma/synonym/typo) in the node label."""
    if normalise(element_label) == normalise(node_label):
        return True
    wanted = label_profile(element_label).content
    have = label_profile(node_label).content
    return bool(wanted) and all(any(same_word(w, h) for h in have) for w in wanted)


def _element_matches(element: ConceptElement, labels: Iterable[str]) -> bool:
    names = (element.label, *element.aliases)
    return any(_label_covers(name, label) for name in names for label in labels)


def elements_for_labels(
    concept: Concept, labels: Iterable[str], element_id: str | None = None
) -> list[str]:
    """Element ids that a node with these labels (and extractor ``element_id``) maps to."""
    label_list = list(labels)
    # An element_id the concept does not know is ignored; the labels still count.
    return [e.id for e in concept.elements if e.id == element_id or _element_matches(e, label_list)]


def map_node(node: Node, concept: Concept) -> list[str]:
    return elements_for_labels(concept, node.labels, node.element_id)


# --------------------------------------------------------------------------------------------
# Updates
# --------------------------------------------------------------------------------------------


def initial_coverage(concept: Concept) -> CoverageState:
    ids = [e.id for e in concept.elements]
    state = CoverageState(
        element_ids=ids,
        element_node_ids={e: [] for e in ids},
        reactions={e: [] for e in ids},
        focus_counts={e: 0 for e in ids},
    )
    return state.model_copy(update={"gaps": compute_gaps(state, None)})


def compute_gaps(state: CoverageState, graph: KnowledgeGraph | None) -> list[CoverageGap]:
    """The four gap types for every element, in concept order (seed 000 Hotspot 2).

    An unmentioned element reports only ``unmentioned``; the others follow from it. Linear in
    the mapped nodes (one degree lookup per node), not the seed's O(E * N^2) pair scan.
    """
    gaps: list[CoverageGap] = []
    for element_id in state.element_ids:
        node_ids = [
            n for n in state.element_node_ids.get(element_id, []) if graph is None or n in graph
        ]
        if not node_ids:
            gaps.append(CoverageGap(element_id=element_id, gap_type="unmentioned"))
            continue
        latest = state.latest_reaction(element_id)
        if latest is None:
            gaps.append(CoverageGap(element_id=element_id, gap_type="no_reaction"))
        elif latest == "confused":
            gaps.append(CoverageGap(element_id=element_id, gap_type="no_comprehension"))
        if graph is not None and all(graph.is_orphan(n) for n in node_ids):
            gaps.append(CoverageGap(element_id=element_id, gap_type="unconnected"))
    return gaps


def update_coverage(
    state: CoverageState,
    *,
    graph: KnowledgeGraph,
    concept: Concept,
    extraction: Extraction | None = None,
    delta: GraphDelta | None = None,
) -> CoverageState:
    """Recompute mappings and gaps from ``graph``; record this turn's reactions.

    A reaction on an extracted node counts for the element the extractor named, else for the
    elements of the node it became (``delta.resolved``), else for elements its label matches.
    """
    if not state.active:
        return state
    mapping: dict[str, list[str]] = {e: [] for e in state.element_ids}
    for node in graph.nodes():
        for element_id in map_node(node, concept):
            mapping[element_id].append(node.id)
    reactions = {e: list(state.reactions.get(e, [])) for e in state.element_ids}
    if extraction is not None:
        resolved: Mapping[str, str] = delta.resolved if delta is not None else {}
        for item in extraction.nodes:
            if item.reaction is None:
                continue
            if item.element_id in mapping:
                targets = [item.element_id]
            elif item.label in resolved and resolved[item.label] in graph:
                targets = map_node(graph.node(resolved[item.label]), concept)
            else:
                targets = elements_for_labels(concept, [item.label])
            for element_id in dict.fromkeys(targets):
                reactions[element_id].append(item.reaction)
    updated = state.model_copy(update={"element_node_ids": mapping, "reactions": reactions})
    return updated.model_copy(update={"gaps": compute_gaps(updated, graph)})


def record_element_focus(state: CoverageState, element_id: str, *, max_focus: int) -> CoverageState:
    """Count one more focus on ``element_id``; exhausted (for good) at ``max_focus`` total.

    ``max_focus`` is ``tuning.vetoes.element_max_focus``. Other elements keep their counts.
    """
    if element_id not in state.element_ids:
        return state
    counts = dict(state.focus_counts)
    counts[element_id] = counts.get(element_id, 0) + 1
    exhausted = list(state.exhausted)
    if counts[element_id] >= max_focus and element_id not in exhausted:
        exhausted.append(element_id)
    return state.model_copy(update={"focus_counts": counts, "exhausted": exhausted})


def record_raise(
    state: CoverageState, element_id: str, *, turn: int, max_focus: int
) -> CoverageState:
    """An element question about ``element_id`` is asked as turn ``turn``'s question: it is
    raised once more, and counts as a focus on the element (``record_element_focus``)."""
    if element_id not in state.element_ids:
        return state
    raised = {e: list(turns) for e, turns in state.raised.items()}
    raised.setdefault(element_id, []).append(turn)
    state = state.model_copy(update={"raised": raised})
    return record_element_focus(state, element_id, max_focus=max_focus)


def record_node_focus(
    state: CoverageState, node_id: str | None, *, max_focus: int
) -> CoverageState:
    """Count a focus on every element the focused node maps to (none for no node)."""
    if node_id is None:
        return state
    for element_id in state.elements_of_node(node_id):
        state = record_element_focus(state, element_id, max_focus=max_focus)
    return state
