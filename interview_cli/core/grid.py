"""The repertory grid a grid-shaped interview builds (pure: graph in, view out).

A grid methodology (``shape: grid``) names its element and construct node types and its
rating relation in its ``grid:`` section. Elements are the concept's (at least six, in
concept order); each construct is a bipolar node labelled ``"<pole> vs <opposite pole>"``
(elicited from a triad: how two elements are alike and differ from the third); each rating
is an edge element -> construct whose ``value`` is the rating on the scale set in the YAML
(1 = the first pole). ``build_grid`` reads the matrix back out; triads are chosen by
``triad`` so the question and the extraction agree on which three elements were shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from interview_cli.config.schemas import Methodology
from interview_cli.config.shapes import GridSpec
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.text import normalise

POLE_SEPARATOR = " vs "


@dataclass(frozen=True)
class Construct:
    node_id: str
    label: str
    ratings: tuple[float | None, ...]
    laddered_to: tuple[str, ...] = ()

    @property
    def poles(self) -> tuple[str, str]:
        left, sep, right = self.label.partition(POLE_SEPARATOR)
        return (left.strip(), right.strip()) if sep else (self.label, "")

    @property
    def rated(self) -> int:
        return sum(1 for r in self.ratings if r is not None)

    @property
    def complete(self) -> bool:
        return self.rated == len(self.ratings)


@dataclass(frozen=True)
class Grid:
    elements: tuple[str, ...]
    element_ids: tuple[str | None, ...]
    constructs: tuple[Construct, ...]
    scale: tuple[int, int]

    @property
    def cells(self) -> int:
        return len(self.elements) * len(self.constructs)

    @property
    def completion(self) -> float | None:
        """Share of cells rated; None before the first construct."""
        if not self.cells:
            return None
        return sum(c.rated for c in self.constructs) / self.cells

    def to_dict(self) -> dict[str, object]:
        return {
            "elements": list(self.elements),
            "scale": list(self.scale),
            "constructs": [
                {
                    "construct": c.label,
                    "poles": list(c.poles),
                    "ratings": dict(zip(self.elements, c.ratings, strict=True)),
                    "laddered_to": list(c.laddered_to),
                }
                for c in self.constructs
            ],
        }


def grid_spec(methodology: Methodology) -> GridSpec | None:
    return methodology.grid if methodology.shape == "grid" else None


def rated_on(graph: KnowledgeGraph, methodology: Methodology, construct_id: str) -> list[str]:
    """Labels of the elements rated (with a number) on a construct, in graph order; [] when
    the methodology is no grid or the node is no construct."""
    spec = grid_spec(methodology)
    if spec is None or not graph.has_node(construct_id):
        return []
    if graph.node(construct_id).node_type != spec.construct_type:
        return []
    return [
        graph.node(p).label
        for p in graph.predecessors(construct_id, (spec.rating_relation,))
        if graph.relations(p, construct_id)[spec.rating_relation].value is not None
    ]


def triad(index: int, count: int) -> tuple[int, int, int]:
    """The ``index``-th triad of ``count`` elements (0-based positions).

    Consecutive triples first (0 1 2, 3 4 5, ...), then triples striding across the list, so
    every element is shown early and the same three rarely come back together.
    """
    if count < 3:
        raise ValueError("a triad needs at least three elements")
    stride = 1 + (index * 3 // count) % max(1, count - 2)
    start = (index * 3) % count
    picked: list[int] = []
    pos = start
    while len(picked) < 3:
        if pos % count not in picked:
            picked.append(pos % count)
        pos += stride
        if pos - start > 3 * count:  # pragma: no cover - stride always finds three
            pos += 1
    return (picked[0], picked[1], picked[2])


def build_grid(
    graph: KnowledgeGraph,
    methodology: Methodology,
    concept_elements: Sequence[tuple[str, str]] = (),
) -> Grid:
    """The grid; ``concept_elements`` are the concept's (id, label) pairs in order."""
    spec = grid_spec(methodology)
    if spec is None:
        return Grid((), (), (), (1, 5))
    element_nodes = [n for n in graph.nodes(spec.element_type) if not graph.is_superseded(n.id)]
    by_element = {n.element_id: n.id for n in element_nodes if n.element_id}
    by_label = {normalise(n.label): n.id for n in element_nodes}
    labels: list[str] = []
    ids: list[str | None] = []
    node_of: list[str | None] = []
    seen: set[str] = set()
    for element_id, label in concept_elements:
        found = by_element.get(element_id) or by_label.get(normalise(label))
        labels.append(label)
        ids.append(element_id)
        node_of.append(found)
        if found:
            seen.add(found)
    for extra in element_nodes:
        if extra.id not in seen:
            labels.append(extra.label)
            ids.append(extra.element_id)
            node_of.append(extra.id)
    constructs: list[Construct] = []
    for node in graph.nodes(spec.construct_type):
        if graph.is_superseded(node.id):
            continue
        ratings: list[float | None] = []
        for element in node_of:
            relation = (
                graph.relations(element, node.id).get(spec.rating_relation) if element else None
            )
            ratings.append(relation.value if relation is not None else None)
        above = tuple(
            graph.node(s).label
            for s in graph.successors(node.id)
            if graph.node(s).node_type not in (spec.element_type, spec.construct_type)
        )
        constructs.append(Construct(node.id, node.label, tuple(ratings), above))
    low, high = spec.rating_scale
    return Grid(tuple(labels), tuple(ids), tuple(constructs), (low, high))
