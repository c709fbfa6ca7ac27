"""What the interview does when an answer reads as distress, abuse or off-topic talk.

The assessor reads each answer for safety (``Assessment.safety``: the ``llm.safety`` signal);
the methodology's ``safety`` section (``config.study.SafetySpec``) says what follows. This
module turns the two into the turn's ``SafetyRecord`` and applies an ``end`` to the session
(the question is withdrawn, the session completed with the configured end code). A ``pause``
and a ``redirect`` are the terminal's to act on: it shows the message and pauses, or shows it
before the next question.
"""

from __future__ import annotations

from interview_cli.config.schemas import Methodology
from interview_cli.core.models import Assessment
from interview_cli.session import SafetyRecord, SessionFile


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


def end_for_safety(session: SessionFile, record: SafetyRecord) -> None:
    """An ``end`` response: no further question, the end code recorded as the reason."""
    session.pending_question = None
    session.termination_reason = record.code
    session.status = "completed"
