"""The end of an interview: what was learned, the closing answer and rating, the end screen's
figures. No model call: the summary is the respondent's own chains, so it is exact."""

from __future__ import annotations

from collections.abc import Sequence

from interview_cli.config.schemas import Methodology
from interview_cli.core.canonical import canonical_graph_state
from interview_cli.core.state import compute_graph_state
from interview_cli.core.turn import CoreState
from interview_cli.llm.protocol import LLMCall
from interview_cli.session import ClosingRecord, SessionFile

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
    closing.comment = answer
    closing.summary = summary
    closing.utterance_id = f"u{len(session.turns) + 1:03d}"
    session.closing = closing
    session.pending_question = None


def record_rating(session: SessionFile, rating: int | None, summary: str) -> None:
    closing = session.closing or ClosingRecord(summary=summary)
    closing.rating = rating
    session.closing = closing


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
