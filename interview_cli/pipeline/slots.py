"""Slot discovery (stage 4.5, dual graph): the ``propose_slots`` calls of one turn.

The batches to ask about come from the pure turn (``DecidedTurn.slot_batches``); the answered
batches go back to it (``DecidedTurn.settle``). Discovery runs concurrently with question
generation, so it adds no sequential round trip to the turn.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from interview_cli.core.canonical import ProposedSlot, SlotBatch
from interview_cli.llm.protocol import InterviewLLM, LLMCall, SlotRequest


@dataclass
class SlotDiscovery:
    """The answered batches, the calls behind them, their failures and the time they took
    (``elapsed_ms`` None: no call was made)."""

    batches: list[SlotBatch] = field(default_factory=list)
    calls: list[LLMCall] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    elapsed_ms: float | None = None


def start_slot_discovery(
    llm: InterviewLLM, batches: Sequence[SlotBatch], seed: int
) -> asyncio.Future[SlotDiscovery] | None:
    """Start the calls in the background (None: nothing to ask)."""
    if not batches:
        return None
    return asyncio.ensure_future(discover_slots(llm, batches, seed))


async def _one(
    llm: InterviewLLM, batch: SlotBatch, seed: int
) -> tuple[SlotBatch, list[LLMCall], list[str]]:
    request = SlotRequest(
        node_type=batch.node_type,
        labels=list(batch.labels),
        existing_slots=list(batch.existing_slots),
        seed=seed,
    )
    try:
        result = await llm.propose_slots(request)
    except Exception as exc:  # LLMError after retries, or a provider bug: skip slots
        error = f"propose_slots failed: {type(exc).__name__}: {exc}"[:300]
        return batch.model_copy(update={"failed": True, "error": error}), [], [error]
    proposals = tuple(
        ProposedSlot(
            slot_name=p.slot_name,
            description=p.description,
            node_type=p.node_type,
            surface_labels=tuple(p.surface_labels),
        )
        for p in result.value.proposals
    )
    # An unusable response was replaced by an empty one: ask again next turn.
    failed = bool(result.failures) and not proposals
    update = {"proposals": proposals, "failed": failed}
    if failed:
        update["error"] = "; ".join(result.failures)[:300]
    return batch.model_copy(update=update), list(result.calls), list(result.failures)


async def discover_slots(
    llm: InterviewLLM, batches: Sequence[SlotBatch], seed: int
) -> SlotDiscovery:
    """``propose_slots`` for every batch, concurrently. Slots are optional: a failing call
    marks its batch failed (those nodes are asked about again next turn), never the turn."""
    start = time.perf_counter()
    results = await asyncio.gather(*(_one(llm, b, seed) for b in batches))
    return SlotDiscovery(
        batches=[b for b, _, _ in results],
        calls=[c for _, cs, _ in results for c in cs],
        failures=[f for _, _, fs in results for f in fs],
        elapsed_ms=round((time.perf_counter() - start) * 1000, 2),
    )
