"""What the interview does when an answer reads as distress, abuse or off-topic talk.

The assessor reads each answer for safety (``Assessment.safety``: the ``llm.safety`` signal);
the methodology's ``safety`` section (``config.study.SafetySpec``) says what follows. This
module turns the two into the turn's ``SafetyRecord`` and applies it (``apply_safety``).
"""

from __future__ import annotations

from interview_cli.config.schemas import Methodology
from interview_cli.core.models import Assessment
from interview_cli.session.schema import SafetyRecord, SessionFile


def safety_record(assessment: Assessment | None, methodology: Methodology) -> SafetyRecord | None:
    """The response the methodology configures for this answer's safety reading, or None."""
    if assessment is None or assessment.safety == "none":
        return None
    response = methodology.safety.response(assessment.safety)
    if response is None or response.action == "continue":
        return None
    code = response.code or (f"ended_{assessment.safety}" if response.action == "end" else "")
    return SafetyRecord(
        kind=assessment.safety, action=response.action, message=response.message, code=code
    )


def apply_safety(session: SessionFile, record: SafetyRecord) -> None:
    """What the session does about it: a ``redirect`` says its message before the next
    question (in the question's text, as a moderator would say it); an ``end`` withdraws the
    question and completes the session with the end code as its reason. A ``pause`` is the
    terminal's to act on (the session stays resumable)."""
    question = session.pending_question
    if record.action == "redirect" and record.message and question is not None:
        question.text = f"{record.message} {question.text}"
    elif record.action == "end":
        session.pending_question = None
        session.termination_reason = record.code
        session.status = "completed"
