"""The canonical half of the dual graph: stable slots above the surface graph's paraphrases.

Implements seed 001 "Dual-Graph Architecture" and "Canonical Graph State" and seed 002 Paths
10-11. The surface graph keeps the respondent's words ("fast car", "quick vehicle"); the
canonical graph keeps one slot per underlying idea (``speed_performance``) with the surface
nodes mapped to it, and canonical edges aggregated from the surface edges between slots.

Life of a slot (all pure; the LLM's proposals arrive as recorded values):

1. ``pending_slot_batches`` lists the surface nodes not yet mapped, grouped by node type in
   batches of at most ``tuning.canonical.batch_size`` (8) labels: the ``propose_slots`` calls.
2. ``apply_slot_proposals`` (``core.canonical.proposals``) merges each proposal into the most
   similar existing slot - the exact slot name, else embedding cosine >=
   ``similarity_threshold`` (0.60) when an ``Embedder`` is given, else the word tier >=
   ``fuzzy_threshold`` - or creates a ``candidate`` slot. The word tier and which slots may
   take a proposal are the slot rules, recorded as the state's ``version``: version 1, the
   synonym-aware word overlap ``label_similarity`` within one node type (sessions recorded
   before version 2 replay by it); version 2, meaning (``core.canonical.meaning``) across node
   types, and a node that corrects another joins that node's slot.
   Labels the model left out of every proposal stand alone (the prompt's own rule) and go
   through the same matching. A slot becomes ``active`` when ``support_count`` (surface nodes
   mapped) reaches ``min_support_nodes`` (2). Mappings are permanent: a surface node never
   changes slot, so slots stay stable. A failed batch leaves its nodes unmapped; the next turn
   asks again.
3. Canonical edges are re-aggregated from the whole surface graph every time
   (``aggregate_edges``): one edge per (source slot, target slot, relation) with its support
   count and the surface edges behind it; edges inside one slot are dropped.

Timing (the "no third sequential round trip" rule of ARCHITECTURE "The turn"): the pipeline
runs ``propose_slots`` for turn N's new nodes concurrently with turn N's question generation
and applies the result at the end of turn N, so the mappings inform turn N+1's scoring. Replay
applies each turn's recorded proposals with ``apply_slot_proposals`` after that turn's
``core.turn.advance``, so it reproduces the slots and every decision that read them. Canonical
edges and ``CanonicalGraphState`` are recomputed inside ``advance`` from the current graph, so
only the mapping of the newest nodes lags by one turn.

Node tracking through slots and the canonical signals live in ``core.canonical.tracking``.
With canonical slots off nothing here runs and every decision is what it was without them.

Fuzzy calibration (the word rules; the meaning rules keep it and add their own cases, see
``core.canonical.meaning``): without embeddings a proposal merges into a slot when the
synonym-aware Dice overlap of their words (``label_similarity``) reaches
``tuning.canonical.fuzzy_threshold`` (0.75). On the calibration pairs of
``tests/core/test_canonical.py`` every paraphrase the word tier can see scores >= 0.80 ("fast
car"/"quick vehicle" 1.0, "long battery life"/"battery life" 0.80) and every distinct pair
<= 0.67 ("long battery life"/"short battery life"; one shared word of two, "save time"/"save
money", is 0.50); 0.75 sits in that gap. Paraphrases that share
no word ("can focus"/"concentrate") are what the embedding tier (0.60) is for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field

from interview_cli.config.tuning import CanonicalTuning
from interview_cli.core.graph.dedup import polarity_block, same_word
from interview_cli.core.graph.depth import condensation_depths
from interview_cli.core.models import RejectedItem
from interview_cli.core.text import label_profile, normalise

if TYPE_CHECKING:
    from interview_cli.core.graph.knowledge import KnowledgeGraph

# The version of a canonical state is the version of the slot rules it was built with, so a
# replay applies a session's recorded proposals by the rules it ran with: 1, word overlap
# within one node type (``label_similarity``); 2, meaning across node types
# (``core.canonical.meaning``) and corrections kept in the slot they correct.
CANONICAL_STATE_VERSION = 2
WORD_RULES = 1
CANONICAL_STATE_VERSIONS = (WORD_RULES, CANONICAL_STATE_VERSION)
PENDING_LIMIT = 32  # surface labels sent per turn at most (4 batches of 8), oldest first
EXISTING_SLOT_NAMES = 40  # slot names shown to the model per node type
STEM_MIN_PREFIX = 5
STEM_SHARE = 0.75

MatchVia = Literal["new", "grouped", "name", "fuzzy", "embedding", "revises"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CanonicalSlot(_Model):
    id: str
    slot_name: str
    description: str = ""
    node_type: str
    status: Literal["candidate", "active"] = "candidate"
    support_count: int = 0
    first_seen_turn: int
    promoted_turn: int | None = None


class SlotMapping(_Model):
    """Surface node -> slot. ``similarity`` is the score that placed it (1.0 for a new slot);
    ``via`` says how: new slot, grouped with it by the model, same name, fuzzy or embedding,
    or ``revises``: the node corrects one already in the slot."""

    surface_node_id: str
    slot_id: str
    similarity: float
    assigned_turn: int
    surface_label: str = ""
    via: MatchVia = "new"


class CanonicalEdge(_Model):
    id: str
    source_slot_id: str
    target_slot_id: str
    edge_type: str
    support_count: int
    surface_edge_ids: tuple[str, ...] = ()


class CanonicalGraphState(_Model):
    """Seed 001 "Canonical Graph State": the canonical graph over ACTIVE slots."""

    concept_count: int = 0  # active slots (candidates excluded)
    edge_count: int = 0  # canonical edges between active slots
    orphan_count: int = 0  # active slots without such an edge
    max_depth: int = 0  # longest canonical chain (core.graph.depth: a k-cycle is k-1 rungs)
    avg_support: float = 0.0  # surface nodes per active slot
    candidate_count: int = 0
    mapped_nodes: int = 0


class ProposedSlot(_Model):
    """One slot the model proposed (``llm.protocol.SlotProposal`` as the core records it)."""

    slot_name: str
    description: str = ""
    node_type: str
    surface_labels: tuple[str, ...] = ()


class SlotBatch(_Model):
    """One ``propose_slots`` call: what was asked and what came back (recorded per turn)."""

    node_type: str
    node_ids: tuple[str, ...]
    labels: tuple[str, ...]
    existing_slots: tuple[str, ...] = ()
    proposals: tuple[ProposedSlot, ...] = ()
    failed: bool = False
    error: str = ""


class SlotDiscoveryRecord(_Model):
    """What one ``apply_slot_proposals`` did (seed 001 SlotDiscoveryOutput, plus reasons)."""

    turn: int
    slots_created: tuple[str, ...] = ()
    slots_updated: tuple[str, ...] = ()
    slots_promoted: tuple[str, ...] = ()
    mappings_created: tuple[SlotMapping, ...] = ()
    slots: tuple[CanonicalSlot, ...] = ()  # the created/updated slots as they now are
    unmapped: tuple[str, ...] = ()
    rejected: tuple[RejectedItem, ...] = ()
    graph_state: CanonicalGraphState = Field(default_factory=CanonicalGraphState)


class CanonicalState(_Model):
    """Slots, mappings and canonical edges of a session (``SessionFile.canonical``)."""

    version: int = CANONICAL_STATE_VERSION
    slots: tuple[CanonicalSlot, ...] = ()
    mappings: tuple[SlotMapping, ...] = ()
    edges: tuple[CanonicalEdge, ...] = ()
    next_slot_number: int = 1
    last_turn: int = 0
    # The last discovery's surface nodes mapped and slots created (meta.canonical.saturation).
    last_new_slots: int = 0
    last_new_surface_nodes: int = 0

    def slot(self, slot_id: str) -> CanonicalSlot | None:
        return next((s for s in self.slots if s.id == slot_id), None)

    def slot_of(self) -> dict[str, str]:
        """Surface node id -> slot id."""
        return {m.surface_node_id: m.slot_id for m in self.mappings}

    def members(self) -> dict[str, list[str]]:
        """Slot id -> mapped surface node ids, in mapping order."""
        out: dict[str, list[str]] = {s.id: [] for s in self.slots}
        for m in self.mappings:
            out.setdefault(m.slot_id, []).append(m.surface_node_id)
        return out

    def active_ids(self) -> list[str]:
        return [s.id for s in self.slots if s.status == "active"]

    def to_dict(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        data["graph_state"] = canonical_graph_state(self).model_dump(mode="json")  # for readers
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> CanonicalState:
        if not data:
            return cls()
        values = {k: v for k, v in data.items() if k != "graph_state"}
        if values.get("version", CANONICAL_STATE_VERSION) not in CANONICAL_STATE_VERSIONS:
            raise ValueError(f"canonical state version {values.get('version')!r} is not supported")
        return cls.model_validate(values)


# --------------------------------------------------------------------------------------------
# Similarity
# --------------------------------------------------------------------------------------------


def label_similarity(a: str, b: str) -> float:
    """Synonym-aware word overlap of two labels in [0, 1] (the fuzzy tier for slots).

    Dice coefficient of the labels' content words (``core.text``: lemmatised, stop words out,
    synonym groups mapped, so "fast car" and "quick vehicle" are both {fast, car}); long words
    with a typo count as the same word. 0 when negation or an antonym prefix differs.
    """
    pa, pb = label_profile(slot_text(a)), label_profile(slot_text(b))
    if not pa.content or not pb.content or polarity_block(pa, pb) is not None:
        return 0.0
    hits_a = sum(1 for w in pa.content if any(same_stem(w, o) for o in pb.content))
    hits_b = sum(1 for w in pb.content if any(same_stem(w, o) for o in pa.content))
    return (hits_a + hits_b) / (len(pa.content) + len(pb.content))


def same_stem(a: str, b: str) -> bool:
    """The same word (``core.graph.dedup.same_word``), or one derivation of a shared stem: a common
    prefix of 5+ letters covering 3/4 of the shorter word ("cancel"/"cancellation",
    "productive"/"productivity"). Looser than surface dedup on purpose: a slot is a concept."""
    if same_word(a, b):
        return True
    shorter = min(len(a), len(b))
    if shorter < STEM_MIN_PREFIX:
        return False
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= max(STEM_MIN_PREFIX, STEM_SHARE * shorter)


def slot_text(name: str) -> str:
    """A slot name as words ("speed_performance" -> "speed performance")."""
    return name.replace("_", " ").strip()


def snake_name(label: str, max_words: int = 4) -> str:
    words = [w for w in normalise(label).split() if w][:max_words]
    return "_".join(words) or "slot"


# --------------------------------------------------------------------------------------------
# Discovery
# --------------------------------------------------------------------------------------------


def pending_slot_batches(
    canonical: CanonicalState,
    graph: KnowledgeGraph,
    *,
    tuning: CanonicalTuning,
    limit: int = PENDING_LIMIT,
) -> list[SlotBatch]:
    """The ``propose_slots`` calls to make: unmapped current surface nodes, oldest first,
    grouped by node type, at most ``tuning.batch_size`` labels per call (no proposals yet)."""
    mapped = canonical.slot_of()
    by_type: dict[str, list[tuple[str, str]]] = {}
    count = 0
    for node in graph.nodes():
        if node.id in mapped or node.superseded_by is not None or count >= limit:
            continue
        by_type.setdefault(node.node_type, []).append((node.id, node.label))
        count += 1
    batches: list[SlotBatch] = []
    for node_type, items in by_type.items():
        names = tuple(s.slot_name for s in canonical.slots if s.node_type == node_type)
        if canonical.version != WORD_RULES:  # a slot is an idea whatever its labels' types
            # Other types' names first: the most recent EXISTING_SLOT_NAMES are shown, and
            # this type's own come last so they are the ones kept.
            others = [s.slot_name for s in canonical.slots if s.node_type != node_type]
            names = tuple(reversed(dict.fromkeys(reversed([*others, *names]))))
        for i in range(0, len(items), tuning.batch_size):
            chunk = items[i : i + tuning.batch_size]
            batches.append(
                SlotBatch(
                    node_type=node_type,
                    node_ids=tuple(n for n, _ in chunk),
                    labels=tuple(label for _, label in chunk),
                    existing_slots=names[-EXISTING_SLOT_NAMES:],
                )
            )
    return batches


# --------------------------------------------------------------------------------------------
# The canonical graph
# --------------------------------------------------------------------------------------------


def aggregate_edges(
    mappings: Iterable[SlotMapping], graph: KnowledgeGraph
) -> tuple[CanonicalEdge, ...]:
    """Surface edges between mapped nodes of different slots, one canonical edge per (source
    slot, target slot, relation), in the surface graph's edge order."""
    slot_of = {m.surface_node_id: m.slot_id for m in mappings}
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for rel in graph.edges():
        source, target = slot_of.get(rel.source), slot_of.get(rel.target)
        if source is None or target is None or source == target:
            continue
        grouped.setdefault((source, target, rel.relation), []).append(
            f"{rel.source}->{rel.target}:{rel.relation}"
        )
    return tuple(
        CanonicalEdge(
            id=f"{s}->{t}:{r}",
            source_slot_id=s,
            target_slot_id=t,
            edge_type=r,
            support_count=len(ids),
            surface_edge_ids=tuple(ids),
        )
        for (s, t, r), ids in grouped.items()
    )


