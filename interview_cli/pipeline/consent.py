"""Consent before the first question: the concept's ``consent`` text, the reply, the outcome.

``consent_reply`` reads a reply as yes, no or neither (the terminal asks again); the reply is
recorded with the text as shown (``SessionFile.consent``). A "no" ends the session at once:
completed, with ``consent_refused`` as its end reason and no question asked.
"""

from __future__ import annotations

from interview_cli.session.clock import now_iso
from interview_cli.session.schema import ConsentRecord, SessionFile

CONSENT_REFUSED = "consent_refused"
_YES = frozenset(
    {
        "y",
        "yes",
        "yes i agree",
        "i agree",
        "agree",
        "i consent",
        "ok",
        "okay",
        "ja",
        "oui",
        "si",
        "sí",
    }
)
_NO = frozenset({"n", "no", "i do not agree", "i don't agree", "nein", "non", "no thanks"})


def consent_reply(reply: str) -> bool | None:
    """True for a yes, False for a no, None when the reply is neither."""
    words = " ".join(reply.casefold().replace("\u2019", "'").strip(" .!").split())
    if words in _YES:
        return True
    if words in _NO:
        return False
    return None


def needs_consent(session: SessionFile, consent_text: str | None) -> bool:
    """Consent is asked once, before the first question of a new session."""
    return bool(consent_text) and session.consent is None and not session.turns


def record_consent(session: SessionFile, text: str, reply: str, agreed: bool) -> None:
    session.consent = ConsentRecord(text=text, answer=reply, agreed=agreed, answered_at=now_iso())
    if not agreed:
        session.pending_question = None
        session.termination_reason = CONSENT_REFUSED
        session.status = "completed"
