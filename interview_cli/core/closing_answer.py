"""The answer to the closing question ("is that accurate, is anything missing?"), into the graph.

The closing answer is where a respondent corrects the summary or adds what was missing; it
must reach the graph like any other answer. It asks for no next question, so it takes only
the first stage of a turn, the ordinary turn's own (``core.turn.answer_into_graph``): the graph
update (de-duplication, provenance), numbered as the turn after the last one; then the node
tracker's registration of what it added. No signals, scores or continuation: the interview is
over. With canonical slots on, what it added is then placed in slots like a turn's new nodes
(``settle_closing``, the closing's ``DecidedTurn.settle``), from the closing's recorded slot
proposals. Pure: replay and verify apply it to the replayed final state exactly as the live
interview did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from interview_cli.config.schemas import Methodology
from interview_cli.core.canonical.proposals import apply_slot_proposals
from interview_cli.core.canonical.slots import SlotBatch, SlotDiscoveryRecord, pending_slot_batches
from interview_cli.core.graph.dedup import Embedder
from interview_cli.core.graph.update import GraphDelta
from interview_cli.core.models import Extraction
from interview_cli.core.tracker import apply_graph_delta
from interview_cli.core.turn import CoreState, answer_into_graph


def take_closing_answer(
    state: CoreState,
    extraction: Extraction,
    *,
    methodology: Methodology,
    utterance_id: str,
    embedder: Embedder | None = None,
) -> tuple[CoreState, GraphDelta]:
    """``state`` with the closing answer's extraction applied; ``state`` is not modified."""
    # No assessment: the closing answer is not scored, so all its extraction is content.
    graph, _, delta = answer_into_graph(
        state, extraction, None, methodology, utterance_id, embedder
    )
    # What it added is registered, but the tracker is not aged (``advance_turn``): no turn follows.
    turn = state.turn_count + 1
    tracker = apply_graph_delta(state.tracker, graph, delta, methodology=methodology, turn=turn)
    return replace(state, graph=graph, tracker=tracker), delta


def closing_slot_batches(state: CoreState, methodology: Methodology) -> list[SlotBatch]:
    """The labels the closing answer left without a slot, to ask ``propose_slots`` about
    (none when canonical slots are off)."""
    if state.canonical is None:
        return []
    return pending_slot_batches(state.canonical, state.graph, tuning=methodology.tuning.canonical)


def settle_closing(
    state: CoreState,
    proposals: Sequence[SlotBatch],
    *,
    methodology: Methodology,
    embedder: Embedder | None = None,
) -> tuple[CoreState, SlotDiscoveryRecord | None]:
    """``state`` (after ``take_closing_answer``) with the closing's slot proposals folded
    into its canonical state, numbered as the closing's turn; unchanged with canonical slots
    off."""
    if state.canonical is None:
        return state, None
    canonical, record = apply_slot_proposals(
        state.canonical,
        list(proposals),
        graph=state.graph,
        turn=state.turn_count + 1,
        tuning=methodology.tuning.canonical,
        embedder=embedder,
    )
    return replace(state, canonical=canonical), record
