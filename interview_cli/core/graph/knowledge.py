"""The session's surface knowledge graph and how an extraction changes it.

Implements seed 001 "Graph Structure" (KGNode/KGEdge fields), seed 000 "Critical Invariants"
and "Non-Obvious Constraints 1", seed 002 Path 3 (graph mutation), Path 5 (provenance on every
node and edge), Path 12 (de-duplication before creating a node, via ``core.graph.dedup``) and Path
13 (edge endpoints resolve against ALL session nodes, by label or alias).

Storage: a ``networkx.DiGraph`` with one edge per (source, target) whose ``relations`` attribute
maps relation type -> {quotes, provenance, confidence, created_turn}, so several relation types
between the same two nodes are representable. Every relation counts as one edge in counts and
degrees.

Invariants (checked on every mutation, ``GraphInvariantError`` when violated):
no two nodes of the same type with the same normalised label (aliases included); edges only
between existing nodes; node and relation types known to the methodology; (source type, target
type) permitted by the ontology for the relation. Cycles and self-loops are allowed.

Mutation is IN PLACE: ``apply_extraction`` (in ``core.graph.update``, which builds on this
module; this one does not import it back) changes
the ``KnowledgeGraph`` the caller owns and returns a ``GraphDelta`` recording what changed.
Given the same graph and inputs it always makes the same changes and the same node ids (``n1``,
``n2``, ... from the graph's own counter), which is what replay needs. Use ``graph.copy()`` to
keep the graph of an earlier turn.

Depth (``node_depths``, ``longest_chain``) follows the ontology's chain relations and is
measured on the condensation of the graph (``core.graph.depth``): linear, never enumerating
paths, exact on acyclic graphs, and never shrinking when an edge is added.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import networkx as nx

from interview_cli.config.schemas import Methodology, OntologySpec
from interview_cli.core.graph.depth import condensation_depths
from interview_cli.core.graph.records import (
    GraphInvariantError,
    Node,
    ProvenanceEntry,
    Relation,
    check_opinion,
    provenance_tuple,
    said_in,
)
from interview_cli.core.text import lemma_key, normalise

__all__ = ["KnowledgeGraph"]


if TYPE_CHECKING:
    from interview_cli.core.graph.depth import Digraph

    _Base = Digraph
else:
    _Base = nx.DiGraph


class _DiGraph(_Base):
    """A ``networkx.DiGraph`` that does not keep its views.

    networkx caches each view (``G.nodes``, ``G.edges``, ``G.adj``, ...) on the graph, and the
    view refers back to the graph: a graph once read is a reference cycle, so a dropped one
    (the previous turn's, every turn) is freed only by a full garbage collection, which has to
    scan all of it. Here each view is built afresh when asked for, which is cheap, and a
    dropped graph is freed at once.
    """


for _view in (
    "adj",
    "succ",
    "pred",
    "nodes",
    "edges",
    "out_edges",
    "in_edges",
    "degree",
    "in_degree",
    "out_degree",
):
    setattr(_DiGraph, _view, property(getattr(nx.DiGraph, _view).func))


# The confidence of a node the respondent took back ("that was a joke"): a reading of
# nothing they stand by. A report leaves such nodes out (``analysis.sources.said_graph``).
DISOWNED = 0.0


class KnowledgeGraph:
    """A surface knowledge graph (see module docstring for invariants and mutation rules)."""

    def __init__(self) -> None:
        self._g: Digraph = _DiGraph()
        self._next_number = 1
        self._label_index: dict[str, list[str]] = {}
        self._lemma_index: dict[str, list[str]] = {}
        self._position: dict[str, int] = {}
        self._edge_count = 0
        self._version = 0
        # relations followed -> (graph version, depths, chain): one entry per kind of call.
        self._depth_cache: dict[frozenset[str] | None, tuple[int, dict[str, int], list[str]]] = {}

    # ---- reading ---------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._g.number_of_nodes()

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._g

    @property
    def node_count(self) -> int:
        return self._g.number_of_nodes()

    @property
    def edge_count(self) -> int:
        """Number of typed relations (two relation types between A and B are two edges)."""
        return self._edge_count

    @property
    def next_node_number(self) -> int:
        return self._next_number

    def node_ids(self) -> list[str]:
        """Node ids in creation order."""
        return list(self._g.nodes)

    def has_node(self, node_id: str) -> bool:
        return node_id in self._g

    def node(self, node_id: str) -> Node:
        if node_id not in self._g:
            raise KeyError(node_id)
        d = self._g.nodes[node_id]
        return Node(
            id=node_id,
            label=d["label"],
            node_type=d["node_type"],
            aliases=tuple(d["aliases"]),
            provenance=provenance_tuple(d["provenance"]),
            stance=d["stance"],
            confidence=d["confidence"],
            created_turn=d["created_turn"],
            superseded_by=d["superseded_by"],
            element_id=d["element_id"],
        )

    def nodes(self, node_type: str | None = None) -> list[Node]:
        """All nodes (or those of ``node_type``) in creation order."""
        return [
            self.node(n)
            for n, d in self._g.nodes(data=True)
            if node_type is None or d["node_type"] == node_type
        ]

    def labels_by_node(self, node_type: str) -> list[tuple[str, tuple[str, ...]]]:
        """(id, (label, *aliases)) of every node of ``node_type``: the de-duplication pool."""
        return [
            (n, (d["label"], *d["aliases"]))
            for n, d in self._g.nodes(data=True)
            if d["node_type"] == node_type
        ]

    def relations(self, source: str, target: str) -> dict[str, Relation]:
        if not self._g.has_edge(source, target):
            return {}
        return {
            name: self._relation(source, target, name, data)
            for name, data in self._g.edges[source, target]["relations"].items()
        }

    def has_relation(self, source: str, target: str, relation: str) -> bool:
        return (
            self._g.has_edge(source, target)
            and relation in self._g.edges[source, target]["relations"]
        )

    def edges(self) -> list[Relation]:
        """Every typed relation, in insertion order of node pairs then relation types."""
        return [
            self._relation(s, t, name, data)
            for s, t, d in self._g.edges(data=True)
            for name, data in d["relations"].items()
        ]

    @staticmethod
    def _relation(source: str, target: str, name: str, data: Mapping[str, Any]) -> Relation:
        return Relation(
            source=source,
            target=target,
            relation=name,
            quotes=tuple(data["quotes"]),
            provenance=provenance_tuple(data["provenance"]),
            confidence=data["confidence"],
            created_turn=data["created_turn"],
            value=data.get("value"),
        )

    def out_degree(self, node_id: str) -> int:
        return sum(len(d["relations"]) for _, _, d in self._g.out_edges(node_id, data=True))

    def in_degree(self, node_id: str) -> int:
        return sum(len(d["relations"]) for _, _, d in self._g.in_edges(node_id, data=True))

    def successors(self, node_id: str) -> list[str]:
        return list(self._g.successors(node_id))

    def predecessors(self, node_id: str, relations: Collection[str] | None = None) -> list[str]:
        """Nodes with an edge into ``node_id`` (carrying one of ``relations``, if given)."""
        if relations is None:
            return list(self._g.predecessors(node_id))
        return [
            p
            for p in self._g.predecessors(node_id)
            if not self._g.edges[p, node_id]["relations"].keys().isdisjoint(relations)
        ]

    def node_type(self, node_id: str) -> str:
        """The node's type, without building the whole :class:`Node`."""
        return str(self._g.nodes[node_id]["node_type"])

    def is_superseded(self, node_id: str) -> bool:
        return self._g.nodes[node_id]["superseded_by"] is not None

    def latest_version(self, node_id: str) -> str:
        """``node_id``, or what corrected it (and what corrected that): the node that now says
        what it said. An id not in the graph is returned as it is."""
        seen: set[str] = set()
        while node_id in self._g and node_id not in seen:
            seen.add(node_id)
            by = self._g.nodes[node_id]["superseded_by"]
            if by is None:
                break
            node_id = by
        return node_id

    def is_orphan(self, node_id: str) -> bool:
        return self._g.degree(node_id) == 0

    def level(self, node_id: str, ontology: OntologySpec) -> int:
        """The ontology level of the node's type (1 = most concrete); 0 for an unknown type."""
        spec = ontology.node_type(self._g.nodes[node_id]["node_type"])
        return spec.level if spec is not None else 0

    @property
    def label_index(self) -> Mapping[str, tuple[str, ...]]:
        """Normalised label or alias -> ids of the nodes known by it (any type)."""
        return {key: tuple(ids) for key, ids in self._label_index.items()}

    def find_by_label(self, label: str, node_type: str | None = None) -> list[str]:
        """Ids of nodes known by ``label`` (normalised label or alias), newest first."""
        ids = reversed(self._label_index.get(normalise(label), []))
        return [n for n in ids if node_type is None or self._g.nodes[n]["node_type"] == node_type]

    def find_by_lemma(self, label: str) -> list[str]:
        """Ids of nodes whose label or alias has the same lemma key, newest first."""
        return list(reversed(self._lemma_index.get(lemma_key(label), [])))

    def recent_labels(self, limit: int = 30) -> list[str]:
        """Labels of the most recently mentioned nodes, newest first (extraction context)."""
        ranked = sorted(
            (
                (
                    max((p["turn"] for p in d["provenance"]), default=d["created_turn"]),
                    i,
                    d["label"],
                )
                for i, d in enumerate(self._g.nodes.values())
            ),
            reverse=True,
        )
        return [label for _, _, label in ranked[: max(limit, 0)]]

    def recap_labels(
        self,
        levels: Mapping[str, int],
        limit: int = 8,
        least_confidence: float = 0.0,
        first: Collection[str] = (),
        pointed: Sequence[str] = (),
        asked: Mapping[str, int] | None = None,
    ) -> list[str]:
        """Labels for a recap at the close: the nodes the respondent ``pointed`` at (ids, in
        order: what they asked to go back to or said mattered most, whatever its reading's
        confidence: round 119's close recapped the car park, "dark", "quiet", "other guys
        smoking", where its respondent had asked to go back to the heart scare, "the real
        reason"), then the nodes of the types ``first``, in its order
        (the method's ``recap_first``: what matters, not its context), then those said in the
        most answers, then the most concrete (``levels``: node type -> level), then the first
        said. The most recent were
        the last answer's afterthoughts: "We covered 'the multi storey thing I mentioned',
        'the reversing camera' and 'the parking sensors'" (round 39), where the first answer
        had named the Isofix points, the sliding doors and the boot. A node read with less
        than ``least_confidence`` is not read back, as it is not asked about. An answer to a
        question about a node (``asked``: node id -> questions asked about it) names it
        because it was asked, not because it matters: "The hold music? It was just the same wee
        tune" (round 141 recapped "the same wee tune going round" as a main thing)."""
        order = {kind: i for i, kind in enumerate(first)}
        asked = asked or {}
        chosen: dict[str, int] = {}
        for node_id in pointed:
            node_id = self.latest_version(node_id)
            if node_id in self._g and self._g.nodes[node_id].get("confidence") != DISOWNED:
                chosen.setdefault(node_id, len(chosen))
        ranked = sorted(
            (
                chosen.get(node_id, len(chosen)),
                order.get(d["node_type"], len(order)),
                asked.get(node_id, 0) - said_in(d["provenance"], d["created_turn"]),
                levels.get(d["node_type"], 0),
                i,
                d["label"],
            )
            for i, (node_id, d) in enumerate(self._g.nodes.items())
            # (not what was corrected, nor what was taken back)
            if d["superseded_by"] is None
            and d.get("confidence") != DISOWNED
            and (d.get("confidence", 1.0) >= least_confidence or node_id in chosen)
        )
        return [label for *_, label in ranked[: max(limit, 0)]]

    def relation_counts(self) -> dict[str, int]:
        """Relation type -> number of edges of that type."""
        counts: dict[str, int] = {}
        for _, _, d in self._g.edges(data=True):
            for name in d["relations"]:
                counts[name] = counts.get(name, 0) + 1
        return counts

    def node_types(self) -> dict[str, str]:
        """Node id -> node type, in creation order."""
        return {n: d["node_type"] for n, d in self._g.nodes(data=True)}

    def mention_counts(self) -> dict[str, int]:
        """Node id -> number of provenance entries (how often the concept was mentioned)."""
        return {n: len(d["provenance"]) for n, d in self._g.nodes(data=True)}

    def as_networkx(self) -> Digraph:
        """A deep copy of the underlying DiGraph, for analysis code that wants networkx."""
        return copy.deepcopy(self._g)

    # ---- depth -----------------------------------------------------------------------------

    def _depths(self, relations: Collection[str] | None) -> tuple[dict[str, int], list[str]]:
        key = None if relations is None else frozenset(relations)
        cached = self._depth_cache.get(key)
        if cached is not None and cached[0] == self._version:
            return cached[1], cached[2]
        depths, chain = condensation_depths(self._g, relations=key)
        self._depth_cache[key] = (self._version, depths, chain)
        return depths, chain

    def node_depths(self, relations: Collection[str] | None = None) -> dict[str, int]:
        """Node id -> rungs on the longest chain ending at the node.

        ``relations`` limits chains to those relation types; the interview's depth is
        ``node_depths(ontology.chain_relations)`` (a contrast is no rung). None follows every
        edge, which is what ``max_depth`` measures: the raw graph's longest path.
        """
        return dict(self._depths(relations)[0])

    def longest_chain(self, relations: Collection[str] | None = None) -> list[str]:
        """Node ids of a longest chain over ``relations``: a real path."""
        return list(self._depths(relations)[1])

    @property
    def max_depth(self) -> int:
        depths = self._depths(None)[0]
        return max(depths.values(), default=0)

    # ---- mutation --------------------------------------------------------------------------

    def _touch(self) -> None:
        self._version += 1

    def _index(self, node_id: str, label: str) -> None:
        for index, key in (
            (self._label_index, normalise(label)),
            (self._lemma_index, lemma_key(label)),
        ):
            ids = index.get(key, [])
            if node_id not in ids:
                # Creation order, not indexing order: an alias added later to an older node
                # must rank the same way after a JSON round trip rebuilds the index. A new
                # list, not an append: copies of the graph share the old one.
                index[key] = sorted([*ids, node_id], key=self._position.__getitem__)

    def _new_id(self, id_factory: Callable[[], str] | None) -> str:
        if id_factory is not None:
            node_id = id_factory()
            if not node_id or node_id in self._g:
                raise GraphInvariantError(f"id factory returned an unusable node id {node_id!r}")
            return node_id
        while f"n{self._next_number}" in self._g:
            self._next_number += 1
        node_id = f"n{self._next_number}"
        self._next_number += 1
        return node_id

    def add_node(
        self,
        label: str,
        node_type: str,
        *,
        methodology: Methodology,
        turn: int,
        provenance: Iterable[ProvenanceEntry] = (),
        stance: int = 0,
        confidence: float = 0.8,
        element_id: str | None = None,
        id_factory: Callable[[], str] | None = None,
    ) -> Node:
        """Create a node; refuses an unknown type or a label its type already has."""
        if methodology.ontology.node_type(node_type) is None:
            raise GraphInvariantError(f"unknown node type {node_type!r} for {methodology.name}")
        key = normalise(label)
        if not key:
            raise GraphInvariantError("a node label needs at least one letter or digit")
        if self.find_by_label(label, node_type):
            raise GraphInvariantError(f"a {node_type} node labelled {label!r} already exists")
        check_opinion(stance, confidence)
        node_id = self._new_id(id_factory)
        self._position[node_id] = len(self._position)
        self._g.add_node(
            node_id,
            id=node_id,
            label=label.strip(),
            node_type=node_type,
            aliases=[],
            provenance=[dict(p) for p in provenance],
            stance=stance,
            confidence=confidence,
            created_turn=turn,
            superseded_by=None,
            element_id=element_id,
        )
        self._index(node_id, label)
        self._touch()
        return self.node(node_id)

    def merge_into(
        self,
        node_id: str,
        *,
        label: str,
        provenance: ProvenanceEntry | None = None,
        stance: int = 0,
        confidence: float | None = None,
        element_id: str | None = None,
    ) -> bool:
        """Fold a duplicate mention into ``node_id``; True when ``label`` became a new alias.

        All provenance is kept (an identical entry is not repeated); a non-neutral stance
        replaces the old one (the latest opinion counts); confidence keeps the maximum; an
        element mapping, once made, is kept.
        """
        d = self._g.nodes[node_id]
        check_opinion(stance, confidence)
        alias_added = False
        text = label.strip()
        if normalise(text) not in {normalise(known) for known in (d["label"], *d["aliases"])}:
            # The uniqueness invariant covers aliases: no other node of the type may answer
            # to this label, or label look-ups would stop being unambiguous.
            others = [n for n in self.find_by_label(text, d["node_type"]) if n != node_id]
            if others:
                raise GraphInvariantError(
                    f"{label!r} already names {d['node_type']} node {others[0]}; "
                    f"it cannot also become an alias of {node_id}"
                )
            d["aliases"] = [*d["aliases"], text]  # new lists: copies share the old ones
            self._index(node_id, text)
            alias_added = True
        if provenance is not None and dict(provenance) not in d["provenance"]:
            d["provenance"] = [*d["provenance"], dict(provenance)]
        if stance:
            d["stance"] = stance
        if confidence is not None:
            d["confidence"] = max(d["confidence"], confidence)
        if d["element_id"] is None and element_id is not None:
            d["element_id"] = element_id
        self._touch()
        return alias_added

    def add_relation(
        self,
        source: str,
        target: str,
        relation: str,
        *,
        methodology: Methodology,
        turn: int,
        provenance: ProvenanceEntry | None = None,
        confidence: float = 0.8,
        value: float | None = None,
    ) -> bool:
        """Add a typed edge, or fold new evidence into an existing one; True when new.

        ``value`` (a grid rating, a valence) is kept only when given; the latest one said wins.
        """
        for end in (source, target):
            if end not in self._g:
                raise GraphInvariantError(f"edge endpoint {end!r} is not a node")
        ontology = methodology.ontology
        if ontology.edge_type(relation) is None:
            raise GraphInvariantError(f"unknown relation {relation!r} for {methodology.name}")
        s_type, t_type = self._g.nodes[source]["node_type"], self._g.nodes[target]["node_type"]
        if not ontology.is_edge_permitted(relation, s_type, t_type):
            raise GraphInvariantError(f"{relation} is not permitted from {s_type} to {t_type}")
        if not self._g.has_edge(source, target):
            self._g.add_edge(source, target, relations={})
        relations = self._g.edges[source, target]["relations"]
        old = relations.get(relation)
        is_new = old is None
        entry: dict[str, Any]
        if old is None:
            entry = {"quotes": [], "provenance": [], "confidence": confidence, "created_turn": turn}
            self._edge_count += 1
        else:
            # A new entry, not a change in place: copies of the graph share the old one.
            entry = {**old, "confidence": max(old["confidence"], confidence)}
        if provenance is not None:
            if provenance["quote"] and provenance["quote"] not in entry["quotes"]:
                entry["quotes"] = [*entry["quotes"], provenance["quote"]]
            if dict(provenance) not in entry["provenance"]:
                entry["provenance"] = [*entry["provenance"], dict(provenance)]
        if value is not None:
            entry["value"] = value
        relations[relation] = entry
        self._touch()
        return is_new

    def supersede(self, node_id: str, by: str) -> None:
        """Mark ``node_id`` as revised by ``by`` (seed 001 ``superseded_by``)."""
        if node_id not in self._g or by not in self._g:
            raise GraphInvariantError(f"cannot supersede {node_id!r} by {by!r}: unknown node")
        self._g.nodes[node_id]["superseded_by"] = by
        self._touch()

    def disown(self, node_id: str) -> None:
        """The respondent took ``node_id`` back ("that was a joke"): its reading's confidence
        falls to 0, so it is too doubtful to ask about or read back; said again, it rises
        (a node keeps its best confidence)."""
        if node_id not in self._g:
            raise GraphInvariantError(f"cannot disown {node_id!r}: unknown node")
        self._g.nodes[node_id]["confidence"] = DISOWNED
        self._touch()

    def copy(self) -> KnowledgeGraph:
        """An independent graph equal to ``from_json(to_json(self))``, without the round trip.

        Nodes and edges are added in the order ``from_json`` adds them, so the networkx
        adjacency (predecessor order included) is the one a loaded session has. Only the
        containers mutation changes in place are copied (node attributes, each edge's map of
        relations); the lists and relation entries inside are replaced, never changed, by
        mutation, so both graphs share them. Half the objects of a full copy, which matters
        beyond the time: every object a turn keeps is one the garbage collector scans.
        """
        new = KnowledgeGraph()
        g = new._g
        g.add_nodes_from((n, {**d}) for n, d in self._g.nodes(data=True))
        g.add_edges_from(
            (s, t, {"relations": dict(d["relations"])}) for s, t, d in self._g.edges(data=True)
        )
        new._next_number = self._next_number
        new._label_index = dict(self._label_index)
        new._lemma_index = dict(self._lemma_index)
        new._position = dict(self._position)
        new._edge_count = self._edge_count
        # Depths do not depend on adjacency order (ties go by creation order): still valid.
        new._version = self._version
        new._depth_cache = dict(self._depth_cache)
        return new
