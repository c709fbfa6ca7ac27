"""The end of an interview: the closing answer read into the graph (and its new concepts into
slots), the rating of the summary shown, the end screen's figures. The summary itself is the
respondent's own chains read off the graph (``summary``): no model call, so it is exact."""

from __future__ import annotations

from collections.abc import Sequence

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.core.canonical.slots import SlotBatch, canonical_graph_state
from interview_cli.core.graph.dedup import Embedder
from interview_cli.core.state import compute_graph_state
from interview_cli.core.turn import CoreState, settle_closing, take_closing_answer
from interview_cli.llm.protocol import InterviewLLM, LLMCall
from interview_cli.pipeline.reading import read_closing_answer
from interview_cli.pipeline.slots import SlotDiscovery
from interview_cli.session.schema import ClosingRecord, DeltaRecord, SessionFile

ENDED_BY_MODERATOR = "ended by moderator"


def record_closing_answer(
    session: SessionFile, answer: str, summary: str, answer_calls: Sequence[LLMCall] = ()
) -> None:
    """The answer to the closing question (and the calls behind it) into ``session``."""
    for call in answer_calls:
        session.usage.add(call)
    question = session.pending_question
    closing = session.closing or ClosingRecord()
    closing.question = question.text if question else closing.question
    closing.strategy = question.strategy if question else closing.strategy
    closing.comment = answer
    closing.summary = summary
    closing.utterance_id = f"u{len(session.turns) + 1:03d}"
    session.closing = closing
    session.pending_question = None


async def read_into_graph(
    llm: InterviewLLM,
    session: SessionFile,
    core: CoreState,
    *,
    methodology: Methodology,
    concept: Concept,
    embedder: Embedder | None = None,
) -> CoreState:
    """The saved closing answer read like any answer and applied to the graph
    (``core.turn.take_closing_answer``): the core state after it; the closing record keeps what was
    extracted and what it added, and the session the calls."""
    closing = session.closing
    assert closing is not None
    extraction, calls, failures = await read_closing_answer(
        llm, session, core.graph, methodology=methodology, concept=concept
    )
    for call in calls:
        session.usage.add(call)
    session.errors += [f"closing answer: {failure}" for failure in failures]
    after, delta = take_closing_answer(
        core,
        extraction,
        methodology=methodology,
        utterance_id=closing.utterance_id,
        embedder=embedder,
    )
    closing.extraction = extraction
    closing.graph_delta = DeltaRecord.of(delta)
    return after


def closing_slots(
    session: SessionFile,
    read: CoreState,
    discovered: SlotDiscovery,
    *,
    methodology: Methodology,
    embedder: Embedder | None = None,
) -> CoreState:
    """``read`` (the state after the closing answer's graph update) with the closing's slot
    step applied, recorded on the closing like a turn's (batches, what they did, calls)."""
    closing = session.closing
    assert closing is not None
    batches: list[SlotBatch] = list(discovered.batches)
    after, record = settle_closing(read, batches, methodology=methodology, embedder=embedder)
    if record is None:
        return after
    closing.slot_proposals = [b.model_dump(mode="json") for b in batches]
    closing.slot_discovery = record.model_dump(mode="json")
    for call in discovered.calls:
        session.usage.add(call)
    session.errors += [f"closing answer: {failure}" for failure in discovered.failures]
    return after


def record_rating(session: SessionFile, rating: int | None, summary: str) -> None:
    """The respondent's rating, kept with the summary they rated (the one shown, after the
    closing answer's corrections and additions)."""
    closing = session.closing or ClosingRecord()
    closing.summary = summary
    closing.rating = rating
    session.closing = closing


def stopped_by_respondent(session: SessionFile) -> bool:
    """The interview ended because the respondent asked to stop (the safety reading's ``stop``,
    its response an end): not a pause, not an end for abuse, not the moderator's ``/end``."""
    last = session.turns[-1] if session.turns else None
    safety = last.safety if last is not None else None
    return safety is not None and safety.kind == "stop" and safety.action == "end"


def interview_stats(core: CoreState, methodology: Methodology) -> dict[str, int | float]:
    """The end screen's figures: graph size, depth, completed chains, canonical slots."""
    state = compute_graph_state(core.graph, methodology, core.turn_count)
    ontology = methodology.ontology
    lowest = min(n.level for n in ontology.nodes)
    concrete = sum(state.nodes_by_type.get(n.name, 0) for n in ontology.nodes if n.level == lowest)
    stats: dict[str, int | float] = {
        "nodes": state.node_count,
        "edges": state.edge_count,
        "max_depth": state.max_depth,
        # Most-concrete nodes from which a terminal one is reached along chain relations.
        "chains_completed": round(state.chain_completion_ratio * concrete),
        "chain_completion_ratio": state.chain_completion_ratio,
    }
    if core.canonical is not None:
        canonical = canonical_graph_state(core.canonical)
        stats["canonical_slots"] = canonical.concept_count + canonical.candidate_count
        stats["active_slots"] = canonical.concept_count
    return stats
