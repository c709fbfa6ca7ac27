"""How the respondent holds what they say: by the frame around it, or of the focus, by pronoun.

``framed_against``: the words around a clause say it is held against, whatever its own words
("what annoys me is the price", "the only problem is it goes cold", "..., proper annoying",
"or it wakes the little one"), and so does a question asking what they would change.

``focus_held``: the focus, said with a pronoun.

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
from functools import lru_cache

from interview_cli.core.models import ExtractedNode
from interview_cli.llm.offline.lexicon import DISLIKE_VERBS, IRKING
from interview_cli.llm.offline.lexicon.phrases import phrase_pattern, phrase_patterns
from interview_cli.llm.offline.reading.irked import irked_spans
from interview_cli.llm.offline.reading.steering import goes_back_first
from interview_cli.llm.protocol import ExtractRequest


def framed_against(request: ExtractRequest, start: int, end: int, *, answers: bool) -> bool:
    """Whether the frame around ``request.answer[start:end]`` holds it against: a verb of
    disliking before it, "the problem is" before or after it, a verdict closing its sentence,
    "or" before a clause of what happens otherwise; or, for the first thing said
    (``answers``), a question asking what irks or what they would change."""
    answer = request.answer
    return bool(
        _DISLIKED.search(answer[:start])
        or _THE_PROBLEM_IS.search(answer[:start])
        or _framed_just_before(answer, start)
        or phrase_pattern("against_after").match(answer, end)  # "... is the problem"
        or _JUDGED_AFTER.match(answer, end)
        or any(at == end for at, _ in irked_spans(answer))
        or (
            answers and _ASKS_WHAT_IRKS.search(request.question) and not _NOTHING_HARD.match(answer)
        )
        or (_OTHERWISE.search(answer[:start]) and _SUBJECT_FIRST.match(answer, start))
        or bool(_WITHOUT_IT.search(answer[:start]))
    )


# ... or what would happen without it, said after the want of it in its sentence: "If there
# was no card I'd just stand there staring at a bag of shallots" (round 204 asked "Why is that
# important to you?" of standing there staring); the thing itself gone, not a wish ("If it
# wasn't so expensive I'd buy it every week", "If it went on offer I'd stock up": the review)
_WITHOUT_IT = re.compile(
    r"(?:^|[.!?]\s+|\b(?:and|but|so)\s+)(?:(?:well|honestly|because|cos)\W+)?(?:if\s+(?:there\s+"
    r"(?:was|were)\s+no|i\s+(?:didn'?t|did\s+not|couldn'?t)\s+have|i\s+lost\s+(?:it|them)|"
    r"(?:it|they)\s+(?:wasn'?t|weren'?t)\s+there|it\s+was\s+gone)|"
    r"without(?!\s+(?:a\s+doubt|fail|thinking|question|exception)\b))\b[^.!?,]{0,40}?[,\s]"
    r"\s*(?:(?:i'?d|i\s+would|i'?ll|we'?d|it'?d|i'?m|i\s+just|i\s+end\s+up)\s*(?:just\s+)?)?$",
    re.IGNORECASE,
)


_DISLIKED = re.compile(rf"\b{DISLIKE_VERBS}\b[^.!?]*$")
# ... or a frame of ``lexicon/en/against.yaml`` right before it ("The only thing I dont love
# is theyre bulky"), or the bare "The problem is it goes cold" (not blanked there: its
# "problem" tells a job's pain point from its approach)
_THE_PROBLEM_IS = re.compile(
    r"\bthe\s+['\"\u2018\u201c]?(?:problem|issue)['\"\u2019\u201d]?\s+(?:is|was|being)\s+"
    r"(?:that\s+)?$",
    re.IGNORECASE,
)


def _framed_just_before(answer: str, start: int) -> bool:
    return any(end <= start and not answer[end:start].strip(" ,:") for end in _against_ends(answer))


@lru_cache(maxsize=4096)
def _against_ends(answer: str) -> tuple[int, ...]:
    """Where each frame of ``lexicon/en/against.yaml`` in the answer ends (once per answer:
    every clause of it is held)."""
    return tuple(m.end() for p in phrase_patterns("against") for m in p.finditer(answer))


# ... or what happens otherwise: "it needs to be quiet as well or it wakes the little one"
# (round 45 asked "What does that let you do?" of waking the baby)
_OTHERWISE = re.compile(r"(?:\bor(?:\s+else)?|\botherwise)[\s,]+$", re.IGNORECASE)
# (what happens to them, not what they do instead: "or I just switch off and listen to music")
_SUBJECT_FIRST = re.compile(r"(?:it|they|he|she|there)\b", re.IGNORECASE)
# ... or a verdict closing its sentence: "its done half the lounge and nothing else, proper
# annoying", "stuck on socks and phone chargers, drives me mad" (round 38: asked "What do you
# get out of the socks?" and "What does that do for you, in the end?")
_JUDGED_AFTER = re.compile(
    r"[^.!?]{0,30}?(?:,|\band\b|\bwhich\b|\s-)\s*"
    r"(?:it(?:'s|s|\s+is)\s+|which\s+is\s+|that'?s\s+|(?:it\s+|which\s+)?(?:feels|felt)\s+)?"
    rf"(?:proper\s+|so\s+|really\s+|well\s+|dead\s+|just\s+|a\s+bit\s+)?{IRKING}\b",
    re.IGNORECASE,
)
# ... unless the answer says nothing is: "Honestly nothing, it makes the hill easy" (the review)
_NOTHING_HARD = re.compile(
    r"^\W*(?:(?:harder|worse|honestly|well|erm|um|hmm|oh)\W+)*(?:nothing|nowt|not\s+really|not\s+much|"
    r"none|no|nah|it\s+doesn'?t|it\s+does\s+not)\b",
    re.IGNORECASE,
)
_ASKS_WHAT_IRKS = re.compile(
    r"\bwhat\b[^?]*\b(?:you'?d|would\s+you|you\s+would)\s+(?:change|improve|fix|get\s+rid\s+of)\b|"
    r"\bwhat\b[^?]*\b(?:annoys|bothers|frustrates|irritates)\s+you\b|\bworst\s+(?:thing|part|bit)\b|"
    # "what gets in the way ...?", "what stops you ...?" (round 20: "its mainly the cost" was
    # asked next what it helps her get done)
    r"\bwhat\s+(?:gets|got|stands|stood)\s+in\s+(?:the|your)\s+way\b|\bwhat\s+(?:stops|stopped)\s+you\b|"
    r"\bwhat'?s\s+(?:the\s+)?(?:hardest|most\s+difficult|most\s+frustrating)\b|"
    # "What does waking up stiff make harder for you?" asks for what is hard ("Bending to the
    # low letterboxes", round 217 asked next "How does that help you?")
    r"\bwhat\s+(?:does|did|do)\b[^?]*\bmake\s+(?:it\s+)?(?:harder|worse|more\s+difficult)\b",
    re.IGNORECASE,
)


_POINTER = r"(?:it|that|this|they|them)"
# Its own short list, not the lexicon's negative words: said of "it", "hard" or "stuck" is
# often about something else ("it's hard to explain"), never a verdict on the focus.
_AGAINST = re.compile(
    rf"\b{_POINTER}(?:'s|s|\s+is|\s+are|\s+was)?\s+(?:just\s+|really\s+|so\s+|proper\s+)?"
    rf"(?:{DISLIKE_VERBS}|{IRKING}|rubbish|useless|terrible|awful|the\s+enemy)\b"
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
    if request.focus_label.lower() in labels or goes_back_first(request.answer):
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


__all__ = ["focus_held", "framed_against"]
