"""Slot discovery (stage 4.5, dual graph): the one ``propose_slots`` call of a turn.

The batches to ask about come from the pure turn (``DecidedTurn.slot_batches``); the answered
batches go back to it (``DecidedTurn.settle``). Discovery starts with question generation and
is never waited for on the respondent's path: a call still running when the question is
ready leaves the turn saved with its batches marked unanswered (:func:`provisional`, what a
crash would leave: those labels are asked about again next turn), and its answer is settled
into the turn before the next decision reads the canonical graph (``runner``). The closing's
call, for what the closing answer added, is settled the same way before the session ends.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from interview_cli.core.canonical.slots import CanonicalState, SlotBatch
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.llm.protocol import (
    ExistingSlot,
    InterviewLLM,
    LLMCall,
    SlotGroup,
    SlotRequest,
)
from interview_cli.pipeline.slot_batches import split_proposals

# What a turn saved before its slot call returned records on each batch.
NOT_BACK_YET = "the slot call had not returned when the turn was saved"


@dataclass
class SlotDiscovery:
    """The answered batches, the calls behind them, their failures and the time they took
    (``elapsed_ms`` None: no call was made)."""

    batches: list[SlotBatch] = field(default_factory=list)
    calls: list[LLMCall] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    elapsed_ms: float | None = None


MAX_EXAMPLE_LABELS = 3  # a slot's labels shown with its name and meaning


def existing_slots(
    canonical: CanonicalState | None, graph: KnowledgeGraph
) -> dict[tuple[str, str], ExistingSlot]:
    """Each slot by (node type, name), with its meaning and its first labels: a model told
    only the names ("organised", "thing_sort") cannot tell what belongs in them."""
    if canonical is None:
        return {}
    members = canonical.members()
    found: dict[tuple[str, str], ExistingSlot] = {}
    for slot in canonical.slots:
        labels = [graph.node(n).label for n in members.get(slot.id, []) if n in graph]
        found[(slot.node_type, slot.slot_name)] = ExistingSlot(
            name=slot.slot_name,
            description=slot.description,
            labels=list(dict.fromkeys(labels))[:MAX_EXAMPLE_LABELS],
        )
    return found


def start_slot_discovery(
    llm: InterviewLLM,
    batches: Sequence[SlotBatch],
    seed: int,
    existing: Mapping[tuple[str, str], ExistingSlot] | None = None,
) -> asyncio.Future[SlotDiscovery] | None:
    """Start the calls in the background (None: nothing to ask). ``existing``: the slots
    made so far, as ``existing_slots`` describes them."""
    if not batches:
        return None
    return asyncio.ensure_future(discover_slots(llm, batches, seed, existing or {}))


async def discover_slots(
    llm: InterviewLLM,
    batches: Sequence[SlotBatch],
    seed: int,
    existing: Mapping[tuple[str, str], ExistingSlot] | None = None,
) -> SlotDiscovery:
    """One ``propose_slots`` call for all of the turn's batches (a group each); its proposals
    go back to the batch holding their labels. Slots are optional: a failing call marks every
    batch failed (those nodes are asked about again next turn), never the turn."""
    start = time.perf_counter()
    known = existing or {}
    request = SlotRequest(
        groups=[
            SlotGroup(
                node_type=b.node_type,
                labels=list(b.labels),
                existing_slots=list(b.existing_slots),
                existing=[
                    known.get((b.node_type, name)) or ExistingSlot(name=name)
                    for name in b.existing_slots
                ],
            )
            for b in batches
        ],
        seed=seed,
    )

    def elapsed() -> float:
        return round((time.perf_counter() - start) * 1000, 2)

    try:
        result = await llm.propose_slots(request)
    except Exception as exc:  # LLMError after retries, or a provider bug: skip slots
        error = f"propose_slots failed: {type(exc).__name__}: {exc}"[:300]
        failed = [b.model_copy(update={"failed": True, "error": error}) for b in batches]
        return SlotDiscovery(batches=failed, failures=[error], elapsed_ms=elapsed())
    calls, failures = list(result.calls), list(result.failures)
    done = split_proposals(list(batches), result.value.proposals)
    if failures and not any(b.proposals for b in done):
        # An unusable response was replaced by an empty one: ask again next turn.
        error = "; ".join(failures)[:300]
        done = [b.model_copy(update={"failed": True, "error": error}) for b in done]
    return SlotDiscovery(batches=done, calls=calls, failures=failures, elapsed_ms=elapsed())


@dataclass
class PendingSlots:
    """A slot call still running after its turn (or the closing) was saved, and what settles
    its answer into the session once it returns."""

    task: asyncio.Future[SlotDiscovery]
    settle: Callable[[SlotDiscovery], None]


def provisional(batches: Sequence[SlotBatch]) -> SlotDiscovery:
    """The slot step as a turn is saved with its call still running: every batch unanswered
    (``failed``), so its labels are asked about again unless the answer comes."""
    return SlotDiscovery(
        batches=[b.model_copy(update={"failed": True, "error": NOT_BACK_YET}) for b in batches]
    )
