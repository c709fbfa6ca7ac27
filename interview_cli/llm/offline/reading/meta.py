"""Remarks about the interview itself, and asides that name nothing (offline, English).

A respondent does not only answer: they complain about being asked again ("I already told
you that", "like I said"), ask to move on, say the question is off topic, ask for the
question again, or decline. None of that is an element of the topic, and a node "again" or
"said before" sends the next question after words that mean nothing. The extractor blanks
these spans before it looks for elements (offsets kept, so quotes stay verbatim), and an
answer that is nothing but such a remark is not extractable, with the kind of remark as the
reason - the way a bare "I don't know" already is.

Two shapes:

- *asides* inside an answer ("Because, like I said, I can focus", "more time with my kids,
  again"): blanked wherever they stand; the rest of the answer still counts;
- *remark sentences* ("Can we move on?", "That's not really about headphones.", "The
  question drifted."): a whole sentence about the interview, blanked to its end.

``meta_kind`` names the first remark of an answer (``repeat``, ``move_on``, ``off_topic``,
``clarify``, ``decline``), for the extractor's reason and for anyone else who needs it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from interview_cli.llm.offline.lexicon.phrases import alternatives

MetaKind = str  # "repeat" | "move_on" | "off_topic" | "clarify" | "decline" | "hedge" | "filler"

# The reason an extraction gives when an answer was only a remark of this kind.
REASONS: dict[str, str] = {
    "repeat": "a complaint about being asked again, with nothing new to extract",
    "move_on": "a request to move on, with nothing to extract",
    "off_topic": "a remark about the interview, not an answer to extract",
    "clarify": "a request to repeat or explain the question, nothing to extract",
    "decline": "the respondent declined to answer, nothing to extract",
    "hedge": "a hedge with nothing to extract",
    "filler": "an aside with nothing to extract",
}

# Not a remark but its opposite: words that each name nothing ("one", "less", "thing",
# "think") and together name a consequence. Counted as content wherever emptiness is judged.
LOAD_OFF = re.compile(r"\b(?:one\s+)?less\s+(?:thing\s+)?to\s+(?:think|worry)(?:\s+about)?\b", re.I)
# Likewise "being there for them" (presence and support), "they'll look at it" (see to it,
# mend it) and "done in" (worn out): said in words that name nothing.
_CONTENT_IDIOMS = (
    LOAD_OFF,
    re.compile(r"\b(?:be|being|been|am|are)\s+there\s+for\b", re.I),
    # independence in words that name nothing: "I'm still doing things for myself"
    re.compile(
        r"\b(?:do|doing|does|did|manage|managing|sort|sorting)\s+(?:things|it|stuff|everything)"
        r"\s+(?:for|by)\s+(?:myself|ourselves|himself|herself|themselves)\b",
        re.I,
    ),
    # not having to think about it, in words that name nothing: "I never have to think about it"
    re.compile(
        r"\b(?:never|don'?t|do\s+not|not|no\s+need\s+to|won'?t|didn'?t)\s+"
        r"(?:have\s+to\s+|need\s+to\s+|got\s+to\s+|even\s+)?(?:think|worry|bother)\s+about\b",
        re.I,
    ),
    # belonging in words that name nothing: "I want to be part of it"
    re.compile(
        r"\b(?:(?:be|being|feel|feeling|am|are)\s+(?:a\s+)?)?part\s+of\s+"
        r"(?:it|that|this|them|us|something|things|the\s+\w+)\b",
        re.I,
    ),
    re.compile(
        # not the figure of speech: "look at it that way", "you could look at it a few ways"
        r"\blook(?:s|ed)?\s+(?:at|after)\s+(?:it|them|him|her|me|us)\b"
        r"(?!\s+(?:this|that|another|a\s+different|different|other|both|a\s+few|many)\s+ways?\b)",
        re.I,
    ),  # "I'm not done in after": worn out (not "done in the garden", "done in an hour")
    re.compile(r"\bdone\s+in\b(?!\s+(?:the|a|an|my|your|his|her|our|their|two|\d))", re.I),
)
_NAMING_WORD = re.compile(r"[\w][\w'\u2019\-]*")


_ECHO = re.compile(r"^\s*([^.?!]{1,40}?)\?(?=\s|$)")
_ECHO_EXTRA = frozenset("you mean so oh well like what sorry the a".split())
_TENTATIVE = frozenset("maybe perhaps probably possibly because cos 'cause so".split())


def without_echo(answer: str, question: str) -> str:
    """The answer with an opening echo of the question blanked ("Make possible? It was a
    horrible day", "Vet bills, you mean? ..."): a few of the question's own words, asked
    back, name nothing the respondent said. Blanked with spaces, so quotes keep their place."""
    found = _ECHO.match(answer)
    if not found:
        return answer
    asked = set(_NAMING_WORD.findall(question.lower()))
    said = _NAMING_WORD.findall(found.group(1).lower())
    words = [w for w in said if w not in _ECHO_EXTRA]
    rest = _NAMING_WORD.findall(answer[found.end() :])
    echoed = bool(words) and len(words) <= 4 and set(words) <= asked
    # A question back of a word or three before the answer proper ("The charging? Oh, it's
    # brilliant", "What do I get? Peace."), whatever the question's words were; "Maybe the
    # face ID login?" offers an answer.
    short = len(said) <= 3 and len(rest) >= 2 and said[0] not in _TENTATIVE
    if not (echoed or short):
        return answer
    return " " * found.end() + answer[found.end() :]


def naming_words(text: str, nameless: frozenset[str]) -> int:
    """How many words of ``text`` name something: those not in ``nameless``, plus two for
    each idiom of such words that names a consequence ("one less thing to think about",
    "being there for them"). The one judgement of emptiness for the extractor, its labels
    and ``answer_kind``."""
    words = _NAMING_WORD.findall(text.lower().replace("\u2019", "'"))
    return sum(1 for w in words if w not in nameless) + 2 * content_idioms(text)


def content_idioms(text: str) -> int:
    """How many idioms of words that each name nothing name something together ("one less
    thing to think about", "being there for them", "be part of it")."""
    return sum(len(idiom.findall(text)) for idiom in _CONTENT_IDIOMS)


_I = r"(?:i|i've|i'd|i'm|ive)"
# Asides: blanked wherever they occur, the answer around them still counts.
ASIDES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "repeat",
        re.compile(
            r"\b(?:like|as)\s+i\s+(?:said|say|mentioned|told you|explained)"
            r"(?:\s+(?:before|earlier|already|just now|a minute ago))?\b|"
            rf"\b{_I}\s+(?:(?:have|had)\s+)?(?:already|just)\s+"
            r"(?:said|told you|mentioned|answered|explained|covered)(?:\s+(?:that|this|it))?\b|"
            rf"\b{_I}\s+(?:have\s+)?(?:said|answered|told you|mentioned)\s+"
            r"(?:that|this|it)(?:\s+(?:already|before|twice|again|"
            r"(?:a\s+)?(?:few|couple of|two|three|many)\s+times))?(?:\s+now)?\b|"
            r"\b(?:we|you)(?:'ve|\s+have)?\s+(?:already\s+)?(?:covered|been over|talked about)\s+"
            r"(?:that|this|it)(?:\s+already)?\b|"
            r"\byou(?:'ve|\s+have)?\s+(?:already\s+)?asked(?:\s+me)?\s+(?:that|this)"
            r"(?:\s+(?:already|before|twice))?\b|"
            r"\b(?:same|as)\s+(?:answer\s+)?as\s+before\b|\bsame as before\b|"
            r"\bonce again\b|\bas before\b|\b(?:i\s+)?repeat(?:ing)? myself\b",
            re.IGNORECASE,
        ),
    ),
    (
        # "again" on its own between commas or at the end of a sentence ("..., again.") is
        # a sigh about repetition; inside a phrase ("music moves me again") it is content.
        "repeat",
        re.compile(r"(?:(?<=,)|(?<=^)|(?<=[.!?;:]))\s*again\b(?=\s*(?:[,.!?;:]|$))", re.I),
    ),
    (
        "hedge",
        re.compile(
            r"\b(?:who knows|(?:it'?s\s+)?(?:hard|difficult|tricky) to (?:say|explain|put)"
            r"(?:\s+(?:into|in)\s+words)?|"
            r"can'?t (?:really )?(?:explain|put my finger on) (?:it|why)|"
            r"(?:that'?s\s+a\s+)?(?:good|fair|tough|deep|big|hard) question|i'?m not sure|not sure|"
            # a pause asked for: "give me a sec", "hang on a minute"
            r"(?:give\s+me|hang\s+on|wait)\s+a\s+(?:sec|second|minute|moment|mo)\b|"
            r"(?:it'?s\s+|it\s+is\s+)?not\s+(?:that|very|so)\s+deep)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "filler",
        re.compile(
            r"\b(?:(?:my|his|her|their|our)\s+\w+\s+says?\s+so(?:\s+anyway)?|or so they say|"
            r"sorry|ha(?:ha)+|ha|heh|lol|oh well|being (?:honest|fair|real)(?=\s*,)|"
            r"to be fair|if i'?m (?:being )?honest|gosh|blimey|crikey|golly|aye|oh(?=\s*,)|"
            r"ach|och|jaysus|jeez|honest to god|funny you (?:should )?ask|ugh|urgh|"
            r"at the end of the day|i'?d say|anyway|forget (?:it|that)(?=\s*[.!?]|$)|"
            r"i\s+(?:went off on one|was rambling|'?m rambling|got carried away)(?:\s+there)?|"
            r"sorry for (?:rambling|going on)|"
            # a correction's frame; what follows is what they meant
            r"(?:no,?\s+)?that'?s not what i (?:said|meant)|"
            # a refusal to say what the asker wants to hear
            r"i'?m\s+not\s+(?:going\s+to|gonna)\s+(?:tell\s+you|say)\b[^.!?]*|"
            # a retort to the question ("how does the glitch help you?" "It doesn't help me!")
            r"it (?:doesn'?t|does not) help(?: me)?(?=\s*[,.!?])|"
            # "dear", "mate" closing a sentence; a tag question: "isn't it"
            r",\s*(?:dear|mate|hun|love|pet|duck|pal)(?=\s*[.!?]|$)|"
            r"(?:isn'?t|aren'?t|doesn'?t|don'?t|wasn'?t|didn'?t|won'?t)\s+(?:it|they|you|we|there)"
            r"(?=\s*[.!?]|$))\b",
            re.IGNORECASE,
        ),
    ),
)

# A remark on the question's oddness ("that's kind of a weird one to answer"), and on what is
# asked, on the respondent as one, on who asks ("that's a deep one for a Monday morning"):
# ``en/odd_question.yaml``, ``en/question_remark.yaml``.
ODD_QUESTIONS = "|".join(alternatives("odd_question", ("en",)))
QUESTION_REMARKS = "|".join(alternatives("question_remark", ("en",)))
# Remark sentences: the whole sentence is about the interview, not the topic. They may open
# with fillers ("Yeah, I think we covered that already").
_LEAD = (
    r"^(?:(?:ok(?:ay)?|right|look|listen|well|please|honestly|hmm+|um+|uh+|erm|yeah|yes|no|"
    r"o+h|ah+|now|ha+|gosh|aye|blimey|wow|"
    r"so|but|and|like|sorry|i'?m sorry|pardon|huh|eh|i think|i mean|i guess|i feel like)\W+)*"
)
REMARKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "move_on",
        re.compile(
            _LEAD + r"(?:(?:can|could|shall)\s+we\s+(?:please\s+)?(?:just\s+)?"
            r"(?:move on|skip|talk about something else|change the subject|get on)|"
            r"let'?s\s+(?:just\s+)?(?:move on|skip|talk about something else)|"
            r"(?:next question|pass|skip(?: it| this)?|moving on)\W*$|enough about (?:that|this)\b|"
            r"i'?d\s+(?:like|rather|prefer)\s+to\s+(?:move on|talk about something else))",
            re.IGNORECASE,
        ),
    ),
    (
        "repeat",
        re.compile(
            _LEAD + r"(?:why\s+do\s+you\s+keep\s+asking|you\s+keep\s+asking|"
            r"(?:you(?:'ve|\s+have)?\s+)?(?:already\s+)?asked\s+(?:me\s+)?(?:that|this)|"
            r"we(?:'ve|\s+have)?\s+(?:already\s+)?(?:covered|been over|been through|"
            r"talked about|done)\s+(?:that|this)|"
            rf"{_I}\s+(?:(?:have|had)\s+)?(?:already\s+)?(?:answered|said|told you|covered)"
            r"(?:\s+(?:that|this|it))?\s*$|"
            r"(?:the\s+)?same\s+(?:as|answer)|again\??\s*$|"
            r"(?:see|like)\s+(?:my\s+)?(?:last|previous|earlier)\s+answer)",
            re.IGNORECASE,
        ),
    ),
    (
        "off_topic",
        re.compile(
            _LEAD +
            # "that's not about headphones" is about the question; "it's not about the
            # price, it's more ..." is an answer, so only a short whole sentence counts.
            r"(?:(?:that|this)(?:'s|\s+is|\s+was)(?:\s+not|n't)\s+(?:really\s+|even\s+)?"
            r"(?:about|relevant|related|what\s+(?:i|we)|the\s+point|on\s+topic)"
            r"(?:\s+[\w'-]+){0,4}\s*[.!?]*\s*$|"
            r"(?:that|this|it)(?:'s|\s+is|\s+was)(?:\s+not|n't)\s+(?:really\s+|even\s+)?"
            r"(?:relevant|related|on\s+topic)|"
            r"(?:that|this|it)(?:'s|\s+is)\s+(?:a\s+bit\s+|rather\s+|totally\s+)?off[\s-]topic|"
            r"(?:the|that|this|your|these)\s+questions?\s+(?:\w+\s+){0,3}?"
            r"(?:drift\w*|wander\w*|weird|strange|odd|off|confusing|leading|repetitive|"
            r"the same|again|irrelevant|(?:is|are|was|were)n't|(?:is|are)\s+not|"
            r"(?:a\s+bit|rather|very)\s+\w+)|"
            r"(?:we(?:'re|\s+are)|you(?:'re|\s+are))\s+(?:going|getting|drifting|wandering)\s+"
            r"(?:off|away|a bit far|round in circles|in circles)|(?:" + ODD_QUESTIONS + r")|"
            r"(?:that|this|it)\s+(?:reminds\s+me\s+of|makes\s+me\s+think\s+of|"
            r"takes\s+me\s+back\s+to)|"
            r"(?:(?:but\s+)?anyway\W+)?(?:where was i|(?:but\s+)?anyway)\W*$|"
            # a remark on the question is the whole sentence, not the start of an answer
            r"(?:" + QUESTION_REMARKS + r")(?:\W+[\w'-]+){0,3}\W*$)",
            re.IGNORECASE,
        ),
    ),
    (
        "clarify",
        re.compile(
            _LEAD + r"(?:(?:what|huh|pardon|eh)\W*$|"
            r"(?:can|could|would)\s+you\s+(?:please\s+)?(?:repeat|rephrase|say\s+(?:that|it)\s+"
            r"again|explain|clarify)|"
            r"what\s+do\s+you\s+mean|what\s+(?:was|is)\s+the\s+question|"
            r"(?:i(?:'ve)?\s+)?lost\s+(?:my|the)\s+(?:train\s+of\s+thought|thread)|"
            rf"{_I}\s+(?:don'?t|do not)\s+(?:understand|get)\s+the\s+question|"
            r"(?:i'?m\s+)?not\s+sure\s+what\s+you(?:'re|\s+are)?\s+(?:asking|mean))",
            re.IGNORECASE,
        ),
    ),
    (
        "decline",
        re.compile(
            _LEAD + r"(?:i'?d\s+rather\s+not|i\s+(?:don'?t|do not)\s+want\s+to\s+"
            r"(?:say|talk about (?:it|that)|go into (?:it|that)|answer)|"
            r"no\s+comment|not\s+really,?\s+no|no,?\s+not\s+really|nah|"
            r"(?:that'?s|it'?s)\s+(?:private|personal|none of your business))\b|"
            # a sentence that turns itself down: "Marketing would love that answer, but no."
            r"^[^.!?;]*,\s*but\s+no\W*$",
            re.IGNORECASE,
        ),
    ),
)

