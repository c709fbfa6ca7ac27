"""Offline assessment: the rubric signals of ``signals.md`` from surface features of an answer.

The offline half of the ``assess`` task: seed 001 "Rubric-Based LLM Detection" (six 1-5
scores) and seed 004 "LLM Qualitative Signal Extraction" (hedging; a knowledge ceiling
that is *terminal* - "I don't know and I don't care", "nothing more" - or *exploratory* -
"not sure, but maybe ...").

Features: word count, hedges ("maybe", "I guess", "sort of"), specifics (numbers, names,
times and places), causal cues ("because", "so that", "which means"), value and feeling
words, positive and negative words, and don't-know phrases. Each score's rationale names
the features that produced it, so a reader of the session file can see why.
Deterministic: no randomness.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from interview_cli.core.models import Assessment, RubricScore
from interview_cli.llm.offline.lexicon import (
    CAUSAL_MARKERS,
    DONT_KNOW,
    EXPLORATORY_CEILING,
    FEELING_WORDS,
    HEDGES,
    NEGATIVE_WORDS,
    POSITIVE_WORDS,
    TERMINAL_CEILING,
    VALUE_PHRASES,
    VALUE_WORDS,
)
from interview_cli.llm.offline.reading.clauses import sentence_start
from interview_cli.llm.offline.reading.meta import meta_kind, puzzled
from interview_cli.llm.offline.reading.nonanswers import (
    answer_kind,
    blank_spans,
    going_now,
    inline_spans,
)
from interview_cli.llm.offline.reading.safety import safety_reading
from interview_cli.llm.offline.reading.typos import mend_typos
from interview_cli.llm.protocol import AssessRequest

_WORD = re.compile(r"[\w][\w'\u2019\-]*")
_NUMBER = re.compile(
    r"\b\d+(?:[.,]\d+)?\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|half)\b",
    re.IGNORECASE,
)
_TIME_PLACE = re.compile(
    r"\b(?:yesterday|today|last (?:week|month|year|time|\w+day)|this (?:morning|week)|"
    r"every (?:day|morning|week)|on the (?:train|bus|way)|at (?:work|home|the \w+)|"
    r"in the (?:morning|evening|office)|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|minutes?|hours?|euros?|dollars?|pounds?)\b",
    re.IGNORECASE,
)
_PROPER = re.compile(r"(?<=[a-z,;:] )[A-Z][a-zA-Z]+")
_CONTRAST = re.compile(
    r"\b(?:but|although|though|however|whereas|on the other hand)\b", re.IGNORECASE
)
# A refusal ("pass", "I'd rather not"), and a puzzle at the question that may be answered after
# all (``_deflects``)
_REFUSES = re.compile(
    r"\b(?:no comment|pass|next question|whatever|i'?d rather not|don'?t want to talk)\b", re.I
)
_PUZZLED_BY = re.compile(r"\b(?:why do you (?:ask|want)|what do you mean)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Features:
    words: int
    hedges: int
    specifics: int
    causal: int
    values: int
    feelings: int
    positive: int
    negative: int
    contrasts: int
    dont_know: bool
    terminal: bool
    exploratory: bool
    deflects: bool


def features(answer: str) -> Features:
    lower = answer.lower()
    tokens = [w.replace("\u2019", "'") for w in _WORD.findall(lower)]
    token_set = set(tokens)
    specifics = (
        len(_NUMBER.findall(answer))
        + len(_TIME_PLACE.findall(answer))
        + len(_PROPER.findall(answer))
    )
    dont_know = bool(DONT_KNOW.search(answer))
    terminal = bool(TERMINAL_CEILING.search(answer))
    return Features(
        words=len(tokens),
        hedges=len(HEDGES.findall(answer)),
        specifics=specifics,
        causal=len(CAUSAL_MARKERS.findall(answer)),
        values=len(token_set & VALUE_WORDS) + sum(1 for p in VALUE_PHRASES if p in lower),
        feelings=len(token_set & FEELING_WORDS),
        positive=sum(1 for t in tokens if t in POSITIVE_WORDS),
        negative=sum(1 for t in tokens if t in NEGATIVE_WORDS),
        contrasts=len(_CONTRAST.findall(answer)),
        dont_know=dont_know,
        terminal=terminal,
        exploratory=bool(EXPLORATORY_CEILING.search(answer)),
        deflects=_deflects(answer),
    )


_ANSWERED_AFTER = 8  # words after a puzzled sentence that answer the question after all


def _deflects(answer: str) -> bool:
    """A refusal however it goes on ("I'd rather not. It's personal ..."), or a puzzle at the
    question with no answer after its sentence: "wdym why does it matter? cos it's rubbish food
    lol. felt sluggish on shift ..." answered (round 270 read it as disengaged, apologised and
    asked what he would tell a friend)."""
    if _REFUSES.search(answer):
        return True
    found = _PUZZLED_BY.search(answer)
    if found is None:
        return False
    end = re.search(r"[.?!]+\s|$", answer[found.end() :])
    rest = answer[found.end() + (end.end() if end else 0) :]
    return len(_WORD.findall(rest)) < _ANSWERED_AFTER


def knowledge_ceiling(f: Features, answer: str) -> str:
    """none / exploratory / terminal (seed 004 "KnowledgeCeilingSignal").

    Terminal: a closing phrase ("don't care", "nothing more", "that's it"), or a bare
    don't-know with almost nothing else. Exploratory: a don't-know that goes on thinking
    ("not sure, but maybe ...", "I wonder") or keeps talking for a while.
    """
    if meta_kind(answer) in ("clarify", "off_topic"):
        return "none"  # "not sure what you mean": the question, not the ladder, stopped them
    if f.terminal and not f.exploratory:
        # "Honestly, that's all there is to it. Because not hauling weight uphill": a
        # brush-off, then a reason after all - the reason is the answer, not a ceiling
        if _goes_on(answer):
            return "none"
        return "terminal"
    if not f.dont_know:
        return "exploratory" if f.terminal else "none"
    rest = DONT_KNOW.sub(" ", answer)
    remaining = len(_WORD.findall(rest))
    if f.exploratory or remaining >= 6:
        return "exploratory"
    return "terminal"


def _goes_on(answer: str) -> bool:
    """After the sentence of its last closing phrase, the answer goes on with an answer."""
    last = list(TERMINAL_CEILING.finditer(answer))[-1]
    end = re.search(r"[.!?;]", answer[last.end() :])
    rest = answer[last.end() + end.end() :] if end else ""
    if _listed_again(rest):
        return False  # "i think thats everything! froth, not splitting in tea, price, my tummy"
    # (an aside after it is no answer: "nah thats about it, grip, dry feet. oh and my dog just
    # stole my sock", a typed interview asked "what else" again)
    said = blank_spans(rest, inline_spans(rest))
    return len(_WORD.findall(said)) >= 3 and answer_kind(rest) == "answer"


def _listed_again(rest: str) -> bool:
    """What follows a closing phrase is a list of short items, said again to sum up ("froth,
    not splitting in tea, price, my tummy": round 99 was asked "what else" twice more)."""
    if re.match(
        r"\W*(?:actually|oh\s+wait|wait|no(?=\s*,|\s+(?:actually|wait|sorry)\b))\b", rest, re.I
    ):
        # "That's about it. Actually no, the carton leaks, ...": more after all (not "no grains,
        # vet says its ok, she eats it", a list said again: round 207 was asked what else twice)
        return False
    first = re.split(r"[.!?;]", rest, maxsplit=1)[0]
    items = [i for i in re.split(r",|\band\b", first) if i.strip()]
    return len(items) >= 3 and all(len(_WORD.findall(i)) <= 4 for i in items)


def hedging_level(f: Features) -> str:
    if f.hedges == 0:
        return "none"
    ratio = f.hedges / max(f.words, 1)
    if f.hedges >= 4 or ratio > 0.12:
        return "high"
    if f.hedges >= 2 or ratio > 0.06:
        return "medium"
    return "low"


def _clamp(value: int) -> int:
    return max(1, min(5, value))


def _depth(f: Features, ceiling: str) -> int:
    """response_depth: length first, causal reasoning and contrasts add layers; an answer at
    the ceiling of what the respondent knows stays shallow."""
    if f.words <= 3:
        depth = 1
    elif f.words <= 10:
        depth = 2
    elif f.words <= 25:
        depth = 3
    elif f.words <= 50:
        depth = 4
    else:
        depth = 5
    if f.causal == 0 and depth >= 4:
        depth -= 1
    if f.causal >= 2 and f.words > 10:
        depth += 1
    if ceiling == "terminal":
        depth = min(depth, 2)
    return _clamp(depth)


def _engagement(f: Features, ceiling: str) -> int:
    """engagement: 1 for a deflection, a closed topic or a word or three; more for longer
    answers with specifics or reasons."""
    engagement = 3
    if f.words <= 3 or f.deflects or ceiling == "terminal":
        engagement = 1
    elif f.words <= 8:
        engagement = 2
    elif f.words > 40 or (f.words > 20 and (f.specifics or f.causal)):
        engagement = 5 if f.words > 60 else 4
    return engagement


_CLOSES_A_TELLING = re.compile(r"(?:that'?s|thats|that\s+is)\s+(?:about\s+)?(?:it|all)\b", re.I)
# Sentences and words from which an opening answer closed with "that's it" told something.
OPENING_TOLD = (2, 20)


def _told_before_it(answer: str) -> bool:
    """Whole sentences, and words enough, said before the sentence of the answer's first
    closing phrase: a story told, then closed ("... make a sachet coffee. Thats it"), not a
    list closed ("nah thats about it, grip, dry feet", "no, dry feet, good grip, thats me
    lot")."""
    first = TERMINAL_CEILING.search(answer)
    if first is None or not _CLOSES_A_TELLING.match(first.group(0)):
        return False  # "Nothing more to it really, they're just boots to me": a brush-off
    before = answer[: sentence_start(answer, first.start())]
    sentences = [s for s in re.split(r"[.!?]+\s", before) if s.strip()]
    return len(sentences) >= OPENING_TOLD[0] and len(_WORD.findall(before)) >= OPENING_TOLD[1]


def assess_offline(request: AssessRequest) -> Assessment:
    """The offline provider's rubric assessment of one answer."""
    answer = mend_typos(request.answer.strip())  # "I'm not sue" is a don't-know
    f = features(answer)
    ceiling = "none" if (lost := puzzled(answer)) else knowledge_ceiling(f, answer)
    if ceiling == "terminal" and not request.recent_answers and _told_before_it(answer):
        # the opening answer told something and closed it ("... plug the little kettle in the
        # cab and make a sachet coffee. Thats it, is no problem.", round 226 asked "What else
        # matters to you that we haven't mentioned yet?" at once): the end of what was told,
        # not the end of what they know; nothing was asked about yet to know no more of
        ceiling = "none"
    hedging = hedging_level(f)
    depth = _depth(f, ceiling)
    kind = answer_kind(answer)

    specificity = _clamp(
        1 + min(f.specifics, 3) + (1 if f.words > 15 else 0) - (1 if f.dont_know else 0)
    )
    certainty = _clamp(
        5 - {"none": 0, "low": 1, "medium": 2, "high": 3}[hedging] - (1 if f.dont_know else 0)
    )
    balance = f.positive - f.negative
    valence = (
        5 if balance >= 3 else 4 if balance > 0 else 3 if balance == 0 else 2 if balance > -3 else 1
    )
    engagement = _engagement(f, ceiling)
    intellectual = _clamp(
        1
        + min(f.causal, 2)
        + (1 if f.values or f.feelings else 0)
        + (1 if f.causal and f.values else 0)
    )

    def score(value: int, why: str) -> RubricScore:
        return RubricScore(score=value, rationale=why)

    return Assessment(
        response_depth=score(depth, f"{f.words} words, {f.causal} causal cue(s)"),
        specificity=score(
            specificity, f"{f.specifics} specific detail(s) (numbers, names, times, places)"
        ),
        certainty=score(
            certainty, f"{f.hedges} hedge(s)" + (", says they don't know" if f.dont_know else "")
        ),
        valence=score(valence, f"{f.positive} positive and {f.negative} negative word(s)"),
        engagement=score(
            engagement, "deflects or closes the topic" if engagement == 1 else f"{f.words} words"
        ),
        intellectual_engagement=score(
            intellectual,
            f"{f.causal} causal cue(s), {f.values} value and {f.feelings} feeling word(s)",
        ),
        hedging_language=hedging,  # type: ignore[arg-type]
        knowledge_ceiling=ceiling,  # type: ignore[arg-type]
        answer_kind=kind,  # type: ignore[arg-type]
        safety=safety_reading(answer),  # type: ignore[arg-type]
        # tired or short of time now ("Sorry I'm flagging a bit now", "is there much more?")
        tiring=bool(inline_spans(answer, ("tiring",))),
        going=going_now(answer),
        puzzled=lost,
        rationale="offline heuristics: length, hedges, specifics, causal cues, don't-know phrases",
    )
