"""The moderator's commands on a live interview: ``/ask``, ``/alt``, ``/skip`` and ``/note``.

They act on the question waiting for an answer. ``/alt`` and ``/skip`` overrule the decision
of the last turn (``core.decide.moderator``): the turn is decided again, on the state before it,
with the moderator's choice as an input, the next question is written for the new decision, and the
turn record keeps the tool's candidates with the moderator's decision and the tool's own
choice beside it (``pipeline.record``), so ``replay --verify`` reproduces both. ``/ask`` only
rewords the waiting question (the tool's text is kept); ``/note`` adds a note to it, which the
turn record keeps once the question is answered.

Each command ends with the session saved.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from interview_cli.core.decide.moderator import ModeratorChoice, next_alternative
from interview_cli.core.turn import AnsweredTurn, CoreState, TurnInput, answer_turn
from interview_cli.pipeline.context import PipelineContext, QuestionGenerationOutput
from interview_cli.pipeline.inputs import (
    Deciders,
    recorded_input,
    recorded_moderator,
    recorded_slot_proposals,
    state_before,
)
from interview_cli.pipeline.questions import Hooks
from interview_cli.pipeline.questions import next_question as next_question_
from interview_cli.pipeline.record import record_outcome
from interview_cli.session.clock import now_iso
from interview_cli.session.schema import FocusRecord, ModeratorRecord, QuestionRecord, TurnRecord

if TYPE_CHECKING:
    from interview_cli.pipeline.runner import Interview


class ModeratorRefused(Exception):
    """A command that cannot apply now; the message says why (shown, nothing changed)."""


def add_note(interview: Interview, text: str) -> None:
    question = _waiting(interview)
    question.notes.append(text)
    interview.save()


def ask_instead(interview: Interview, text: str) -> QuestionRecord:
    """The moderator's words replace the waiting question (strategy and focus stay)."""
    question = _waiting(interview)
    if question.tool_text is None:
        question.tool_text = question.text
    question.text = text
    question.asked_by = "moderator"
    question.asked_at = now_iso()
    last = _last_turn(interview)
    decision = last.decision if last is not None else None
    # An /alt or /skip before stays the decision (it moved the core); /ask only rewords.
    if decision is not None and decision.moderator is None:
        decision.decided_by = "moderator"
        decision.moderator = ModeratorRecord.of(ModeratorChoice("ask", text=text))
        decision.tool_choice = FocusRecord(
            strategy=decision.strategy, node_id=decision.node_id, label=decision.label
        )
    elif decision is not None and decision.moderator is not None:
        decision.moderator.text = text
    interview.save()
    return question


async def take_alternative(interview: Interview, hooks: Hooks | None = None) -> QuestionRecord:
    """``/alt``: the next-best candidate of the last turn's ranking, and its question."""
    await interview.settle_slots()  # the turn is decided again with its slots
    turn, before, inputs = _decided_turn(interview, "/alt")
    answered = answer_turn(before, inputs, embedder=interview.embedder)
    chosen = next_alternative(answered.tool, _current_choice(turn))
    if chosen is None:
        raise ModeratorRefused("no other admissible candidate is left for this question")
    choice = ModeratorChoice("alt", strategy=chosen.strategy, node_id=chosen.node_id)
    return await _redecide(interview, turn, answered, choice, hooks or Hooks())


async def skip_focus(interview: Interview, hooks: Hooks | None = None) -> QuestionRecord:
    """``/skip``: the waiting question's focus node is done; the tool decides without it."""
    question = _waiting(interview)
    if question.focus_node_id is None:
        raise ModeratorRefused("this question has no focus node to skip")
    await interview.settle_slots()  # the turn is decided again with its slots
    turn, before, inputs = _decided_turn(interview, "/skip")
    answered = answer_turn(before, inputs, embedder=interview.embedder)
    choice = ModeratorChoice("skip", node_id=question.focus_node_id)
    return await _redecide(interview, turn, answered, choice, hooks or Hooks())


# ---- helpers ---------------------------------------------------------------------------------


def _waiting(interview: Interview) -> QuestionRecord:
    question = interview.session.pending_question
    if question is None:
        raise ModeratorRefused("no question is waiting for an answer")
    return question


def _last_turn(interview: Interview) -> TurnRecord | None:
    turns = interview.session.turns
    return turns[-1] if turns and turns[-1].status == "complete" else None


def _current_choice(turn: TurnRecord) -> tuple[str, str | None] | None:
    """The (strategy, node) an earlier /alt took on this turn, for the next /alt to pass."""
    choice = recorded_moderator(turn)
    if choice is None or choice.action != "alt" or choice.strategy is None:
        return None
    return choice.strategy, choice.node_id


def _decided_turn(interview: Interview, command: str) -> tuple[TurnRecord, CoreState, TurnInput]:
    """The last turn, the core state before it, and its input (without the slot proposals)."""
    question = _waiting(interview)
    turn = _last_turn(interview)
    if turn is None or question.kind == "opening":
        raise ModeratorRefused(f"{command} needs a decision to overrule: answer a question first")
    if question.kind == "closing":
        raise ModeratorRefused(
            f"{command}: the tool is closing the interview; /ask a question of your own, "
            "or answer, or /end"
        )
    if interview.before_last is not None:
        before, inputs = interview.before_last
        return turn, before, inputs
    # After a resume: replay the turns before the last one (the same code the live turn ran).
    session, index = interview.session, len(interview.session.turns) - 1
    m, c = interview.methodology, interview.concept
    state = state_before(session, index, methodology=m, concept=c, embedder=interview.embedder)
    inputs = recorded_input(session, index, methodology=Deciders(session, m).at(index), concept=c)
    inputs = replace(inputs, slot_proposals=(), moderator=None)
    interview.before_last = (state, inputs)
    return turn, state, inputs


async def _redecide(
    interview: Interview,
    turn: TurnRecord,
    answered: AnsweredTurn,
    choice: ModeratorChoice,
    hooks: Hooks,
) -> QuestionRecord:
    session = interview.session
    old = _waiting(interview)
    decided = answered.decide(choice)
    ctx = PipelineContext()
    question = await next_question_(
        interview.llm, session, turn, decided, concept=interview.concept, ctx=ctx, hooks=hooks
    )
    proposals = recorded_slot_proposals(turn) if interview.canonical is not None else ()
    core, outcome = decided.settle(proposals)
    record_outcome(turn, outcome, choice)
    if ctx.has(QuestionGenerationOutput):
        generated = ctx.get(QuestionGenerationOutput)
        interview.record_calls(generated.calls, turn.llm_calls)
        turn.failures += generated.failures
    question.notes = list(old.notes)
    interview.keep(core)
    session.pending_question = question
    session.termination_reason = outcome.termination_reason
    interview.save()
    return question