def canonical_graph_state(
    canonical: CanonicalState, edges: Sequence[CanonicalEdge] | None = None
) -> CanonicalGraphState:
    """Counts over active slots (seed 001): candidates, and edges touching them, excluded."""
    active = [s for s in canonical.slots if s.status == "active"]
    ids = {s.id for s in active}
    live = [
        e
        for e in (canonical.edges if edges is None else edges)
        if e.source_slot_id in ids and e.target_slot_id in ids
    ]
    g: nx.DiGraph = nx.DiGraph()
    g.add_nodes_from(s.id for s in active)
    g.add_edges_from((e.source_slot_id, e.target_slot_id) for e in live)
    depths, _ = condensation_depths(g, with_path=False)
    connected = {e.source_slot_id for e in live} | {e.target_slot_id for e in live}
    return CanonicalGraphState(
        concept_count=len(active),
        edge_count=len(live),
        orphan_count=sum(1 for s in active if s.id not in connected),
        max_depth=max(depths.values(), default=0),
        avg_support=round(sum(s.support_count for s in active) / len(active), 6) if active else 0.0,
        candidate_count=len(canonical.slots) - len(active),
        mapped_nodes=len(canonical.mappings),
    )


# --------------------------------------------------------------------------------------------
# Observability
# --------------------------------------------------------------------------------------------


