"""What in an answer is not an answer: the one place the offline reader finds it.

People do not only answer. They hedge ("to be honest"), call the interviewer "pet", say when
it happened ("at 2 a.m."), laugh ("ha"), correct themselves ("sorry, I said four days"), ask to
go back to something ("can we go back to the charging?"), or say they have nothing more ("that's
as deep as I go"). None of that names an element of the topic, and a node made of it sends
the next question after words that mean nothing (INTERVIEWING.md "How people actually answer").

Each phenomenon's phrases are data (``lexicon/<language>/<kind>.yaml``, compiled once); here
they are found in an answer as ``NonContent`` spans, which the extractor blanks before it
cuts the answer into clauses (offsets kept, so quotes stay verbatim), and a whole reply is
classified (``answer_kind``): an answer, or one of the signals that are not answers
(INTERVIEWING.md "When the respondent cannot or will not answer"): ``move_on`` (an explicit
request, obeyed, whatever else is said) over ``about_interview`` over ``already_said`` over
``dont_know``. A reply that says one of these and then goes on with real content (several
words beyond the phrases, some of which name something) is an ``answer``: "like I said, it's
the battery, and also the way they fold flat in my bag" carries news; "It's a bike, isn't it.
I don't know. Nothing more to it really." does not. A reply of words that name nothing at
all ("Hmm.", "Mm, maybe.", "Not really, no.") is a ``dont_know``. The phrases of every
language with a file are tried: a respondent may answer in another language than the
study's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from interview_cli.llm.offline.lexicon import HOPE_IT_HELPED, NAMELESS
from interview_cli.llm.offline.lexicon.phrases import (
    answer_kind_pattern,
    phrase_pattern,
    phrase_patterns,
)
from interview_cli.llm.offline.reading.leaving import leaving_said_last, said_goodbye, says_going
from interview_cli.llm.offline.reading.meta import naming_words

# Phenomena blanked wherever they stand inside an answer, in the order they are looked for.
INLINE_KINDS: tuple[str, ...] = (
    "time",
    "address",
    "filler",
    "aside",
    "hedge",
    "scene",
    "ceiling",
    "hesitation",
    "verdict",
    "correction",
    "retraction",
    "steer",
    "remark",
    "tiring",
    "away",
)
# Phenomena that make the whole clause holding them context or rapport, not a rung.
CLAUSE_KINDS: tuple[str, ...] = ("backstory", "contrast", "indifferent")
REASONS: dict[str, str] = {
    "backstory": "backstory: context for a rung, not a rung",
    "contrast": "what it is not, said in passing: no element of its own",
    "indifferent": "what they do not care about: no reason of theirs",
    "life_story": "the respondent's life around the answer: context for a rung, not a rung",
    "long_ago": "backstory: context for a rung, not a rung",
    "mishap": "backstory: context for a rung, not a rung",
}


@dataclass(frozen=True)
class NonContent:
    """A span of the answer that names nothing: its kind and where it is."""

    kind: str
    start: int
    end: int


def inline_spans(answer: str, kinds: tuple[str, ...] = INLINE_KINDS) -> list[NonContent]:
    """Every span of these kinds in the answer, in order of position."""
    found = [span for kind in kinds for span in _spans(kind, answer)]
    return sorted(found, key=lambda s: (s.start, -s.end))


@lru_cache(maxsize=4096)
def _spans(kind: str, answer: str) -> tuple[NonContent, ...]:
    # an answer is read several times in one turn (blanked, cut, gated): each kind once.
    # Each phrase is found on its own: in one alternation a short phrase found first hides a
    # longer one from the same place ("Haha that was a joke" hid "that was a joke about his
    # snoring", and round 49 asked about the snoring).
    found = sorted(
        (m.start(), m.end())
        for pattern in phrase_patterns(kind)
        for m in pattern.finditer(answer)
        if m.end() > m.start()
        and not (kind == "time" and _not_until(answer, m.start()))
        and not (kind == "tiring" and _tired_in_the_story(answer, m.start()))
    )
    if kind == "tiring" and not found and (before := _signed_off(answer)) is not None:
        # said last but for a goodbye: the leaving and the goodbye after it are one remark
        found = [(span.start, len(answer)) for span in _spans(kind, before)]
    elif kind == "tiring" and found and _signs_off_from(answer, found[-1][1]):
        # (so is a goodbye after a leaving found in full: "Sorry I've got to go, it's tea time
        # ... Good luck with it", round 240 made "good luck with it" a node)
        found[-1] = (found[-1][0], len(answer))
    if kind == "tiring" and not found:
        # ... or read by its parts, where no phrase matched it whole (``leaving``)
        before = _signed_off(answer)
        said = leaving_said_last(
            answer if before is None else before,
            signed_off=before is not None,
            goodbye=before is not None and said_goodbye(answer[len(before) :]),
        )
        # (nor a going said to someone earlier in its sentence: "My mum's like gotta go, gotta
        # go, she never stops", the review)
        told = said is not None and _SAID.search(answer, said[0], said[1]) is not None
        if said is not None and not told and not _tired_in_the_story(answer, said[1]):
            found = [(said[0], len(answer))]
    return tuple(NonContent(kind, start, end) for start, end in _merged(found))


def _signed_off(answer: str) -> str | None:
    """The answer up to the goodbye sentences that close it ("right ive gotta shoot bab, bus
    wont drive itself. tara-a-bit, up the villa!": round 237 asked "You mentioned 'up the
    villa'. Why is that important to you?"), or None when it ends otherwise."""
    end = len(answer)
    while (found := _SIGN_OFF.search(answer, 0, end)) is not None and found.start() > 0:
        end = found.start()
    return answer[:end] if end < len(answer) else None


def _signs_off_from(answer: str, end: int) -> bool:
    """What follows ``end`` is nothing but goodbye sentences closing the answer."""
    said = _SIGN_OFF.search(answer, end)
    return (
        said is not None and said.start() > end and not re.search(r"\w", answer[end : said.start()])
    )


# A sentence of nothing but goodbyes and sign-offs, closing the answer (or what is left of it)
_SIGN_OFF = re.compile(
    r"(?<=[.!?])\s*(?:(?:tara(?:-a-bit)?|ta-?ra|bye(?:-?bye)?|cheers|thanks?|thank\s+you|ta|"
    r"see\s+(?:ya|you)(?:\s+later)?|laters?|night|take\s+care|all\s+the\s+best|cheerio|"
    r"good\s+luck(?:\s+with\s+(?:it|(?:the|your)\s+[\w-]+))?|up\s+the\s+[\w-]+|"
    r"come\s+on\s+(?:you\s+)?[\w-]+|x+|lol|haha|ciao|peace|dzi[eę]ki|danke|merci|gracias|"
    r"bro|bab|mate|love|hun|pal|hen|sorry(?:\s+now)?|" + HOPE_IT_HELPED + r"|"
    # (sorry for the length: "Sorry now, I've talked your ear off. Good luck with it.", round 239)
    r"(?:i'?ve|ive|i\s+have)\s+(?:talked|bent)\s+(?:your\s+ear\s+off|the\s+ear\s+off\s+you)|"
    r"(?:i'?ve|ive)\s+(?:gone\s+on\s+a\s+bit|rambled(?:\s+on)?)|for\s+(?:rambling|going\s+on)|"
    # ("Thank you, it's been nice chatting.", "cheers tho": round 241)
    r"(?:it'?s|its|it\s+has)\s+been\s+(?:(?:really|very|so)\s+)?(?:nice|lovely|a\s+pleasure|good|fun|"
    r"interesting)(?:\s+(?:chatting|talking))?(?:\s+(?:to|with)\s+you)?|tho|though|"
    # ("Thanks, it was interesting, if a bit repetitive in places.", round 242)
    r"it\s+was\s+(?:(?:really|very|quite)\s+)?(?:interesting|nice|lovely|fun|good)(?:\s+(?:chatting|talking))?"
    r"(?:\s+(?:to|with)\s+you)?|if\s+a\s+bit\s+[a-z]+(?:\s+in\s+places)?|"
    # ("Nice chatting to you.", "Lovely to chat.", "Thanks anyway.", "Take care now.", "Thanks
    # for having me.", "cheers for your time", "been good chatting", the review)
    r"(?:been\s+)?(?:nice|lovely|good|great)\s+(?:chatting|talking|to\s+chat|to\s+talk)(?:\s+(?:to|with)\s+you)?|"
    r"anyway|now|for\s+(?:your\s+time|having\s+me|listening|the\s+chat))"
    r"\W*){1,4}$",
    re.IGNORECASE,
)


# A time that says when it did happen after all, after what did not happen before it: "Jamie
# couldnt come till the Sunday" (round 198 read back "Jamie couldnt come": he came, on the
# Sunday); kept, with what it is said of
_UNTIL = re.compile(r"(?:until|till)\b", re.IGNORECASE)
_UNTIL_LEAD = re.compile(r"\b(?:until|till)\s+$", re.IGNORECASE)
_NOT_BEFORE = re.compile(r"(?:n't|nt|\bnot|\bnever)\s+(?:[\w']+\s+){0,3}$", re.IGNORECASE)


# Tiredness in the story, not of now: told to someone in it ("He rang at midnight and I told
# him, sorry, I'm exhausted"), or set against how it was ("I used to love the job. I'm
# knackered now"), from the review; an apology says it is of now, whatever came before
# ("When I was younger I'd do the whole thing. Sorry, I'm running out of steam here.")
# (not "Like I said, I have to go now", "Truth be told", said of this interview, the review)
# (and "I'm like, look, I have to go", "I told the agent, look, ...", the review)
_SPEECH = (
    r"\b(?:said|says|told|tell|asked|ask|goes|went|replied|thought|texted|messaged|"
    r"(?:i'?m|i\s+was|he'?s|she'?s|he\s+was|she\s+was|they\s+were|\w+'s)\s+like)"
)
_TOLD_IN_THE_STORY = re.compile(
    r"(?<!\blike\si\s)(?<!\bas\si\s)(?<!\btruth\sbe\s)"
    + _SPEECH
    + r"(?:\s+(?:him|her|them|the\s+\w+|to\s+(?:him|her|them|the\s+\w+)))?\s*,?\s*"
    r"(?:(?:look|sorry|listen|mate|love|honestly|right)\W+)*$",
    re.IGNORECASE,
)
_SAID = re.compile(_SPEECH, re.IGNORECASE)
# ("The petrol one used to set the dog off. Oh dear is that the time, ...": round 282)
_SAID_NOW = re.compile(
    r"\W*(?:sorry|anyway|look|right|honestly|listen|(?:(?:oh|dear|gosh|goodness)\W+)*is\s+that\s+"
    r"the\s+time)\b",
    re.IGNORECASE,
)
# ... or just before it: "Look I'll have to wrap up in a bit" (the pattern starts at "I'll")
_SAID_NOW_BEFORE = re.compile(r"\b(?:sorry|anyway|look|right|honestly|listen)\W*$", re.IGNORECASE)
# (a routine's "before I go in" is no time gone: round 220's "Puts me at ease before I go in I
# spose. Look I'll have to wrap up in a bit, Carol needs the car soon" was asked on)
_AS_IT_WAS = re.compile(
    r"\b(?:used\s+to|back\s+then|before\s+(?:the|i|we|my)\b(?!\s+(?:go|get|come|leave)\b)|"
    r"when\s+i\s+was)",
    re.IGNORECASE,
)


_WHEN_IT_HAPPENS = re.compile(
    r"\W*(?:(?:if|when|whenever)\b(?!\s+(?:you\s+don'?t\s+mind|that'?s|thats|i'?m\s+(?:being\s+)?"
    r"honest|it'?s\s+(?:ok|okay|alright|all\s+right)|there'?s\s+nothing|we'?re\s+done))|every\s+time\b|"
    r"she'?s\s+always\s+like\b|once\b(?!\s+(?:again|we'?ve\s+done\s+this|we\s+have\s+done\s+this)\b)|"
    r"on\s+the\b(?!\s+(?:whole|other\s+hand)\b)|after\b(?!\s+(?:all\s+that|this)\b))",
    re.IGNORECASE,
)


def _tired_in_the_story(answer: str, start: int) -> bool:
    before = answer[:start]
    said_now = _SAID_NOW.match(answer, start) or _SAID_NOW_BEFORE.search(before)
    as_it_was = _AS_IT_WAS.search(before) and not said_now
    # ("If the nursery rings, I need to go soon.": what they do when it happens, from a review;
    # not "If that's everything, I really have to go now", politeness, the second review)
    sentence = re.split(r"[.!?]\s", before)[-1]
    # (nor a habit told before it in its sentence: "Every morning it's coffee and toast, that's
    # it, I have to run.")
    # (unless the going is said of now: "I always enjoy a natter, I've got to go now, sorry",
    # the review)
    now = _NOW_SAID.search(re.split(r"[.!?]", answer[start:])[0])
    habit = _HABIT.search(sentence) and not said_now and not now
    return bool(
        _TOLD_IN_THE_STORY.search(before) or as_it_was or habit or _WHEN_IT_HAPPENS.match(sentence)
    )


_NOW_SAID = re.compile(r"\b(?:now|sorry|soz|love|pet|hen|duck)\b", re.IGNORECASE)
_HABIT = re.compile(
    r"\b(?:every|each|always|usually|normally|mornings|evenings|nights|weekends|weekdays|"
    # ("Most days, I really have to go, collecting my son", "By half five, ...", the review)
    r"weeknights|most\s+days|by\s+(?:half\s+)?(?:\d{1,2}|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve))\b",
    re.IGNORECASE,
)


def _not_until(answer: str, start: int) -> bool:
    lead = _UNTIL_LEAD.search(answer[max(0, start - 8) : start])
    if lead:
        start -= len(lead.group(0))  # "until Sunday": the time is the day alone
    elif not _UNTIL.match(answer, start):
        return False
    before = re.split(r"[,.;!?]", answer[max(0, start - 60) : start])[-1]
    return bool(_NOT_BEFORE.search(before))


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted spans with those that overlap made one."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def clause_kind(text: str, kinds: tuple[str, ...] = CLAUSE_KINDS) -> str | None:
    """The first of ``kinds`` the clause's words hold (None: none), for a clause to drop."""
    return next((kind for kind in kinds if phrase_pattern(kind).search(text)), None)


def kind_at(said: str, start: int, end: int, kinds: tuple[str, ...] = CLAUSE_KINDS) -> str | None:
    """``clause_kind`` of ``said[start:end]``, where a contrast counts only when it is said in
    passing, after something the answer named first: a contrast that is the answer names it
    ("Not like a pint of full fat sloshing about." to "What do you notice?": a dev-8 simulated
    cyclist's first answer made nothing, and its ladder was never opened)."""
    # (from its first word: a clause's span may open on the space after a full stop, where a
    # pattern anchored at the clause's start would not find it, "Fine. | Got two kids.")
    while start < end and said[start].isspace():
        start += 1
    text = said[start:end]
    for kind in kinds:
        if not clause_kind(text, (kind,)):
            continue
        if kind == "indifferent" and _NEEDED_AFTER.match(said, end):
            continue  # "not bothered about the colour, as long as they're comfy" (the review)
        # (what came before is read only for a contrast found: this runs on every clause)
        if kind != "contrast" or _named_before(said, start) or _sets_off(said, end):
            return kind
    return None


# What they do care about, said right after what they do not
_NEEDED_AFTER = re.compile(
    r"\s*,?\s*(?:(?:as|so)\s+long\s+as|provided|so\s+much\s+as|as\s+much\s+as)\b",
    re.IGNORECASE,
)


def _sets_off(said: str, end: int) -> bool:
    """The sentence goes on with a "but" after ``end``: "not really a shop thing mate | but
    the one that stands out is ..." sets off what follows (round 81 asked about it)."""
    stop = re.search(r"[.!?]", said[end:])
    return bool(re.match(r"\W*but\b", said[end : end + stop.start() if stop else len(said)]))


def _named_before(said: str, start: int) -> bool:
    before = said[:start]
    return naming_words(blank_spans(before, inline_spans(before)), NAMELESS) > 0


def blank_spans(text: str, spans: list[NonContent]) -> str:
    """``text`` with the spans replaced by spaces (same length). Sentence ends are kept; a
    full stop inside a span ("2 a.m. and") is none."""
    working = list(text)
    for span in spans:
        for i in range(span.start, span.end):
            if working[i] in "!?;\n" or (working[i] == "." and _ends_sentence(text, i)):
                continue
            working[i] = " "
    return "".join(working)


def _ends_sentence(text: str, at: int) -> bool:
    rest = text[at + 1 :].lstrip()
    return not rest or rest[0].isupper() or text[at + 1 : at + 2] == "\n"


# The non-answers a reply can be, in the order one wins over another.
PRECEDENCE: tuple[str, ...] = ("move_on", "about_interview", "already_said", "dont_know")
# Beyond the matched phrases, a reply carries content anyway from this many words, of which
# this many name something (fillers and pronouns do not; other languages count words).
CONTENT_WORDS = 5
NAMING_WORDS = 2
_WORD = re.compile(r"[\w][\w'\u2019\-]*")
# "It's not about X, it's about Y": a contrast that names what matters, not a remark.
_CONTRAST = re.compile(r"\b(?:it'?s|it is|but|rather|more)\b[^.?!]*\babout\b", re.IGNORECASE)


def answer_kind(answer: str) -> str:
    """``answer`` or the non-answer the reply is (see the module docstring)."""
    text = answer.strip()
    if not text:
        return "dont_know"
    matched = [kind for kind in PRECEDENCE if answer_kind_pattern(kind).search(text)]
    rest = phrase_pattern("verdict").sub(" ", text)  # "it was the sensible choice": no reason
    for kind in matched:  # every non-answer phrase out: what is left is what was said
        rest = answer_kind_pattern(kind).sub(" ", rest)
    if "move_on" in matched:
        return "move_on"  # "I'd rather not go into our finances": obeyed, whatever else is said
    naming = naming_words(rest, NAMELESS)
    if matched:
        if len(_WORD.findall(rest)) >= CONTENT_WORDS and naming >= NAMING_WORDS:
            return "answer"  # said it, then went on with something to say
        for kind in matched:
            if kind == "about_interview" and _CONTRAST.search(text):
                continue  # "it's not about the money, it's about freedom" states what it is about
            return kind
        return "answer"
    if not naming:
        return "dont_know"  # "Hmm.", "Not really, no.", "It just made sense.": nothing named
    return "answer"


def going_now(answer: str) -> bool:
    """The answer closes on a leaving (``tiring``) that is a going of theirs said of now
    (``leaving.says_going``): they are leaving, whatever the turn ("sorry got to go now, my bus
    is here. bye" at the third answer was asked two more questions)."""
    spans = _spans("tiring", answer)
    if not spans:
        return False
    after = answer[spans[-1].end :]  # (nothing, or a goodbye: "thats me done, bye!")
    if re.search(r"\w", after) and not said_goodbye(after):
        return False
    ends_sentence = re.match(r"\s*[.!?]", answer[spans[-1].end - 1 :]) is not None
    if re.search(r"\w", after) and ends_sentence and not says_going(answer[spans[-1].start :]):
        # (a last word or two before the goodbye: "ah I'm going to have to leave it there, ...
        # bike 1 walking 1 taxi 5, the rest you can guess. best of luck with it!", round 286)
        return says_going(answer[spans[-1].start : spans[-1].end])
    return says_going(answer[spans[-1].start :])


__all__ = [
    "CLAUSE_KINDS",
    "INLINE_KINDS",
    "PRECEDENCE",
    "REASONS",
    "NonContent",
    "answer_kind",
    "blank_spans",
    "clause_kind",
    "going_now",
    "inline_spans",
]
