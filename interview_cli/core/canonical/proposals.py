"""Placing one turn's slot proposals: step 2 of a slot's life in ``core.canonical``.

``apply_slot_proposals`` merges each recorded proposal into the most similar existing slot
(exact name, else embedding or word similarity above the threshold) or creates a candidate
slot, maps the surface nodes, promotes slots that reached their support, and re-aggregates the
canonical edges. Pure: the proposals arrive as recorded values, so replay reproduces every slot
and mapping. The canonical state's version says which rules place them:

- version 1 (word rules): a slot holds one node type; similarity is ``label_similarity``, the
  best pair of the proposal's and the slot's texts (name and labels);
- version 2 (meaning rules, new sessions): a slot is an idea whatever node type the reader
  gave each wording (a respondent's "battery" may come out an attribute one turn and a
  consequence the next), so every slot is a candidate, its own type's first on a tie;
  similarity is ``core.canonical.meaning``. One label's words all in another lifts the score
  (containment) only at the slot's own node type (a bare "security" value is not the
  attribute "secure fit"), and only against the slot's name or where the proposal says less
  than the slot's label: a slot named ``save_money`` takes "save", but "save" then does not
  bring "save time" in. A node that corrects another ("sorry, two days, not four") joins the slot
  of the node it corrects: the respondent revised the wording of one idea.

The matching tiers and their calibration are described in ``core.canonical``'s docstring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from interview_cli.config.tuning import CanonicalTuning
from interview_cli.core.canonical.meaning import (
    meaning_block,
    meaning_similarity,
    read_label,
    widens,
)
from interview_cli.core.canonical.slots import (
    WORD_RULES,
    CanonicalSlot,
    CanonicalState,
    MatchVia,
    ProposedSlot,
    SlotBatch,
    SlotDiscoveryRecord,
    SlotMapping,
    aggregate_edges,
    canonical_graph_state,
    label_similarity,
    slot_text,
    snake_name,
)
from interview_cli.core.graph.dedup import Embedder, polarity_block
from interview_cli.core.models import RejectedItem
from interview_cli.core.text import label_profile, normalise

if TYPE_CHECKING:
    from interview_cli.core.graph.knowledge import KnowledgeGraph

__all__ = ["apply_slot_proposals"]


def _texts(name: str, labels: Iterable[str]) -> list[str]:
    return list(dict.fromkeys([slot_text(name), *labels]))


def _similarity(
    mine: Sequence[str], theirs: Sequence[str], embedder: Embedder | None
) -> tuple[float, MatchVia]:
    """Best pairwise score between two groups of texts (single linkage), and its tier."""
    best = 0.0
    for a in mine:
        for b in theirs:
            if embedder is not None:
                if polarity_block(label_profile(a), label_profile(b)) is not None:
                    continue  # embeddings are blind to "not"; never merge across polarity
                best = max(best, float(embedder.similarity(a, b)))
            else:
                best = max(best, label_similarity(a, b))
    return best, "embedding" if embedder is not None else "fuzzy"


def _by_meaning(
    mine: Sequence[str],
    name: str,
    theirs: Sequence[str],
    embedder: Embedder | None,
    same_type: bool,
) -> tuple[float, MatchVia]:
    """Best pairwise score between a proposal's texts and a slot's (name first), by the
    meaning rules: containment counts at the slot's own node type only, against its name or
    where ``mine`` says less."""
    best = 0.0
    for a in mine:
        for b in theirs:
            if embedder is not None:
                if meaning_block(read_label(a), read_label(b)) is not None:
                    continue
                best = max(best, float(embedder.similarity(a, b)))
            else:
                whole = same_type and (b == name or widens(b, a))
                best = max(best, meaning_similarity(a, b, containment=whole))
    return best, "embedding" if embedder is not None else "fuzzy"


def _reject(item: Mapping[str, Any], reason: str) -> RejectedItem:
    return RejectedItem(kind="slot", item=dict(item), reason=reason)


class _Placement:
    """The slots, mappings and match texts of one turn, changed as each proposal is placed."""

    def __init__(
        self,
        canonical: CanonicalState,
        *,
        graph: KnowledgeGraph,
        turn: int,
        tuning: CanonicalTuning,
        embedder: Embedder | None,
    ) -> None:
        self.graph, self.turn, self.tuning, self.embedder = graph, turn, tuning, embedder
        self.by_meaning = canonical.version != WORD_RULES
        self.version = canonical.version
        self.slots: dict[str, CanonicalSlot] = {s.id: s for s in canonical.slots}
        self.texts: dict[str, list[str]] = {s.id: [slot_text(s.slot_name)] for s in canonical.slots}
        self.mapping: dict[str, SlotMapping] = {m.surface_node_id: m for m in canonical.mappings}
        for m in canonical.mappings:
            self.texts.setdefault(m.slot_id, []).append(m.surface_label)
        self.number = canonical.next_slot_number
        self.created: list[str] = []
        self.touched: list[str] = []
        self.new_maps: list[SlotMapping] = []
        self.unmapped: list[str] = []
        self.rejected: list[RejectedItem] = []
        self.threshold = (
            tuning.similarity_threshold if embedder is not None else tuning.fuzzy_threshold
        )

    def _candidates(self, node_type: str) -> list[CanonicalSlot]:
        """The slots a proposal of ``node_type`` may join, in order of preference on a tie."""
        same_type = [s for s in self.slots.values() if s.node_type == node_type]
        if not self.by_meaning:
            return same_type
        return same_type + [s for s in self.slots.values() if s.node_type != node_type]

    def _score(
        self, proposal: ProposedSlot, labels: list[str], slot: CanonicalSlot
    ) -> tuple[float, MatchVia]:
        if self.by_meaning:
            # The labels are the evidence; a proposed name only counts when it is the slot's
            # (a name cut from one label would look closer to others than the label does).
            name, same_type = slot_text(slot.slot_name), slot.node_type == proposal.node_type
            return _by_meaning(labels, name, self.texts[slot.id], self.embedder, same_type)
        return _similarity(_texts(proposal.slot_name, labels), self.texts[slot.id], self.embedder)

    def _target(
        self, proposal: ProposedSlot, members: list[tuple[str, str]]
    ) -> tuple[CanonicalSlot, float, MatchVia]:
        """The slot the proposal merges into (same name, else the most similar), else a new one."""
        labels = [label for _, label in members]
        name_key = normalise(slot_text(proposal.slot_name))
        candidates = self._candidates(proposal.node_type)
        target: CanonicalSlot | None = next(
            (s for s in candidates if normalise(slot_text(s.slot_name)) == name_key), None
        )
        via: MatchVia = "name" if target is not None else "fuzzy"
        score = 1.0 if target is not None else 0.0
        if target is None:
            for slot in candidates:  # ties go to the earlier candidate
                candidate, tier = self._score(proposal, labels, slot)
                if candidate >= self.threshold and candidate > score:
                    target, score, via = slot, candidate, tier
        if target is not None:
            return target, score, via
        target = CanonicalSlot(
            id=f"s{self.number}",
            slot_name=proposal.slot_name,
            description=proposal.description,
            node_type=proposal.node_type,
            first_seen_turn=self.turn,
        )
        self.number += 1
        self.slots[target.id] = target
        self.texts[target.id] = [slot_text(target.slot_name)]
        self.created.append(target.id)
        return target, 1.0, "new"

    def place(self, proposal: ProposedSlot, members: list[tuple[str, str]]) -> None:
        target, score, via = self._target(proposal, members)
        for i, (node_id, label) in enumerate(members):
            how: MatchVia = "grouped" if via == "new" and i > 0 else via
            self._map(node_id, label, target.id, score, how)

    def _map(self, node_id: str, label: str, slot_id: str, score: float, via: MatchVia) -> None:
        entry = SlotMapping(
            surface_node_id=node_id,
            slot_id=slot_id,
            similarity=round(score, 6),
            assigned_turn=self.turn,
            surface_label=label,
            via=via,
        )
        self.mapping[node_id] = entry
        self.new_maps.append(entry)
        self.texts[slot_id].append(label)
        self.touched.append(slot_id)

    def _revisions(self, batch: SlotBatch) -> None:
        """Each asked node that corrects an already placed node joins that node's slot."""
        asked = set(batch.node_ids)
        for node in self.graph.nodes():
            new_id = node.superseded_by
            if new_id not in asked or node.id not in self.mapping or new_id in self.mapping:
                continue
            assert new_id is not None
            label = dict(zip(batch.node_ids, batch.labels, strict=False))[new_id]
            self._map(new_id, label, self.mapping[node.id].slot_id, 1.0, "revises")

    def _members(
        self, proposal: ProposedSlot, asked: Mapping[str, tuple[str, str]], is_model: bool
    ) -> list[tuple[str, str]]:
        """The asked-about, not yet placed surface nodes a proposal names, in its order."""
        members: list[tuple[str, str]] = []
        for label in proposal.surface_labels:
            found = asked.get(normalise(label))
            if found is None:
                if is_model:
                    self.rejected.append(_reject({"label": label}, "label was not asked about"))
                continue
            node_id, asked_label = found
            if node_id in self.mapping or not self.graph.has_node(node_id):
                continue  # already placed (earlier proposal or earlier turn) or unknown
            if node_id not in {m for m, _ in members}:
                members.append((node_id, asked_label))
        return members

    def take(self, batch: SlotBatch) -> None:
        """Place a batch's proposals, then each asked label as a slot of its own."""
        asked = {
            normalise(label): (node_id, label)
            for node_id, label in zip(batch.node_ids, batch.labels, strict=False)
        }
        if batch.failed:
            self.unmapped += [n for n in batch.node_ids if n not in self.mapping]
            return
        if self.by_meaning:
            self._revisions(batch)
        alone = [
            ProposedSlot(
                slot_name=snake_name(label), node_type=batch.node_type, surface_labels=(label,)
            )
            for label in batch.labels
        ]
        for index, proposal in enumerate([*batch.proposals, *alone]):
            if proposal.node_type != batch.node_type or not normalise(proposal.slot_name):
                self.rejected.append(
                    _reject(proposal.model_dump(), "wrong node type or empty name")
                )
                continue
            members = self._members(proposal, asked, index < len(batch.proposals))
            if members:
                self.place(proposal, members)

    def _promote(self) -> list[str]:
        """Set each touched slot's support; candidates that reached it become active."""
        counts: dict[str, int] = {}
        for m in self.mapping.values():
            counts[m.slot_id] = counts.get(m.slot_id, 0) + 1
        promoted: list[str] = []
        for slot_id in dict.fromkeys(self.touched):
            slot = self.slots[slot_id]
            support = counts.get(slot_id, 0)
            status, promoted_turn = slot.status, slot.promoted_turn
            if status == "candidate" and support >= self.tuning.min_support_nodes:
                status, promoted_turn = "active", self.turn
                promoted.append(slot_id)
            self.slots[slot_id] = slot.model_copy(
                update={"support_count": support, "status": status, "promoted_turn": promoted_turn}
            )
        return promoted

    def settle(self) -> tuple[CanonicalState, SlotDiscoveryRecord]:
        promoted = self._promote()
        ordered_maps = tuple(self.mapping.values())
        state = CanonicalState(
            version=self.version,
            slots=tuple(self.slots.values()),
            mappings=ordered_maps,
            edges=aggregate_edges(ordered_maps, self.graph),
            next_slot_number=self.number,
            last_turn=self.turn,
            last_new_slots=len(self.created),
            last_new_surface_nodes=len(self.new_maps),
        )
        touched = dict.fromkeys(self.touched)
        record = SlotDiscoveryRecord(
            turn=self.turn,
            slots_created=tuple(self.created),
            slots_updated=tuple(s for s in touched if s not in self.created),
            slots_promoted=tuple(promoted),
            mappings_created=tuple(self.new_maps),
            slots=tuple(self.slots[s] for s in touched),
            unmapped=tuple(dict.fromkeys(self.unmapped)),
            rejected=tuple(self.rejected),
            graph_state=canonical_graph_state(state),
        )
        return state, record


def apply_slot_proposals(
    canonical: CanonicalState,
    proposals: Sequence[SlotBatch],
    *,
    graph: KnowledgeGraph,
    turn: int,
    tuning: CanonicalTuning,
    embedder: Embedder | None = None,
) -> tuple[CanonicalState, SlotDiscoveryRecord]:
    """Merge one turn's recorded slot proposals into ``canonical`` (pure; see module doc)."""
    placement = _Placement(canonical, graph=graph, turn=turn, tuning=tuning, embedder=embedder)
    for batch in proposals:
        placement.take(batch)
    return placement.settle()
