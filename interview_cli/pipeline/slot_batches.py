"""One slot-discovery call per turn: the turn's batches go out as the groups of one request,
and the proposals that come back are handed to the batch that holds their labels."""

from __future__ import annotations

from collections.abc import Sequence

from interview_cli.core.canonical.slots import ProposedSlot, SlotBatch
from interview_cli.llm.protocol import SlotProposal


def split_proposals(
    batches: Sequence[SlotBatch], proposals: Sequence[SlotProposal]
) -> list[SlotBatch]:
    """``batches`` with their proposals: each proposal's labels go to the batches of its
    node type that hold them (a type with more labels than one batch has several)."""
    found: list[list[ProposedSlot]] = [[] for _ in batches]
    for proposal in proposals:
        for index, batch in enumerate(batches):
            if batch.node_type != proposal.node_type:
                continue
            labels = tuple(x for x in proposal.surface_labels if x in batch.labels)
            if labels:
                found[index].append(
                    ProposedSlot(
                        slot_name=proposal.slot_name,
                        description=proposal.description,
                        node_type=proposal.node_type,
                        surface_labels=labels,
                    )
                )
    return [
        b.model_copy(update={"proposals": tuple(f)}) for b, f in zip(batches, found, strict=True)
    ]
