"""Stages 1-3 of a turn: the context, discourse hints, then extraction and assessment.

The two model calls run concurrently (one round trip on the turn's critical path); their
results go onto the turn's ``PipelineContext`` for the pure core to decide from.
"""

from __future__ import annotations

import asyncio

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.core.discourse import FrameParser, discourse_hints
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.models import Assessment, Extraction
from interview_cli.llm.protocol import AssessRequest, ExtractRequest, InterviewLLM, LLMCall
from interview_cli.pipeline.context import (
    DiscourseOutput,
    ExtractionOutput,
    PipelineContext,
)
from interview_cli.pipeline.inputs import position
from interview_cli.pipeline.prompt_context import ExtractionContext, extraction_nodes
from interview_cli.pipeline.questions import Hooks
from interview_cli.session.schema import SessionFile, TurnRecord

EXISTING_LABELS = 30  # graph labels the extractor is shown, to reuse rather than rephrase
RECENT_ANSWERS = 3  # earlier answers the assessor compares this one with
CLOSING = "closing"  # the strategy an extraction names for a closing answer without one


async def read_answer(
    llm: InterviewLLM,
    session: SessionFile,
    turn: TurnRecord,
    *,
    methodology: Methodology,
    concept: Concept,
    existing_labels: list[str],
    frame_parser: FrameParser | None,
    ctx: PipelineContext,
    hooks: Hooks,
    extraction_context: ExtractionContext,
) -> ExtractionOutput:
    """Stages 1-3 (the utterance is saved already): the context, discourse hints, then
    extraction and assessment. ``extraction_context``: the earlier concepts by relevance and
    the exchange before this one (``extraction_context()``)."""
    with ctx.timed("context_loading"):  # the seed's stage 1; turn records keep its timing
        settings = session.settings
    with ctx.timed("discourse"):
        skipped = not settings.enable_discourse_hints
        hints = [] if skipped else discourse_hints(turn.answer.text, parser=frame_parser)
        ctx.set(DiscourseOutput(hints=hints))
    hooks.on_stage("reading the answer")
    with ctx.timed("extract_assess"):
        read = await _extract_and_assess(
            llm,
            session,
            turn,
            methodology,
            concept,
            existing_labels,
            hints,
            extraction_context,
        )
    ctx.set(read)
    return read


async def _extract_and_assess(
    llm: InterviewLLM,
    session: SessionFile,
    turn: TurnRecord,
    methodology: Methodology,
    concept: Concept,
    existing_labels: list[str],
    hints: list[str],
    context: ExtractionContext,
) -> ExtractionOutput:
    """The two model calls of stage 3, concurrently: one round trip on the critical path.
    A declined question (``/pass``) asks no model: there is nothing to read."""
    if turn.answer.declined:
        reason = "the respondent declined to answer (/pass)"
        return ExtractionOutput(
            extraction=Extraction(extractable=False, reason=reason),
            assessment=Assessment.declined(),
        )
    question = turn.question
    seed = session.settings.seed + turn.turn_number
    before = session.turns[: position(session, turn)]
    # An element question's focus is a stimulus element, not a node said before: the answer
    # is read as a reaction to it (``element_id``), its label is no earlier concept.
    raised = question.focus_element_id
    extracted, assessed = await asyncio.gather(
        llm.extract(
            ExtractRequest(
                methodology=methodology,
                concept=concept,
                answer=turn.answer.text,
                utterance_id=turn.answer.utterance_id,
                question=question.text,
                strategy=question.strategy,
                focus_label=None if raised else question.focus_label,
                focus_type=question.focus_type,
                existing_labels=existing_labels,
                **context,
                discourse_hints=hints,
                element_id=raised,
                seed=seed,
            )
        ),
        llm.assess(
            AssessRequest(
                question=question.text,
                answer=turn.answer.text,
                recent_answers=[t.answer.text for t in before[-RECENT_ANSWERS:]],
                topic=concept.name,
                objective=concept.objective,
                seed=seed,
            )
        ),
    )
    return ExtractionOutput(
        extraction=extracted.value,
        assessment=assessed.value,
        calls=[*extracted.calls, *assessed.calls],
        failures=[*extracted.failures, *assessed.failures],
    )


async def read_closing_answer(
    llm: InterviewLLM,
    session: SessionFile,
    graph: KnowledgeGraph,
    *,
    methodology: Methodology,
    concept: Concept,
) -> tuple[Extraction, list[LLMCall], list[str]]:
    """The closing answer's extraction, asked like a turn's: the closing question with its
    strategy, the earlier concepts by relevance (typed, in their words) and the exchange
    before it. No assessment: no next question depends on it."""
    closing = session.closing
    assert closing is not None
    last = session.turns[-1] if session.turns else None
    extracted = await llm.extract(
        ExtractRequest(
            methodology=methodology,
            concept=concept,
            answer=closing.comment,
            utterance_id=closing.utterance_id,
            question=closing.question,
            strategy=closing.strategy or CLOSING,
            # all of them: the closing answer looks back on the whole interview ("the fiesta
            # was just backstory" took back nothing in round 57, said twelve turns before)
            existing_labels=graph.recent_labels(max(EXISTING_LABELS, len(graph.nodes()))),
            existing_nodes=extraction_nodes(graph, methodology, None, closing.comment),
            previous_question=last.question.text if last else "",
            previous_answer=last.answer.text if last else "",
            seed=session.settings.seed + len(session.turns) + 1,
        )
    )
    return extracted.value, list(extracted.calls), list(extracted.failures)


def extraction_context(
    session: SessionFile, turn: TurnRecord, graph: KnowledgeGraph, methodology: Methodology
) -> ExtractionContext:
    """The earlier concepts chosen by relevance, and the exchange before this one."""
    earlier = session.turns[: position(session, turn)]
    before = earlier[-1] if earlier else None
    return {
        "existing_nodes": extraction_nodes(
            graph, methodology, turn.question.focus_node_id, turn.answer.text
        ),
        "previous_question": before.question.text if before else "",
        "previous_answer": before.answer.text if before else "",
    }
