"""Slot batches and proposals built in code, and one call of apply_slot_proposals, for the
canonical-slot tests (discovery, tracking through slots, the turn with slots)."""

from __future__ import annotations

from typing import Any

from interview_cli.config.tuning import CanonicalTuning
from interview_cli.core.canonical.proposals import apply_slot_proposals
from interview_cli.core.canonical.slots import CanonicalState, ProposedSlot, SlotBatch
from interview_cli.core.graph.knowledge import KnowledgeGraph

TUNING = CanonicalTuning()


def batch(
    graph: KnowledgeGraph,
    *labels: str,
    proposals: list[ProposedSlot] | None = None,
    node_type: str = "attribute",
    failed: bool = False,
) -> SlotBatch:
    ids = tuple(graph.find_by_label(label, node_type)[0] for label in labels)
    return SlotBatch(
        node_type=node_type,
        node_ids=ids,
        labels=labels,
        proposals=tuple(proposals or ()),
        failed=failed,
    )


def slot(name: str, *labels: str, node_type: str = "attribute") -> ProposedSlot:
    return ProposedSlot(slot_name=name, node_type=node_type, surface_labels=labels)


def apply(
    state: CanonicalState, graph: KnowledgeGraph, batches: list[SlotBatch], turn: int, **kw: Any
) -> tuple[CanonicalState, Any]:
    return apply_slot_proposals(
        state, batches, graph=graph, turn=turn, tuning=kw.pop("tuning", TUNING), **kw
    )
