"""Applying one answer's extraction to the knowledge graph, and the record of what changed.

Implements seed 002 Path 3 (graph mutation), Path 12 (de-duplication before a node is created,
via ``core.graph.dedup``), Path 13 (cross-turn edge resolution: endpoints resolve against ALL
session nodes by label or alias, this turn's nodes first) and Path 5 (provenance on every node and
edge). Bad model output never raises: it comes back in ``GraphDelta.rejected`` with a reason.

Import ``apply_extraction`` and the delta records from here: ``core.graph`` holds the graph
itself and does not import this module, so the two form no cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.dedup import (
    DedupCandidate,
    DedupMatch,
    Embedder,
    MatchTier,
    find_duplicate,
)
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.records import ProvenanceEntry
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction, RejectedItem
from interview_cli.core.text import lemma_key, normalise


class _DeltaModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NodeAdded(_DeltaModel):
    node_id: str
    label: str
    node_type: str


class NodeMerged(_DeltaModel):
    """An extracted node folded into an existing one (``label`` -> ``into_label``)."""

    node_id: str
    label: str
    into_label: str
    node_type: str
    tier: MatchTier
    score: float
    alias_added: bool


class NodeSuperseded(_DeltaModel):
    """An earlier node the respondent corrected, and the node of this answer that revises it
    (seed 001 ``superseded_by``): never a focus again, its mentions count on the new one."""

    node_id: str
    label: str
    by: str
    by_label: str


class NodeRetracted(_DeltaModel):
    """An earlier node the respondent took back as not meant ("that was a joke"): disowned
    (``KnowledgeGraph.disown``), kept in the graph with its provenance."""

    node_id: str
    label: str


class EdgeChange(_DeltaModel):
    source: str
    target: str
    relation: str


class GraphDelta(_DeltaModel):
    """What one ``apply_extraction`` changed; recorded in the session file per turn."""

    nodes_added: list[NodeAdded] = Field(default_factory=list)
    nodes_merged: list[NodeMerged] = Field(default_factory=list)
    edges_added: list[EdgeChange] = Field(default_factory=list)
    edges_merged: list[EdgeChange] = Field(default_factory=list)
    rejected: list[RejectedItem] = Field(default_factory=list)
    resolved: dict[str, str] = Field(
        default_factory=dict, description="extracted node label -> id of the node it became"
    )
    superseded: list[NodeSuperseded] = Field(default_factory=list)
    retracted: list[NodeRetracted] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _without_no_corrections(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        # A turn that corrected or took back nothing dumps as turns did before corrections
        # were read, so the recorded deltas of older sessions compare equal on replay.
        data: dict[str, object] = handler(self)
        for key in ("superseded", "retracted"):
            if not data.get(key):
                data.pop(key, None)
        return data

    @property
    def changed(self) -> bool:
        """The turn added information: a new node or a new edge (merges alone do not count)."""
        return bool(self.nodes_added or self.edges_added)

    @property
    def yield_node_ids(self) -> list[str]:
        """Nodes the answer yielded on: new nodes and endpoints of new edges (in order).

        A merge alone is a restatement - the respondent said again what the graph already
        holds - so it is no yield (seed 003: ``record_yield()`` only "if graph changed"); a
        node that keeps being restated under focus must be able to exhaust.
        """
        ids = [n.node_id for n in self.nodes_added]
        for e in self.edges_added:
            ids += [e.source, e.target]
        return list(dict.fromkeys(ids))


def _provenance(utterance_id: str, quote: str, turn: int) -> ProvenanceEntry:
    return {"utterance_id": utterance_id, "quote": quote, "turn": turn}


def _reject(kind: str, item: Mapping[str, Any], reason: str) -> RejectedItem:
    return RejectedItem(kind=kind, item=dict(item), reason=reason)  # type: ignore[arg-type]


def _endpoint_candidates(
    graph: KnowledgeGraph,
    label: str,
    this_turn: Mapping[str, str],
    this_turn_lemma: Mapping[str, str],
) -> list[str]:
    """Node ids an edge endpoint label may mean: this turn's nodes first, then all nodes."""
    ordered: list[str] = []
    for found in (
        [this_turn.get(normalise(label))],
        [this_turn_lemma.get(lemma_key(label))],
        graph.find_by_label(label),
        graph.find_by_lemma(label),
    ):
        for node_id in found:
            if node_id is not None and node_id not in ordered:
                ordered.append(node_id)
    # Superseded concepts stay reachable but a current one is preferred.
    return sorted(ordered, key=graph.is_superseded)


