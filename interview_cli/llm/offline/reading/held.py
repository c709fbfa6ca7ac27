"""How the respondent holds what the question asked about, said with a pronoun.

"You talked about the price. What does that lead to?" - "I don't know, it just annoys me."
The answer names nothing new, but it says how the price is held: against. A moderator hears
that, and the next question asks what the price costs them, not what it gives them. The
reading restates the focus as held against (the graph takes a restated node's latest
opinion), quoting the words that say it. Only a pronoun pointing at the question's focus
("it", "that", "this", "them") with a verb of disliking counts: "the app annoys me"
names the app, which the reader finds as usual.
"""

from __future__ import annotations

import re

from interview_cli.core.models import ExtractedNode
from interview_cli.llm.offline.lexicon import DISLIKE_VERBS, IRKING
from interview_cli.llm.protocol import ExtractRequest

_POINTER = r"(?:it|that|this|they|them)"
# Its own short list, not the lexicon's negative words: said of "it", "hard" or "stuck" is
# often about something else ("it's hard to explain"), never a verdict on the focus.
_AGAINST = re.compile(
    rf"\b{_POINTER}(?:'s|s|\s+is|\s+are|\s+was)?\s+(?:just\s+|really\s+|so\s+|proper\s+)?"
    rf"(?:{DISLIKE_VERBS}|{IRKING}|rubbish|useless|terrible|awful)\b"
    rf"|\bi\s+(?:really\s+|just\s+)?(?:hate|can'?t\s+stand|resent)\s+{_POINTER}\b",
    re.IGNORECASE,
)
FOCUS_HELD = 0.6


def focus_held(request: ExtractRequest, labels: set[str]) -> ExtractedNode | None:
    """The focus restated as held against, when a pronoun says so ("it just annoys me"),
    or None (no focus, no such words, or the answer already names the focus: ``labels``).
    Liking said so ("I love them") adds nothing: a focus is asked about as liked already,
    and a verdict without a reason is a cue for another technique, not a reading."""
    if not request.focus_label or not request.focus_type:
        return None
    if request.focus_label.lower() in labels:
        return None
    against = _AGAINST.search(request.answer)
    if against is None:
        return None
    return ExtractedNode(
        label=request.focus_label,
        node_type=request.focus_type,
        quote=against.group(0),
        stance=-1,
        confidence=FOCUS_HELD,
    )


__all__ = ["focus_held"]
