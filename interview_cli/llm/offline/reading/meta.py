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
``clarify``, ``decline``), for the extractor's reason and the assessor's ceiling (a remark on
the question is no knowledge ceiling). Their phrases are data, ``lexicon/en/meta/*.yaml``.
Whether a whole reply is a non-answer (``Assessment.answer_kind``) is ``nonanswers.answer_kind``'s
to say, from the answer-kind phrase files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from interview_cli.core.text import label_profile
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
# "One less thing" said alone, or on the mind, is the same load taken off (my typed interview:
# "one less thing, my head's full enough with work" made no node).
LOAD_OFF = re.compile(
    r"\b(?:one\s+)?less\s+(?:thing\s+)?to\s+(?:think|worry)(?:\s+about)?\b"
    r"|\bone\s+(?:less|fewer)\s+thing\b(?:\s+on\s+my\s+(?:mind|plate))?",
    re.I,
)
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
    # going out, as a family or with friends: "so we actually get to go out" (a developer's
    # typed interview: the consequence the whole ladder led to made no node)
    re.compile(r"\b(?:go|goes|going|went|get|gets|getting|got)\s+out\b(?!\s+of\b)", re.I),
    # time of one's own: "a bit of time to myself", "my only me time" (a developer's typed
    # interview lost the value the ladder reached)
    re.compile(
        r"\b(?:time\s+(?:to|for)\s+(?:myself|me|ourselves|us|yourself)|me[\s-]time)\b", re.I
    ),
    # someone's wellbeing in words that name nothing: "them being okay when we're not there"
    # (a dev-7 simulated mum's terminal value read nothing)
    re.compile(
        r"\b(?:them|they|us|we|him|her|everyone|the\s+kids|my\s+\w+)\s+being\s+"
        r"(?:okay|ok|alright|all\s+right|safe|fine|looked\s+after)\b",
        re.I,
    ),
    # being with someone: "being out there with her is the one time we properly talk" (a typed
    # interview read nothing of it)
    re.compile(
        r"\bbeing\s+(?:out\s+(?:there\s+)?|there\s+|together\s+)?with\s+(?:her|him|them|us|"
        r"my\s+[\w-]+|the\s+kids|family)\b",
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


# (after a word of coming back or taking the turn: "back now. differntly? dunno really",
# round 182 asked about "differntly")
_ECHO = re.compile(
    r"^\s*(?:(?:back(?:\s+now|\s+again)?|ok|okay|right|sorry|hmm+|eh|aye|yeah|oh)[.!,]*\s+)*"
    r"([^.?!]{1,40}?)\?+!*(?=\s|$)",  # "give me??" too
    re.IGNORECASE,
)
_ECHO_BEFORE_WELL = re.compile(r"^\s*([^.?!,]{1,30}?),\s+(?=(?:well|erm|um|oh|so)\b)", re.I)
_ECHO_EXTRA = frozenset("you mean so oh well like what sorry the a".split())
_TENTATIVE = frozenset("maybe perhaps probably possibly because cos 'cause so".split())
_UNSURE = frozenset("idk dunno hmm hm um erm uh".split())
_EXPLAINED = re.compile(r"\s*(?:like|i\s+guess|maybe|i\s+think|as\s+in)\b", re.IGNORECASE)


# What may open a reply before it denies the question's premise: "no", "lol", "ha", "sorry"
_OPENING = r"\W*(?:(?:no|nah|naw|well|lol|um|uh|erm|oh|honestly|what|huh|ha|haha|sorry|mate)\W+)*"
# The question's premise denied at the start of the answer: "it doesn't bother me" to "why
# does it bother you?", "I wasn't hoping for anything" to "what were you hoping ...?".
_DENIAL = re.compile(
    # (its subject may be left out: "ha, didnt really choose it, rota did", round 92)
    _OPENING + r"(?:(?:it|that|this|they|i|[a-z']+(?:\s+[a-z']+){0,2}?)\s*)?"
    r"(?:does\s*n[o']?t|does\s+not|did\s*n[o']?t|did\s+not|do\s*n[o']?t|was\s*n[o']?t|"
    r"was\s+not|is\s*n[o']?t|is\s+not|wasnt|isnt|doesnt|didnt|dont|'?s\s+not|'?m\s+not|am\s+not|"
    r"are\s*n[o']?t|'re\s+not|were\s*n[o']?t|werent|were\s+not|"
    # (or the "not" alone, its subject and verb left out: "Not trying to get anything done
    # really, it just tastes nicer" and "I weren't trying to get owt done with him" to "What
    # were you trying to get done there?", rounds 186 and 188 asked about them next)
    r"not|"
    # (and a perfect: "the shop hasnt ended mate its still going", round 98, to "How did it
    # end?")
    r"has\s*n[o']?t|hasnt|has\s+not|have\s*n[o']?t|havent|have\s+not)\s+(?:really\s+|that\s+)?"
    # ("finding out fast isnt a good thing" to "What's good about that?", round 47)
    # (a "the" is no verb denied: "it means I'm not the parent who ..." to "What is the
    # problem with that?" was blanked whole, a typed interview)
    r"(?:(?:an?|the)\s+)?(?P<verb>[a-z]+)\b(?:(?!\bbut\b)[^,.;!?])*"
    # (and who did instead: "..., rota did", "..., my wife did")
    r"(?:,\s*(?:the\s+|my\s+|our\s+|his\s+|her\s+)?[a-z']+(?:\s+[a-z']+)?\s+did\b)?",
    re.IGNORECASE,
)
# "The bill made nothing possible", "it gives me nothing": the premise denied with "nothing"
_NOTHING_DENIAL = re.compile(
    _OPENING + r"(?:it|that|this|they|[a-z']+(?:\s+[a-z']+){0,2}?)\s*"
    r"(?P<main>made|makes|make|gave|gives|give|does|did|do)\s+(?:me\s+|for\s+me\s+)?nothing"
    r"(?:\s+(?P<verb>[a-z]+))?\b[^,.;!?]*",
    re.IGNORECASE,
)
# ... or "nothing" its subject: "The vet?? Nothing counts about the vet lol, I'd rather never
# go!" to "What is it about the vet that counts for you?" (round 198 asked 'What are "nothing
# counts about the vet" like for you?')
_NOTHING_DOES = re.compile(
    _OPENING + r"nothing\s+(?:really\s+|much\s+|at\s+all\s+)?"
    # (not "makes": "Nothing makes me happier than ..." is a strong yes, from the review)
    r"(?P<verb>counts|matters|bothers|changes)\b[^,.;!?]*",
    re.IGNORECASE,
)
# "Theres no problem with the ward, I love my job!" to "What is the problem with that for you?"
# (round 45 asked next why "no problem with the ward" was important)
_NO_SUCH = re.compile(
    _OPENING
    + r"(?:there'?s|theres|there\s+is|there\s+was|it'?s|its|that'?s|thats)\s+no\s+(?:real\s+)?"
    r"(?P<verb>problem|issue|worry|hassle|downside|benefit|difference)\b"
    # (to the end of what it denies: "theres no problem with it except it logs me out")
    r"(?:(?!\b(?:except|but|as\s+long\s+as|so|if|when|because|unless|though|apart)\b)"
    r"[^,.;!?])*",
    re.IGNORECASE,
)
# "nothing happened on the floor" to "what exactly happened?" (round 50 asked next why it
# "happened the way it did"): nothing happened, so nothing to ask about
# (said of a thing the question picked up, not the incident: "I tapped my card and nothing
# happened", "nothing happened when I pressed start" are the story)
_NOTHING_HAPPENED = re.compile(
    r"(?:^|(?<=[,.;!?])\s*)nothing\s+(?:really\s+|actually\s+)?happened(?:\s+(?:(?:on|with|at|about)\s+"
    r"(?:the|that|this|my|being)\s+[^,.;!?]*|next\b)"
    # (or nothing more: "nothing happened i just went home and slept bro", round 107 asked what
    # would have made it go differently)
    r"|(?=\s*(?:[,.;!?]|$)|\s+(?:i|we|really|bro|mate|tbh|lol)\b))",
    re.IGNORECASE,
)
_PAST = {"made": "make", "gave": "give", "did": "do", "makes": "make", "gives": "give"}
STEM = 4
# "...; it doesn't bother me much" starts one too, and so does what follows a don't-know ("I
# don't know, price didn't really go wrong": round 84's summary began with it)
_SENTENCE_START = re.compile(
    r"[.!?;]+\s+|\b(?:i\s+(?:don'?t|do\s+not)\s+know|idk|dunno|not\s+sure)(?:\s+really)?\s*,\s*",
    re.IGNORECASE,
)


# A question asking why they chose it, in the words people use (round 70: "What made you go
# for that rather than something else?" - "I didnt choose cleaning mate, it comes with the
# machine", asked next "You said you didn't choose cleaning. What does that help you get done?")
_GO_FOR = re.compile(r"\bgo\s+for\b|\bopt\s+for\b", re.IGNORECASE)


def without_denial(answer: str, question: str) -> str:
    """The answer with a denial of the question's premise blanked where a sentence opens
    with one ("it doesn't bother me lol, it's the best part of my day"; "I don't know,
    honestly. it doesn't really go wrong as such"): the question's own verb, negated, names
    nothing the respondent holds."""
    asked = _NAMING_WORD.findall(question.lower())
    if _GO_FOR.search(question):  # "What made you go for that?" - "I didnt choose cleaning"
        asked += ["choose", "chose", "pick", "picked"]
    starts = [0, *(m.end() for m in _SENTENCE_START.finditer(answer))]
    for start in starts:
        found = (
            _DENIAL.match(answer, start)
            or _NOTHING_DENIAL.match(answer, start)
            or _NOTHING_DOES.match(answer, start)
            or _NO_SUCH.match(answer, start)
        )
        if not found:
            continue
        verbs = [found.group("verb") or ""]
        if "main" in found.re.groupindex:
            main = found.group("main").lower()
            verbs.append(_PAST.get(main, main))
        same = (
            w == verb
            or w[:STEM] == verb[:STEM]
            and min(len(w), len(verb)) >= STEM
            or verb in (w + "ed", w + "d", w + "s", w + "ing")  # "end" denied as "hasnt ended"
            for w in asked
            for verb in (v.lower() for v in verbs if v)
        )
        if any(same):
            answer = answer[:start] + " " * (found.end() - start) + answer[found.end() :]
    if "happened" in asked:  # wherever it stands: "Mate I already said, nothing happened"
        for found in _NOTHING_HAPPENED.finditer(answer):
            answer = answer[: found.start()] + " " * len(found.group(0)) + answer[found.end() :]
    return answer


# Words in quote marks; an apostrophe inside a word ("he'd", "it's") is no quote mark.
_QUOTED = re.compile(
    "(?<!\\w)['\"\u2018\u201c](?:[^'\"\u2019\u201d]|(?<=\\w)['\u2019](?=\\w)){1,80}"
    "['\"\u2019\u201d](?!\\w)"
)


def without_quoted_back(answer: str, question: str) -> str:
    """The answer with the question's own words, quoted back, blanked: "'the mower if it's
    all the same' leading to 'it doesn't lead to owt' is daft" answering the check-back that
    said them (round 25, read back as concepts), "Sorry, 'the teenager'? That was me". Words
    in quotes name something of the answer's own only when some are not the question's."""
    asked = set(_NAMING_WORD.findall(question.lower().replace("\u2019", "'")))
    out = answer
    for found in _QUOTED.finditer(answer):
        said = _NAMING_WORD.findall(found.group(0)[1:-1].lower().replace("\u2019", "'"))
        if said and set(said) <= asked:
            out = out[: found.start()] + " " * (found.end() - found.start()) + out[found.end() :]
    return out


def without_echo(answer: str, question: str) -> str:
    """The answer with an opening echo of the question blanked ("Make possible? It was a
    horrible day", "Vet bills, you mean? ..."): a few of the question's own words, asked
    back, name nothing the respondent said; so is a denial of its premise ("it doesn't
    bother me", ``without_denial``). Blanked with spaces, so quotes keep their place."""
    answer = without_quoted_back(without_denial(answer, question), question)
    found = _ECHO.match(answer)
    if not found:
        said = _ECHO_BEFORE_WELL.match(answer)
        # (not the option picked from a question offering two: "The comfort, well they're so
        # light", asked "Is it more the battery life or the comfort?", review rv64)
        offered = re.search(r"\bor\b", question, re.IGNORECASE) is not None
        if said is not None and not offered and _echoed(said, question):
            # (said back with a comma and a "well": "what happened next, well I got it back
            # eventually!", round 279 asked 'You mentioned "what happened next".')
            answer = answer[: said.start(1)] + " " * len(said.group(1)) + answer[said.end(1) :]
        return _without_mulled(answer, question)
    blanked = _echo_blanked(answer, question, found)
    again = _ECHO.match(blanked)
    if blanked != answer and again and _echoed(found, question):
        # the question echoed, then a guess at what it meant asked back: "Before the fourth
        # floor? The stairs? I don't get the question" (round 198 asked "You talked about the
        # stairs. What did you hope the new way would do for you?")
        return _echo_blanked(blanked, question, again)
    return blanked


def _echoed(found: re.Match[str], question: str) -> bool:
    """The question back is a few of the question's own words."""
    asked = set(_NAMING_WORD.findall(question.lower()))
    words = [w for w in _NAMING_WORD.findall(found.group(1).lower()) if w not in _ECHO_EXTRA]
    return bool(words) and len(words) <= 4 and set(words) <= asked


def _echo_blanked(answer: str, question: str, found: re.Match[str]) -> str:
    """``answer`` with the question back that ``found`` matched blanked, when it names
    nothing the respondent said."""
    asked = set(_NAMING_WORD.findall(question.lower()))
    said = _NAMING_WORD.findall(found.group(1).lower())
    words = [w for w in said if w not in _ECHO_EXTRA]
    rest = _NAMING_WORD.findall(answer[found.end() :])
    echoed = _echoed(found, question)
    # A question back of a word or three before the answer proper ("The charging? Oh, it's
    # brilliant", "What do I get? Peace."), whatever the question's words were; "Maybe the
    # face ID login?" offers an answer.
    # (nothing left of it when a denied premise was blanked first: "it doesnt bother me?? ...")
    # An answer offered unsure, not asked back: "idk, peace of mind? like i dont want to end up
    # where my dad is" (round 27), unsure before it or explained after, in none of the
    # question's words
    unsure = said[:1] and said[0] in _UNSURE or _EXPLAINED.match(answer[found.end() :])
    offered = bool(unsure) and not any(w in asked for w in words)
    short = 0 < len(said) <= 3 and len(rest) >= 2 and said[0] not in _TENTATIVE and not offered
    if not (echoed or short):
        return answer
    return " " * found.end() + answer[found.end() :]


def _without_mulled(answer: str, question: str) -> str:
    """The answer without the question's words mulled over before it: "Hmm, other thoughts. I
    suppose the main one is ..." (round 44 read back "other thoughts" as theirs)."""
    found = _MULLED.match(answer)
    if not found:
        return answer
    asked = set(_NAMING_WORD.findall(question.lower()))
    said = [w for w in _NAMING_WORD.findall(found.group(1).lower()) if w not in _ECHO_EXTRA]
    rest = _NAMING_WORD.findall(answer[found.end() :])
    if not said or len(said) > 3 or not set(said) <= asked or len(rest) < 2:
        return answer
    return " " * found.end() + answer[found.end() :]


_MULLED = re.compile(
    r"^\s*(?:(?:hmm+|hm|um+|erm|uh|ok|okay|right|well|oh|so)\W+)+([^.?!,]{1,30}?)\s*(?:\.+|,|\.\.\.)(?=\s|$)",
    re.IGNORECASE,
)


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


# Asides and remark sentences about the interview: phrase files in ``lexicon/en/meta/``.
# An aside (``aside_<kind>.yaml``) is blanked wherever it occurs, the answer around it still
# counting; its patterns are tried in the file's order, as one alternation.
def _meta(kind: str) -> list[str]:
    return alternatives(f"meta/{kind}", ("en",))


def _ordered(regexes: list[str], lead: str = "") -> re.Pattern[str]:
    return re.compile(lead + "(?:" + "|".join(f"(?:{r})" for r in regexes) + ")", re.IGNORECASE)


ASIDES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, _ordered(_meta(f"aside_{kind}"))) for kind in ("repeat", "hedge", "filler")
)

# A remark on the question's oddness ("that's kind of a weird one to answer"), and on what is
# asked, on the respondent as one, on who asks ("that's a deep one for a Monday morning"):
# ``en/odd_question.yaml``, ``en/question_remark.yaml``.
ODD_QUESTIONS = "|".join(alternatives("odd_question", ("en",)))
QUESTION_REMARKS = "|".join(alternatives("question_remark", ("en",)))
# Remark sentences: the whole sentence is about the interview, not the topic. They may open
# with words such as "yeah", "sorry", "I mean" (``meta/opener.yaml``): "Yeah, I think we
# covered that already". The first kind whose file matches a sentence names it.
_LEAD = r"^(?:(?:" + "|".join(_meta("opener")) + r")\W+)*"
_ABOUT_THE_QUESTION = [
    f"(?:{ODD_QUESTIONS})",
    # a remark on the question is the whole sentence, not the start of an answer
    rf"(?:{QUESTION_REMARKS})(?:\W+[\w'-]+){{0,3}}\W*$",
]
REMARKS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, _ordered(_meta(kind) + (_ABOUT_THE_QUESTION if kind == "off_topic" else []), _LEAD))
    for kind in ("move_on", "repeat", "off_topic", "clarify", "decline")
)

# (a dash between spaces ends a remark too: "Sorry, what do you mean - thats the old petrol
# one, the point is I dont have to pull anything", round 43, was blanked whole)
_SENTENCE = re.compile(
    r"(?:[^.!?;\n\u2013\u2014-]|(?<=\d)\.(?=\d)|(?<!\s)[-\u2013\u2014]|[-\u2013\u2014](?!\s))+"
    r"(?:[.!?;\n]+|\s[-\u2013\u2014](?=\s))?"
)


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


def interviewers_words(question: str, theirs: list[str]) -> frozenset[str]:
    """The content words of ``question`` that are the interviewer's own: not in a quote of
    the respondent, not a thing of theirs it names ("the app"), nor in ``theirs`` (the focus,
    earlier concepts, the last answer, the topic). A label of nothing else is the question
    said back ("best moment is ..." to "what was your best moment?")."""
    asked = re.sub(r'"[^"]*"|\u201c[^\u201d]*\u201d', " ", question)
    asked = re.sub(r"\bthe\s+[\w'-]+", " ", asked, flags=re.IGNORECASE)
    said = {w for text in theirs for w in label_profile(text).content}
    return frozenset(label_profile(asked).content) - said


# A reply that opens puzzled at the question, whatever follows it: "sorry what do you mean by
# the bother?", "what? nobody behind the van", "eh?", "wdym", "I don't follow". The reader
# reads what follows as what they meant, the question card counts the question as puzzling,
# and the next question owns it.
PUZZLED = re.compile(
    r"^\W*(?:(?:i'?m\s+sorry|sorry|pardon|oh|ha|haha|lol|hmm|um|erm|eh)\W+)*(?:(?:what|huh|eh|"
    r"sorry|pardon|come\s+again)\W*\?|what\s+(?:do\s+)?(?:you|u|ye)\s+mean\b|wdym\b|i\s+do\s*n[o']?t\s+(?:really\s+|quite\s+)?"
    r"(?:follow(?!\s+(?!you\b|u\b|that\b|this\b|the\s+question\b)[a-z])|get\s+(?:it(?!\s+(?:either|myself)\b)|"
    r"the\s+question|what\s+you\s+mean))|"
    # ("I'm sorry, I'm not sure what you mean by 'the sounds grander'", "Sorry you've lost me
    # there", "sorry makes what harder?": round 236 asked on as if understood)
    r"(?:i'?m\s+|i\s+am\s+)?not\s+(?:quite\s+|really\s+|too\s+)?sure\s+what\s+(?:you|u)\s+mean|"
    # ("The account? I'm not sure what you're after there.", round 239: the question said back
    # first)
    r"(?:[\w'-]+\s+){0,7}[\w'-]+\?\s+(?:(?:i'?m\s+|i\s+am\s+)?not\s+(?:quite\s+|really\s+)?sure|"
    r"i\s+do\s*n[o']?t\s+know)\s+what\s+(?:you|u)(?:\s+mean|(?:'re|\s+are)\s+(?:after|asking|"
    r"getting\s+at|on\s+about))\b|"
    # ("How does the Skoda affect me? Not sure I follow.", "matters about what, the coffee?":
    # round 240 asked on)
    r"(?:(?:[\w'-]+\s+){0,7}[\w'-]+\?\s+)?(?:i'?m\s+|i\s+am\s+)?not\s+(?:quite\s+|really\s+)?sure\s+i\s+"
    r"(?:(?:totally|really|quite|fully)\s+)?"
    r"(?:follow|understand|get\s+(?:it|you|what\s+you\s+mean))"
    # (the question, not something else: "Not sure I follow the logic of the council", "Not
    # sure I follow recipes much", "Not sure I get it either, the fees just appear", the review)
    r"(?=\s*(?:[,.;!?]|$|\s+(?:you|u|the\s+question|what\s+you|tbh|sorry|mate|pet|love|hen|"
    r"there|that|this\s+one)\b))|"
    # ("think about what, valencia or the app?", round 284 asked on as if understood)
    r"(?:matters?|important|else|think|thinking|talk|talking)\s+(?:about|to|for)\s+what\s*[,?]|"
    r"(?:i'?m\s+|i\s+am\s+)?not\s+(?:quite\s+|really\s+|too\s+)?sure\s+what\s+(?:you|u)(?:'re|\s+are)\s+"
    r"(?:after|asking|getting\s+at|on\s+about)\b|"
    # ("I don't know what you're asking", "you what?", "rate what exactly?": round 282)
    r"(?:i\s+)?(?:do\s*n[o'’]?t|dont)\s+(?:really\s+|quite\s+)?(?:know|get|understand|see)\s+what\s+"
    r"(?:(?:you|u|ye)(?:'re|\s+are|re|r)?|ur)\s+(?:asking|after|getting\s+at|on\s+about)"
    r"(?:\s+(?:me|tbh|to\s+be\s+honest|honestly|there|here|sorry|mate|love|really|exactly))*"
    r"\s*(?:[.?!]|$)|"
    r"(?:you|u)\s+what\s*\?|(?!for\b)[\w'-]+\s+what\s+exactly\s*\?|"
    # (review rv65: "How do you mean?", "Rate what?", "what does that mean?", "Sorry, what was
    # that?", "what are you on about", "I'm not with you", "Say again?", "im confused", "Not
    # really sure what the question is", "idk what ur asking", "I don't know what you mean")
    r"how\s+do\s+(?:you|u)\s+mean\b|(?:rate|rank|score|compare|place|number)\s+what(?:\s+exactly)?\s*\?|"
    # ("sorry what does that mean, "only where someone else you zone out"? like is 5 someone
    # else doing the driving?", round 286)
    r"what\s+does\s+(?:that|this)\s+(?:even\s+)?mean\s*(?:\?|,\s*[\"'\u201c])|what\s+was\s+that\s*\?|"
    r"what\s+are\s+(?:you|u)\s+(?:on\s+about|asking|after|getting\s+at)\b|(?:i'?m|im|i\s+am)\s+not\s+with\s+you\b|"
    # (not "I'm confused": by the new app as often as by the question, a reading case)
    r"say\s+(?:that\s+|it\s+)?again\s*\?|(?:i'?m\s+)?not\s+(?:really\s+|quite\s+)?sure\s+what\s+the\s+"
    r"question\s+is\b|(?:idk|dunno|no\s+idea|(?:i\s+)?(?:do\s*n[o'\u2019]?t|dont)\s+(?:really\s+)?(?:know|get))\s+"
    r"what\s+(?:(?:you|u|ye)(?:'re|\s+are|re|r)?|ur)\s+(?:asking|after|on\s+about|mean)(?:\s+by\s+(?:that|it))?"
    r"(?:\s+(?:for|me|tbh|sorry|mate|there))*\s*(?:[.?!]|$)|"
    r"(?:you'?ve|you\s+have|uve|u\s+have)\s+lost\s+me\b|"
    r"(?:makes?|does|do|means?|gives?|lets?)\s+what(?:\s+[\w'-]+)?\s*\?|"
    # "Sorry, can you say that again? The local what?", "Which dog?" (round 198)
    r"(?:can|could)\s+(?:you|u)\s+(?:say|repeat)\s+(?:that|it)\b|"
    # (which one was meant, asked alone or before another question; not "Which bit? Mostly
    # that I don't slip", an answer after all, from the review)
    r"which\s+[\w'-]+\s*\?(?=\s*$|[^.!]*\?))",
    re.IGNORECASE,
)


# Puzzled at the question after trying an answer, in a sentence of its own: "what does it give
# me? a sore head haha. what do you mean like?" (round 239 asked on without a word)
PUZZLED_LATER = re.compile(
    r"(?<=[.!?])\s+(?:(?:sorry|but|so|like|eh)\W+)?(?:what\s+do\s+(?:you|u|ye)\s+mean|wdym)"
    r"(?:\s+(?:like|exactly|by\s+that|by\s+it)(?:\s+exactly)?)?\s*\?"
    # (said to them in a story: "What do you mean exactly? he goes.", the review)
    r"(?!\s*(?:he|she|they|says|said|goes|went|asked|the\s+\w+\s+(?:says|said|goes))\b)|"
    # ("Helped me past what? It's the patients who are scared not me lol. I'm not sure what you're
    # asking to be honest.", round 282 asked on without a word)
    r"(?<=[.!?,])\s+(?:i'?m\s+)?not\s+sure\s+what\s+(?:you|u)(?:\s+mean|(?:'re|\s+are)\s+asking)"
    r"(?:\s+(?:tbh|there|by\s+that|sorry|to\s+be\s+honest))*"
    r"\s*(?:[.?!]|$)",
    re.IGNORECASE,
)


def puzzled(answer: str) -> bool:
    """The answer leaves the question unanswered for not knowing what it asks
    (``Assessment.puzzled``): it closes puzzled ("Helped me past what? It's the patients who
    are scared not me lol. I'm not sure what you're asking to be honest."), or it is a puzzle
    with next to nothing else ("sorry what?", "I don't know what you're asking", "rate what
    exactly?"). Not one answered after all ("Sorry what? Oh the price, definitely the price",
    "haha wdym counts? like if i can actually hear myself think i get way more done"), nor
    disbelief ("What?? No chance.", "you what? 40 quid for a pan?"), review rv65."""
    sentences = [m for m in _SENTENCE.finditer(answer) if m.group().strip()]
    if not sentences:
        return False
    spans = [s for s in meta_spans(answer) if s.sentence and s.kind == "clarify"]
    last = sentences[-1]
    if len(sentences) > 1 and (
        PUZZLED_LATER.search(answer, max(0, last.start() - 1))
        or any(s.end >= last.end() and s.start <= last.start() + 3 for s in spans)
    ):
        return True
    opened = PUZZLED.match(answer)
    ends = opened.end() if opened else next((s.end for s in spans if s.start <= 3), None)
    if ends is None:
        return False
    rest = answer[ends:]
    if _DISBELIEF.match(rest):
        return False
    # (which was meant, asked, the question's words quoted or not: "think about what, valencia
    # or the app?", "what does that mean, "only where someone else you zone out"? like is 5
    # someone else doing the driving?")
    unquoted = re.sub(r"[\"\u201c][^\"\u201d]*[\"\u201d]\W*", " ", rest)
    if re.fullmatch(r"(?:[^.!?]*\?+\W*)+", unquoted):
        return True
    # (or, first, which of two was meant: "what do you mean 1 to 5, like how much it costs or
    # just does it cost or not? cos everything bar walking costs something", round 287)
    if re.match(r"[^.!?]*\bor\b[^.!?]*\?", unquoted):
        return True
    said = [w for w in re.findall(r"[^\W\d_]+(?:'[a-z]+)?", rest.lower()) if w not in _NO_ANSWER]
    return len(said) < _ANSWERED_AFTER


_ANSWERED_AFTER = 3  # words after a puzzle that answer the question after all
_NO_ANSWER = frozenset(
    "by that it this exactly tbh sorry mate lol haha to be honest there here me really pal "
    "love hun dear pet please again with question the you what mean asking".split()
)
# ... or say it is beyond belief: "What?? No chance.", "you what? 40 quid for a pan?"
_DISBELIEF = re.compile(
    r"\W*(?:no\b|nah\b|never\b|not\s+(?:a\s+chance|likely|on\s+your\s+nelly)|no\s+way|"
    r"[£$€]|(?:\d+|a|one|two|three|four|five|ten|twenty|forty|fifty|hundred)\s*(?:quid|pounds?|grand))",
    re.IGNORECASE,
)


__all__ = [
    "PUZZLED",
    "PUZZLED_LATER",
    "puzzled",
    "interviewers_words",
    "LOAD_OFF",
    "REASONS",
    "MetaSpan",
    "blank_meta",
    "meta_kind",
    "meta_spans",
    "content_idioms",
    "naming_words",
    "without_echo",
    "without_quoted_back",
]