def dual_graph_comparison(
    graph: KnowledgeGraph, canonical: CanonicalState | None
) -> dict[str, Any]:
    """Seed 002 "Optimization Results Summary" figures for one session: surface vs canonical."""
    nodes = [n for n in graph.nodes() if n.superseded_by is None]
    surface_nodes, surface_edges = len(nodes), graph.edge_count
    out: dict[str, Any] = {
        "surface_nodes": surface_nodes,
        "surface_edges": surface_edges,
        "edge_node_ratio": round(surface_edges / surface_nodes, 4) if surface_nodes else 0.0,
        "canonical_enabled": canonical is not None,
    }
    if canonical is None:
        return out
    mapped = canonical.slot_of()
    unmapped = sum(1 for n in nodes if n.id not in mapped)
    state = canonical_graph_state(canonical)
    out.update(
        canonical_slots=len(canonical.slots),
        active_slots=state.concept_count,
        canonical_edges=len(canonical.edges),
        active_canonical_edges=state.edge_count,
        unmapped=unmapped,
        unmapped_share=round(unmapped / surface_nodes, 4) if surface_nodes else 0.0,
        avg_support=state.avg_support,
    )
    return out


__all__ = [
    "CanonicalEdge",
    "CanonicalGraphState",
    "CanonicalSlot",
    "CanonicalState",
    "ProposedSlot",
    "SlotBatch",
    "SlotDiscoveryRecord",
    "SlotMapping",
    "aggregate_edges",
    "canonical_graph_state",
    "dual_graph_comparison",
    "label_similarity",
    "pending_slot_batches",
]
