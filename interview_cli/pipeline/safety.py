"""What the session does about a turn's safety response (the turn decides it:
``core.turn.safety_response``, from the assessor's reading and the methodology's ``safety``
section).

``safety_record`` is what the turn record keeps of it (``replay --verify`` recomputes and
compares it); ``apply_safety`` acts on it.
"""

from __future__ import annotations

from interview_cli.core.turn import SafetyDecision
from interview_cli.session.schema import SafetyRecord, SessionFile


def safety_record(response: SafetyDecision | None) -> SafetyRecord | None:
    """The turn record's account of the turn's safety response (None: nothing was done)."""
    if response is None:
        return None
    return SafetyRecord(
        kind=response.kind, action=response.action, message=response.message, code=response.code
    )


def apply_safety(session: SessionFile, record: SafetyRecord) -> None:
    """What the session does about it: a ``redirect`` says its message before the next
    question (in the question's text, as a moderator would say it); an ``end`` withdraws the
    question and completes the session (the turn's end reason is its code). A ``pause`` is the
    terminal's to act on (the session stays resumable)."""
    question = session.pending_question
    if record.action == "redirect" and record.message and question is not None:
        question.text = f"{record.message} {question.text}"
    elif record.action == "end":
        session.pending_question = None
        session.status = "completed"