def apply_extraction(
    graph: KnowledgeGraph,
    extraction: Extraction,
    *,
    methodology: Methodology,
    utterance_id: str,
    turn: int,
    id_factory: Callable[[], str] | None = None,
    embedder: Embedder | None = None,
) -> GraphDelta:
    """Add an answer's extraction to ``graph`` IN PLACE and return what changed.

    Nodes first (validate type, de-duplicate within the type, create or merge), then edges
    (resolve both endpoints among this turn's nodes and then all session nodes, by normalised
    label, alias or lemma key; pick the first pairing the ontology permits). Whatever cannot be
    applied is returned in ``rejected`` with the reason; nothing raises for bad model output.
    """
    answer = _Answer(graph, methodology, utterance_id, turn, id_factory, embedder)
    for label in extraction.retracted:  # "that was a joke": said even when nothing else is
        answer.retract(label)
    if not extraction.extractable:
        return answer.delta
    for item in extraction.nodes:
        answer.add_node(item)
    for item in extraction.nodes:
        if item.corrects is not None:
            answer.correct(item)
    for edge in extraction.edges:
        answer.add_edge(edge)
    return answer.delta


class _Answer:
    """One answer being applied: the graph, the delta so far and the labels of this turn's nodes
    (an edge endpoint resolves among them first)."""

    def __init__(
        self,
        graph: KnowledgeGraph,
        methodology: Methodology,
        utterance_id: str,
        turn: int,
        id_factory: Callable[[], str] | None,
        embedder: Embedder | None,
    ) -> None:
        self.graph, self.methodology = graph, methodology
        self.utterance_id, self.turn = utterance_id, turn
        self.id_factory, self.embedder = id_factory, embedder
        self.delta = GraphDelta()
        self.this_turn: dict[str, str] = {}
        self.this_turn_lemma: dict[str, str] = {}

    def add_node(self, item: ExtractedNode) -> None:
        graph, delta = self.graph, self.delta
        if self.methodology.ontology.node_type(item.node_type) is None:
            delta.rejected.append(
                _reject("node", item.model_dump(), f"unknown node type '{item.node_type}'")
            )
            return
        if not normalise(item.label):
            delta.rejected.append(
                _reject("node", item.model_dump(), "label has no letters or digits")
            )
            return
        prov = _provenance(self.utterance_id, item.quote, self.turn)
        candidates = (DedupCandidate(i, ls) for i, ls in graph.labels_by_node(item.node_type))
        tuning = self.methodology.tuning.dedup
        match = find_duplicate(item.label, candidates, tuning=tuning, embedder=self.embedder)
        if match is not None:
            node_id = self._merge(item, match, prov)
        else:
            node = graph.add_node(
                item.label,
                item.node_type,
                methodology=self.methodology,
                turn=self.turn,
                provenance=[prov],
                stance=item.stance,
                confidence=item.confidence,
                element_id=item.element_id,
                id_factory=self.id_factory,
            )
            delta.nodes_added.append(
                NodeAdded(node_id=node.id, label=node.label, node_type=node.node_type)
            )
            node_id = node.id
        delta.resolved.setdefault(item.label, node_id)
        self.this_turn.setdefault(normalise(item.label), node_id)
        self.this_turn_lemma.setdefault(lemma_key(item.label), node_id)

    def correct(self, item: ExtractedNode) -> None:
        """The earlier node ``item`` corrects is superseded by the node ``item`` became; a
        correction that names no earlier node is refused with the reason."""
        assert item.corrects is not None
        new = self.delta.resolved.get(item.label)
        this_turn = set(self.this_turn.values())
        earlier = [
            n
            for n in (
                *self.graph.find_by_label(item.corrects),
                *self.graph.find_by_lemma(item.corrects),
            )
            if n not in this_turn and n != new
        ]
        if new is None or not earlier:
            why = "the corrected node is not in the graph" if new else "the node was not added"
            reason = f"corrects '{item.corrects}', but {why}: the correction is dropped"
            self.delta.rejected.append(_reject("node", item.model_dump(), reason))
            return
        old = earlier[0]
        self.graph.supersede(old, new)
        self.delta.superseded.append(
            NodeSuperseded(
                node_id=old,
                label=self.graph.node(old).label,
                by=new,
                by_label=self.graph.node(new).label,
            )
        )

    def retract(self, label: str) -> None:
        """The earlier node ``label`` names is disowned; a label naming none is refused."""
        # every node of that label, whatever its type, else the first of its lemma
        found = self.graph.find_by_label(label) or self.graph.find_by_lemma(label)[:1]
        if not found:
            reason = f"takes back '{label}', but no such node is in the graph"
            self.delta.rejected.append(_reject("node", {"label": label}, reason))
            return
        for node_id in found:
            self.graph.disown(node_id)
            self.delta.retracted.append(
                NodeRetracted(node_id=node_id, label=self.graph.node(node_id).label)
            )

    def _merge(self, item: ExtractedNode, match: DedupMatch, prov: ProvenanceEntry) -> str:
        into = self.graph.node(match.node_id)
        alias_added = self.graph.merge_into(
            match.node_id,
            label=item.label,
            provenance=prov,
            stance=item.stance,
            confidence=item.confidence,
            element_id=item.element_id,
        )
        self.delta.nodes_merged.append(
            NodeMerged(
                node_id=match.node_id,
                label=item.label,
                into_label=into.label,
                node_type=item.node_type,
                tier=match.tier,
                score=round(match.score, 6),
                alias_added=alias_added,
            )
        )
        return match.node_id

    def add_edge(self, edge: ExtractedEdge) -> None:
        raw = edge.model_dump()
        if self.methodology.ontology.edge_type(edge.relation) is None:
            self.delta.rejected.append(_reject("edge", raw, f"unknown relation '{edge.relation}'"))
            return
        pair = self._pair(edge, raw)
        if pair is None:
            return
        source, target = pair
        prov = _provenance(self.utterance_id, edge.quote, self.turn)
        is_new = self.graph.add_relation(
            source,
            target,
            edge.relation,
            methodology=self.methodology,
            turn=self.turn,
            provenance=prov,
            confidence=edge.confidence,
            value=edge.value,
        )
        change = EdgeChange(source=source, target=target, relation=edge.relation)
        (self.delta.edges_added if is_new else self.delta.edges_merged).append(change)

    def _pair(self, edge: ExtractedEdge, raw: Mapping[str, Any]) -> tuple[str, str] | None:
        """The (source, target) node ids the edge joins, or None with the reason recorded."""
        graph, ontology = self.graph, self.methodology.ontology
        sources = _endpoint_candidates(graph, edge.source, self.this_turn, self.this_turn_lemma)
        targets = _endpoint_candidates(graph, edge.target, self.this_turn, self.this_turn_lemma)
        missing = [
            f"{end} '{label}'"
            for end, label, found in (
                ("source", edge.source, sources),
                ("target", edge.target, targets),
            )
            if not found
        ]
        if missing:
            reason = "edge_skipped_missing_node: " + ", ".join(missing) + " not in the graph"
            self.delta.rejected.append(_reject("edge", raw, reason))
            return None
        # Two different labels that de-duplication folded into one node would make a
        # self-loop nobody said ("X leads_to X"); only an edge the model itself drew from a
        # label to the same label is a real self-loop (seed 000 allows those).
        same_label = normalise(edge.source) == normalise(edge.target)
        pairs = [
            (s, t)
            for s in sources
            for t in targets
            if ontology.is_edge_permitted(
                edge.relation, graph.node(s).node_type, graph.node(t).node_type
            )
        ]
        pair = next((p for p in pairs if same_label or p[0] != p[1]), None)
        if pair is None and pairs:
            reason = (
                f"'{edge.source}' and '{edge.target}' are the same concept in the graph; "
                "a link from it to itself was not stated"
            )
            self.delta.rejected.append(_reject("edge", raw, reason))
        elif pair is None:
            s_type, t_type = graph.node(sources[0]).node_type, graph.node(targets[0]).node_type
            reason = f"'{edge.relation}' is not permitted from {s_type} to {t_type}"
            self.delta.rejected.append(_reject("edge", raw, reason))
        return pair
