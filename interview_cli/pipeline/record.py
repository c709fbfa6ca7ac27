"""What the session file keeps of a turn's outcome (stage 9): the decision and its inputs.

The core's typed outcome becomes the turn record's fields; candidates and node signals are
slimmed to the ones a reader (and ``replay --verify``) needs (``session.schema.slim_candidates``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from interview_cli.core.decide.moderator import ModeratorChoice
from interview_cli.core.turn import TurnOutcome
from interview_cli.llm.protocol import LLMCall
from interview_cli.pipeline.context import (
    DiscourseOutput,
    ExtractionOutput,
    PipelineContext,
    QuestionGenerationOutput,
)
from interview_cli.pipeline.slots import SlotDiscovery
from interview_cli.session.clock import now_iso
from interview_cli.session.schema import (
    AnswerRecord,
    CandidateRecord,
    CandidateSummary,
    ContinuationRecord,
    DecisionRecord,
    DeltaRecord,
    FocusRecord,
    ModeratorRecord,
    QuestionRecord,
    TurnRecord,
    slim_candidates,
    slim_node_signals,
    slim_veto_reasons,
)


def record_outcome(
    turn: TurnRecord, outcome: TurnOutcome, moderator: ModeratorChoice | None = None
) -> None:
    """Fill ``turn`` with what the core decided (the slot step's record too, when it ran).

    The candidates, signals and rationale are the tool's own, also when the moderator overruled
    it (kept for what-if and verified by replay); the selection and continuation are the
    decision acted on, with who made it."""
    decision = outcome.tool
    turn.graph_delta = DeltaRecord.of(outcome.delta)
    turn.signals = dict(decision.global_signals)
    # Slimming is defined on the candidates as written (a pure function ``replay --verify``
    # applies to the replayed ones alike); the record holds them typed.
    kept, summary = slim_candidates([c.to_dict() for c in decision.candidates])
    turn.candidates = [CandidateRecord.model_validate(c) for c in kept]
    turn.candidate_summary = CandidateSummary.model_validate(summary)
    turn.node_signals = slim_node_signals(
        {k: dict(v) for k, v in decision.node_signals.items()}, kept
    )
    acted = outcome.decision
    selected, continuation = acted.selected, acted.continuation
    turn.decision = DecisionRecord(
        strategy=selected.strategy,
        node_id=selected.node_id,
        label=selected.label,
        element_id=selected.element_id,
        phase=decision.phase,
        rationale=list(acted.rationale),
        veto_reasons=slim_veto_reasons(dict(decision.veto_reasons), kept),
    )
    if moderator is not None:
        turn.decision.decided_by = "moderator"
        turn.decision.moderator = ModeratorRecord.of(moderator)
        turn.decision.tool_choice = FocusRecord.of(decision.selected)
    turn.continuation = ContinuationRecord(
        should_continue=continuation.should_continue,
        reason=continuation.reason or "",
        turns_remaining=continuation.turns_remaining,
    )
    if outcome.slot_discovery is not None:
        turn.slot_discovery = outcome.slot_discovery.model_dump(mode="json")


def record_turn(
    turn: TurnRecord,
    ctx: PipelineContext,
    outcome: TurnOutcome,
    discovered: SlotDiscovery,
    record_calls: Callable[[Sequence[LLMCall], list[LLMCall]], None],
) -> None:
    """Everything a finished turn keeps (stage 9): what was read, what was decided, the model
    calls and failures of each stage, the timings and the slot step's proposals."""
    read = ctx.get(ExtractionOutput)
    turn.extraction, turn.assessment = read.extraction, read.assessment
    turn.discourse_hints = list(ctx.get(DiscourseOutput).hints)
    record_outcome(turn, outcome)
    record_calls(read.calls, turn.llm_calls)
    turn.failures = list(read.failures)
    if ctx.has(QuestionGenerationOutput):
        generated = ctx.get(QuestionGenerationOutput)
        record_calls(generated.calls, turn.llm_calls)
        turn.failures += generated.failures
    turn.timings_ms = dict(ctx.timings_ms)
    record_slots(turn, outcome, discovered, record_calls)


def record_slots(
    turn: TurnRecord,
    outcome: TurnOutcome,
    discovered: SlotDiscovery,
    record_calls: Callable[[Sequence[LLMCall], list[LLMCall]], None],
) -> None:
    """The slot step's part of a turn record: the batches asked with what came back, the
    step's outcome, its calls, failures and time. Called again when the slot call returns
    after the turn was saved (``runner``): it replaces the provisional record."""
    if outcome.slot_discovery is None:
        return
    turn.slot_discovery = outcome.slot_discovery.model_dump(mode="json")
    turn.slot_proposals = [b.model_dump(mode="json") for b in discovered.batches]
    record_calls(discovered.calls, turn.llm_calls)
    turn.failures += discovered.failures
    if discovered.elapsed_ms is not None:
        turn.timings_ms["slot_discovery"] = discovered.elapsed_ms


def answered_turn(
    number: int, question: QuestionRecord, answer: str, *, declined: bool = False
) -> TurnRecord:
    """Turn ``number`` as first written: the question and the answer, not yet processed."""
    return TurnRecord(
        turn_number=number,
        question=question,
        answer=AnswerRecord(
            utterance_id=f"u{number:03d}", text=answer, received_at=now_iso(), declined=declined
        ),
    )
