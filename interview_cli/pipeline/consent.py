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
# A yes or a no as people type it: "yeah go on", "yep sure", "nah", "no thank you" (round 256's
# tester was told "Please answer yes or no." twice, to "yeah go on" and "yeah"). A word of
# each side, or any other word, is neither: "yeah no", "yes but not the recording".
_YES_WORDS = frozenset(
    "yes yeah yeh yea yep yup ya aye sure ok okay k fine alright agreed absolutely happy course "
    "why-not go-on go-ahead go-for-it fire-away sounds-good no-problem no-worries of-course "
    "lets-go let's-go lets-do-it let's-do-it all-good ready".split()
)
_NO_WORDS = frozenset("no nope nah not don't dont disagree".split())
# ... words that say neither on their own ("I don't consent" is a no, the review)
_AROUND = frozenset(
    "i i'm im go on ahead that's thats of please thanks thank you ta cheers then to do by me "
    "agree consent want sorry really when-you-are".split()
)


_YES_PHRASES = (
    "why not",
    "go for it",
    "go on",
    "go ahead",
    "fire away",
    "sounds good",
    "no problem",
    "no worries",
    "of course",
    "lets go",
    "let's go",
    "lets do it",
    "let's do it",
    "all good",
    "when you are",
)


def _joined(words: str) -> str:
    """Phrases that say yes as one word: "why not", "go on", "go ahead", "go for it" ("yeah
    sure go for it" was told "Please answer yes or no.", round 282), "no worries" (a yes,
    for all its "no")."""
    for phrase in _YES_PHRASES:
        words = words.replace(phrase, phrase.replace(" ", "-"))
    return words


def consent_reply(reply: str) -> bool | None:
    """True for a yes, False for a no, None when the reply is neither."""
    words = " ".join(reply.casefold().replace("\u2019", "'").strip(" .!").split())
    if words in _YES:
        return True
    if words in _NO:
        return False
    if "?" in words:
        return None  # (asked, not answered: "ok?", "consent?", the review)
    said = [w.strip(".,!") for w in _joined(words).split()]
    if not said or len(said) > 5 or any(w not in _YES_WORDS | _NO_WORDS | _AROUND for w in said):
        return None
    yes = any(w in _YES_WORDS for w in said)
    no = any(w in _NO_WORDS for w in said)
    return None if yes == no else yes


def needs_consent(session: SessionFile, consent_text: str | None) -> bool:
    """Consent is asked once, before the first question of a new session."""
    return bool(consent_text) and session.consent is None and not session.turns


def record_consent(session: SessionFile, text: str, reply: str, agreed: bool) -> None:
    session.consent = ConsentRecord(text=text, answer=reply, agreed=agreed, answered_at=now_iso())
    if not agreed:
        session.pending_question = None
        session.termination_reason = CONSENT_REFUSED
        session.status = "completed"
