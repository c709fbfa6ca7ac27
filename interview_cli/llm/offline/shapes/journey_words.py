"""The words the offline journey heuristics read feelings and trouble by.

A clause is a feeling when it says one with a cue ("I felt stressed"), says it of the moment
("that was tedious", "I was cross", "it's so fiddly", "I got really annoyed"), or is a short
clause with a feeling word and no trouble in it ("relieved, mostly"). Its valence is -2..2
from the strongest word, turned over by a negation ("not stressed", "wasn't happy").
Deterministic: word lists and patterns only.
"""

from __future__ import annotations

import re

from interview_cli.llm.offline.shapes.common import words

STRONG_NEGATIVE = frozenset(
    "furious livid awful terrible horrible hated hate panicked panicking dreadful "
    "nightmare disaster fuming infuriating infuriated maddening miserable horrendous "
    "appalling".split()
)
NEGATIVE = frozenset(
    "stressed stressful annoyed annoying frustrated frustrating angry upset worried anxious "
    "nervous irritated irritating disappointed disappointing confused fed impatient tense "
    "uneasy bored rushed cross unhappy sad embarrassed helpless tedious tiresome boring "
    "fiddly tiring tired exhausting exhausted draining overwhelmed overwhelming hassle "
    "cumbersome awkward uncomfortable unpleasant worrying scared scary grumpy miffed "
    "stressy exasperated exasperating wince winced gutted dread dreading gulp".split()
)
POSITIVE = frozenset(
    "happy glad pleased relieved calm easy fine good nice okay ok alright satisfied comfortable "
    "reassured confident smooth quick simple effortless straightforward convenient pleasant "
    "enjoyable fun painless relaxed relaxing content grateful satisfying relief proud".split()
)
STRONG_POSITIVE = frozenset(
    "delighted thrilled loved love brilliant fantastic amazing great wonderful excellent "
    "impressed perfect lovely ecstatic breeze".split()
)
FEELING_CUES = frozenset("felt feel feeling feels".split())
_FEELINGS = STRONG_NEGATIVE | NEGATIVE | POSITIVE | STRONG_POSITIVE
# "that was tedious", "I was cross", "it's so fiddly", "I got really annoyed": a feeling said
# of the moment, however long the clause around it.
_SAID_FEELING = re.compile(
    r"\b(?:was|were|is|are|am|it's|that's|i'm|got|get|getting|became|found it|felt|feel|"
    r"feels|seemed|made\s+me|makes\s+me)\s+"
    r"(?:(?:really|very|so|quite|a bit|a little|bit|pretty|rather|super|"
    r"just|incredibly|extremely|too|kind of|sort of|all|a|an|real|bit of a)\s+)*("
    + "|".join(sorted(_FEELINGS, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)
# Trouble: a clause with one of these is a pain point (unless it is a feeling alone).
PAIN = re.compile(
    r"\b(?:problem|issue|gone|late|missing|broken|wrong|couldn't|could not|can't|cannot|"
    r"didn't work|did not work|had to wait|took ages|too long|out of stock|failed|crashed|"
    r"error|no way|never|expensive|charged|forgot|lost|damaged|squashed|cancelled|hard to|"
    r"confusing|unclear|nowhere|no one|nobody|waited|didn't want|did not want|unwanted|"
    r"useless|rubbish|hopeless|kept \w+ing|cant|couldnt|faff|idea of hell)\b",
    re.IGNORECASE,
)
# ... unless it says there was none: "nothing went wrong" (round 52 asked "What would have
# helped there?")
NO_PAIN = re.compile(
    r"\b(?:nothing|never\s+anything|no\s+(?:problems?|issues?))\s+(?:\w+\s+)?(?:went\s+wrong|was\s+wrong|"
    r"broke|failed)\b|\bno\s+(?:problems?|issues?|trouble)\b",
    re.IGNORECASE,
)
# "It was annoying that ...": the feeling said before its cause, which is a pain point too.
FEELING_LEAD = re.compile(
    r"^\W*(?:it|that|this)\s+(?:was|is)\s+(?:\w+\s+){0,3}?(?:"
    + "|".join(sorted(_FEELINGS, key=len, reverse=True))
    + r")\s+(?:that|when|how)\s+",
    re.IGNORECASE,
)


def valence(text: str) -> int:
    """-2..2 from the feeling words of a clause (0: none or mixed)."""
    ws = set(words(text))
    negated = bool(ws & {"not", "never", "wasn't", "didn't", "no"})
    score = 0
    if ws & STRONG_NEGATIVE:
        score = -2
    elif ws & STRONG_POSITIVE:
        score = 2
    elif ws & NEGATIVE:
        score = -1
    elif ws & POSITIVE:
        score = 1
    # "not stressed" leans positive, "wasn't happy" negative: mildly, either way.
    return -sign(score) if negated else score


def feeling_word(text: str) -> str | None:
    said = _SAID_FEELING.search(text)
    if said is not None:
        return _whole(said.group(1).lower(), text)
    for w in words(text):
        if w in _FEELINGS:
            return _whole(w, text)
    return None


def _whole(word: str, text: str) -> str:
    """The feeling as said when its word is half of it: "fed up" ("Fed up mostly" was the
    feeling "fed", round 274)."""
    return "fed up" if word == "fed" and re.search(r"\bfed\s+up\b", text, re.I) else word


def is_emotion(text: str) -> bool:
    ws = set(words(text))
    if ws & FEELING_CUES and feeling_word(text):
        return True
    if _SAID_FEELING.search(text):
        return True
    # (said in the clause's first part: "bit stressed to be honest, its like a race", round
    # 273, was a step of its own)
    head = set(words(text.split(",")[0]))
    feeling = head & (
        STRONG_NEGATIVE
        | NEGATIVE
        | STRONG_POSITIVE
        | {"relieved", "relief", "happy", "glad", "pleased", "proud"}
    )
    if feeling and len(head) <= 8 and not PAIN.search(text):
        return True
    # a feeling word with a degree, alone: "easy enough", "fine mostly" (not "quick checkout",
    # review rv63)
    said = words(text)
    return (
        len(said) <= 3
        and bool(said)
        and said[0] in _FEELINGS
        and all(w in _DEGREES for w in said[1:])
        and not PAIN.search(text)
    )


_DEGREES = frozenset(
    "enough mostly really very so pretty quite actually tbh honestly though tho overall".split()
)


def sign(value: int) -> int:
    return (value > 0) - (value < 0)
