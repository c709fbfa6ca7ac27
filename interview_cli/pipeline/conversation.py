"""One conversation loop for every kind of respondent (the ``Respondent`` port).

A person at the terminal, answers piped on stdin and a simulated persona differ only in how
an answer comes to the interview; what the interview does with it is the same and lives here:
the opening question, each answer submitted as a turn, the closing answer read into the graph,
a safety response that pauses, the end when no question is left. `run` (``cli.terminal``) and
`batch` (``simulation.batch``) both drive :func:`converse`; what stays theirs is the I/O (the
screen, in-interview commands, the persona model) and what to do with the outcome (a rating,
an end screen, a pause message, a batch summary).

The loop owns no state of its own: everything is in the ``Interview`` and its session file, so
a loop stopped at any point resumes from the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from interview_cli.llm.protocol import LLMCall
from interview_cli.pipeline.questions import Hooks
from interview_cli.session.schema import QuestionRecord

if TYPE_CHECKING:
    from interview_cli.pipeline.runner import Interview, TurnResult


@dataclass(frozen=True)
class Reply:
    """An answer to the pending question: its text, the model calls that produced it (a
    simulated respondent's, saved with the turn), and whether the respondent declined it."""

    text: str
    calls: Sequence[LLMCall] = ()
    declined: bool = False


@dataclass(frozen=True)
class Stop:
    """No answer now: ``pause`` (input ended, /quit: resumable), or ``end`` (the moderator
    closes the interview, /end)."""

    kind: Literal["pause", "end"] = "pause"


class Respondent(Protocol):
    """Where answers come from. ``reply`` may show the question first; ``answered`` is told
    of each processed turn (a summary line, a progress bar)."""

    async def reply(self, interview: Interview, question: QuestionRecord) -> Reply | Stop: ...

    def answered(self, result: TurnResult) -> None: ...


Outcome = Literal["completed", "closed", "paused", "ended", "safety_pause"]


async def converse(
    interview: Interview, respondent: Respondent, hooks: Hooks | None = None
) -> Outcome:
    """Ask and take answers until the interview ends or the respondent stops.

    ``completed``: no question was left (or a turn ended the session: a safety end);
    ``closed``: the closing answer was taken (the caller rates and completes); ``paused`` /
    ``ended``: the respondent stopped (:class:`Stop`); ``safety_pause``: a turn's safety
    response asks to pause (the caller shows it and pauses).

    A slot call still running (``Interview.settle_slots``) is dropped at a pause and settled
    before an end; after ``closed`` it is the closing's, left for the caller to settle once the
    respondent has rated the summary, so that it never holds up the rating."""
    outcome = await _converse(interview, respondent, hooks)
    if outcome in ("paused", "safety_pause"):
        await interview.drop_pending_slots()
    elif outcome != "closed":
        await interview.settle_slots()
    return outcome


async def _converse(interview: Interview, respondent: Respondent, hooks: Hooks | None) -> Outcome:
    await interview.ensure_question(hooks)
    while not interview.finished:
        question = interview.session.pending_question
        if question is None:
            if _closing_taken_unrated(interview):
                return "closed"  # resumed after the closing answer: rate and complete
            interview.complete()
            return "completed"
        reply = await respondent.reply(interview, question)
        if isinstance(reply, Stop):
            return "paused" if reply.kind == "pause" else "ended"
        # In-interview commands (/alt, /skip, /ask) may have replaced the question.
        question = interview.session.pending_question or question
        text = "" if reply.declined else reply.text
        if question.kind == "closing":
            await interview.record_closing_answer(text, answer_calls=reply.calls)
            return "closed"
        result = await interview.submit(
            text, hooks, answer_calls=reply.calls, declined=reply.declined
        )
        respondent.answered(result)
        safety = result.turn.safety
        if safety is not None and safety.action == "pause" and not interview.finished:
            return "safety_pause"
    return "completed"


def _closing_taken_unrated(interview: Interview) -> bool:
    closing = interview.session.closing
    return closing is not None and bool(closing.utterance_id) and closing.rating is None


__all__ = ["Outcome", "Reply", "Respondent", "Stop", "converse"]