_SENTENCE = re.compile(r"(?:[^.!?;\n]|(?<=\d)\.(?=\d))+[.!?;\n]*")


@dataclass(frozen=True)
class MetaSpan:
    start: int
    end: int
    kind: MetaKind
    sentence: bool  # a whole remark sentence, not an aside


def meta_spans(answer: str) -> list[MetaSpan]:
    """Every remark sentence and aside of the answer, in order of position."""
    spans: list[MetaSpan] = []
    for sentence in _SENTENCE.finditer(answer):
        text = sentence.group(0)
        lead = len(text) - len(text.lstrip())
        for kind, pattern in REMARKS:
            if pattern.search(text.strip()):
                spans.append(MetaSpan(sentence.start() + lead, sentence.end(), kind, True))
                break
    for kind, pattern in ASIDES:
        for match in pattern.finditer(answer):
            if match.end() > match.start():
                spans.append(MetaSpan(match.start(), match.end(), kind, False))
    return sorted(spans, key=lambda s: (s.start, -s.end))


def blank_meta(text: str) -> str:
    """``text`` with every remark and aside replaced by spaces (same length)."""
    working = list(text)
    for span in meta_spans(text):
        for i in range(span.start, span.end):
            if working[i] not in ".!?;\n":
                working[i] = " "
    return "".join(working)


def meta_kind(answer: str) -> MetaKind | None:
    """The kind of the answer's first remark about the interview, if it makes one.

    A remark sentence wins over an aside: "Sorry, can we move on?" is a request to move on.
    """
    spans = meta_spans(answer)
    ranked = sorted(spans, key=lambda s: (not s.sentence, s.kind == "filler", s.kind == "hedge"))
    return ranked[0].kind if ranked else None


__all__ = [
    "LOAD_OFF",
    "REASONS",
    "MetaSpan",
    "blank_meta",
    "meta_kind",
    "meta_spans",
    "content_idioms",
    "naming_words",
    "without_echo",
]
