"""Steering: "can we go back to the charging?", "I'd rather talk about the lock".

INTERVIEWING.md "How people actually answer": the respondent chose the next focus. The
request (``lexicon/en/steer.yaml``, its ``target`` group the thing named) is blanked like any
non-content span; here its target becomes the extraction's ``steer``: the earlier node it
names (``earlier.best_match``: "the charging" is "charge fast"), else a node of this answer,
else a new node made of the words named ("can we talk about the price instead?" makes
"price"). The core's decision takes it (``core.decide.steer``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from interview_cli.core.canonical.meaning import sense_of
from interview_cli.core.models import ExtractedEdge, ExtractedNode
from interview_cli.llm.offline.lexicon import TITLED
from interview_cli.llm.offline.lexicon.phrases import phrase_pattern, phrase_patterns
from interview_cli.llm.offline.reading.clauses import normal, quote, quoted_at, sentence_start
from interview_cli.llm.offline.reading.corrections import (
    Correction,
    find_correction,
    still_permitted,
)
from interview_cli.llm.offline.reading.earlier import (
    Earlier,
    best_match,
    earlier_nodes,
    shared,
    words_of,
)
from interview_cli.llm.offline.reading.labels import make_label
from interview_cli.llm.offline.reading.meta import PUZZLED
from interview_cli.llm.offline.reading.ontology import OntologyView
from interview_cli.llm.offline.reading.stance import stance_of
from interview_cli.llm.protocol import ExtractRequest


@dataclass(frozen=True)
class Steer:
    """What the respondent asked to talk about, and where they named it."""

    target: str
    start: int
    end: int
    asked: bool = False  # a question of theirs about the thing ("is there palm oil in it?")


# What may trail the thing named without naming it: "the price tbh", "the price - it's half".
_TRAILING = re.compile(
    r"\s+(?:-|\u2013|\u2014)\s.*$|"
    # ("the broadband one or not haha": an offer's "or not", round 191)
    # ("I was on about the aquastop thing just then", round 226 said back "the aquastop thing
    # just")
    # ("ask me about the headphones man", round 228 said back "the headphones man"; after a
    # plural only: "the delivery man" is who it was)
    r"(?:\s+(?:tbh|tho|though|mate|dude|bro|(?<=s\s)man|bruv|really|lol|haha|ha|then|"
    r"just\s+(?:then|now)|"
    r"(?:from\s+)?(?:just\s+)?a\s+(?:second|sec|minute|moment)\s+ago|or\s+not|or\s+no|if\s+anything|"
    r"if\s+i'?m\s+honest|"
    # "I'd rather talk about the mower if it's all the same" (round 25)
    r"if\s+it'?s\s+all\s+the\s+same(?:\s+to\s+you)?|if\s+you\s+don'?t\s+mind|"
    # ("I'd rather talk about the bank fraud lady if thats ok": round 232 heard "Sure, back to
    # the bank fraud lady if that's ok.")
    r"if\s+(?:that'?s|thats|it'?s|its)\s+(?:ok|okay|alright|all\s+right|cool|fine)(?:\s+with\s+you)?|"
    r"thing|bit|(?<!good\s)(?<!real\s)(?<!proper\s)stuff|part|from\s+earlier|from\s+before|earlier|before|"
    # "Can we go back to the starting thing a minute?" (round 55 said back "Back to the
    # starting thing a minute.")
    # ("Can we go back to how it looks a wee minute?", dev 3)
    r"(?:for\s+)?a\s+(?:(?:wee|little|quick)\s+)?(?:minute|min|sec|second|moment|mo|tick)|"
    # "the mornings thing i said at the start"
    # ("the money thing I just said", round 74)
    r"(?:that\s+|which\s+)?i\s+(?:just\s+|already\s+)?(?:said|mentioned|told\s+you|talked\s+about)"
    r"(?:\s+about)?"
    r"(?:\s+at\s+the\s+(?:start|beginning)|\s+first)?))+$",
    re.IGNORECASE,
)


_AGO = re.compile(r"\ba\s+(?:second|sec|minute|moment)\s+ago\b", re.IGNORECASE)


# A reason given for the request ends what it names: "can we go back to the broadband thing tho
# cos thats the one that literally ruined my week" (round 83 said back "Sure, the broadband
# thing tho cos that's the one.")
# (or a condition: "Ask me about the battery if you want somethin useful", round 210 asked
# "Back to the battery if you want somethin useful.")
_ITS_REASON = re.compile(
    # ("cause" typed for "'cause": "the flatmate thing tho cause thats actually a big deal",
    # round 267 asked "Back to the flatmate thing tho cause that's.")
    # (not the verb: "the potholes that cause it", the review)
    r"\s+(?:(?:cos|coz|cuz|because|'cause|"
    r"(?<!\bthat\s)(?<!\bwhich\s)(?<!\bwho\s)(?<!\bcan\s)(?<!\bcould\s)(?<!\bmight\s)(?<!\bwill\s)"
    r"cause(?=\s+(?:that|thats|that's|it|its|it's|i|i'm|im|"
    r"they|she|he|we)\b)|since)\s|if\s+(?:you|u|ye)\s+(?:want|wanna|like|need|"
    r"fancy|prefer|have\s+(?:a\s+)?(?:minute|moment|sec|second|time))\b).*$",
    re.IGNORECASE,
)


_WHERE_I_SAID = re.compile(
    r"(?:the\s+|that\s+)?(?:bit|part|thing|point)\s+(?:where|when|about\s+where)\s+(?:i|you)\s+"
    r"(?:said|mentioned|talked\s+about|was\s+saying|brought\s+up)\s+(?:that\s+|about\s+)?|"
    # "what I said about my morning brew" (a dev-8 simulated barista's request went unheard)
    r"what\s+i\s+(?:said|mentioned|was\s+saying|told\s+you)\s+(?:about|of)\s+|"
    r"when\s+i\s+(?:said|mentioned|was\s+saying|told\s+you)\s+(?:that\s+|about\s+)?",
    re.IGNORECASE,
)


# A request that names nothing itself: "I wanted to say something about that", after "Can we
# go back to the packaging thing?" (round 57 took it for the request, and the packaging was
# never asked about).
_POINTING = frozenset({"that", "this", "it", "them", "those", "these", "there"})
# ... what they pointed at, said just before the request in its sentence
_POINTED = re.compile(r"(?:that|this|it)(?:\s+(?:bit|part|thing|one))?", re.IGNORECASE)
# (what they meant to say, not what they would rather not: "I'd rather not talk about my
# partner, can we go back to that?", the review)
_SAID_ABOUT_FIRST = re.compile(
    r"\b(?:was\s+(?:about|going)\s+to|were\s+(?:about|going)\s+to|wanted\s+to|meant\s+to|"
    r"want\s+to|wanna|gonna|was\s+gonna)\s+(?:say|talk|mention|tell\s+you)(?:\s+(?:something|a\s+bit|"
    r"more))?\s+about\s+(?P<what>[^,.;:!?\u2013\u2014]{1,50}?)\s*(?:[,.;:!?]+|\s[-\u2013\u2014])\s*"
    r"(?:(?:so|but|and|anyway)\s+)?(?=(?:can|could|shall)\s+(?:we|i)\b)",
    re.IGNORECASE,
)


def _said_about_before(answer: str, request: int) -> re.Match[str] | None:
    """What they said they were about to say, just before the request starting at
    ``request``."""
    return next(
        (a for a in _SAID_ABOUT_FIRST.finditer(answer) if request - 2 <= a.end() <= request), None
    )


# ... nor a saying: "Back to square one, I had to fill the whole form in again" (a review)
_SAYINGS = frozenset({"square one", "the drawing board", "basics", "reality"})


# The words of another story offered ("Can I tell you about a good one instead?"): what is told
# after it is asked about, not "a good one" (``stressed``); "the bad experience" names one
_ANOTHER_ONE = frozenset(
    "a an the one another other time story experience good better nice nicer different bad "
    "worse positive".split()
)


def _offered(answer: str, target: str, start: int) -> bool:
    """The request names only another story offered (``emphasis/offer``)."""
    offers = phrase_pattern("emphasis/offer").finditer(answer)
    words = set(target.lower().split())
    generic = words <= _ANOTHER_ONE and "experience" not in words
    return generic and any(m.start() <= start < m.end() for m in offers)


@lru_cache(maxsize=1024)
@lru_cache(maxsize=1024)
def find_steer(answer: str) -> Steer | None:
    """The answer's last request to go back to (or talk about) something, or None."""
    found = []
    for pattern in phrase_patterns("steer"):
        for m in pattern.finditer(answer):
            whole = _ITS_REASON.sub("", m.group("target") or "")
            raw = _TRAILING.sub("", whole, count=1)
            said = _WHERE_I_SAID.match(raw)  # "the bit where I said no more cheese on toast"
            start = m.start("target") + (said.end() if said else 0)
            target = raw[said.end() :].strip() if said else raw.strip()
            named = target.lower() not in _POINTING | _SAYINGS
            about = _said_about_before(answer, m.start()) if not named else None
            if about is not None and _POINTED.fullmatch(raw.strip()):
                # "I was about to say about my partner, can we go back to that bit": what they
                # were about to say (round 261 asked about their back instead, twice)
                target, start, named = about.group("what"), about.start("what"), True
            if not (target and named and target.lower() != "what") and _AGO.search(whole):
                # "can we go back to what I said a minute ago": the time is all it names (the
                # review: no request was heard once it was cut)
                target, start, named = whole.strip(), m.start("target"), True
            if target and named and not _offered(answer, target, start):
                asked = "asked" in pattern.groupindex  # (the lexicon marks such questions)
                found.append(Steer(target, start, start + len(target), asked))
    # the last request, where there are two: it says more closely what they meant ("I'd rather
    # talk about the mower. Can we go back to the bit about it being light?", round 25)
    return max(found, key=lambda s: s.start) if found else None


def goes_back_first(answer: str) -> bool:
    """The answer opens by asking to go back to something ("Can we go back to the charging?
    That's a pain because I carry the battery up"): its "that" is what they went back to,
    not the focus held against (round 235's e-bike carer: "That's a pain" was read as "feel
    like I'm doing right" held against)."""
    steer = find_steer(answer)
    return (
        steer is not None
        and _OPENS_ASKING.match(answer) is not None
        and sentence_start(answer, steer.start) == 0
    )


# An answer that opens asking to go back (only a word of lead-in before the request): not an
# answer to the question that asks to go back after it ("It means they trust me, anyway can
# we go back to the charging?", the review)
# (a word or a set phrase: "Sorry to interrupt, can we go back to ...", "Oh sorry I got that
# wrong, it was the train", the second review)
_LEAD_IN = (
    r"\W*(?:(?:ok|okay|sorry|actually|um|erm|oh|ah|right|well|so|but|anyway|hmm|yeah|no|nah|"
    r"look|wait|honestly|just|quickly|hang\s+on(?:\s+a\s+(?:sec|second|minute))?|sorry\s+to\s+"
    r"interrupt|before\s+we\s+move\s+on|just\s+quickly|one\s+(?:sec|thing)|quick\s+one)\W+)*"
)
# (before a correction, only words that put right: "Honestly, it was the comfort, not the
# speed" answers the question, the review)
_CORRECTING_LEAD = (
    r"\W*(?:(?:ok|okay|sorry|actually|um|erm|oh|ah|wait|no|nah|oops|hang\s+on|"
    r"(?:sorry\s+)?my\s+(?:mistake|bad)|i\s+got\s+that\s+wrong|quick\s+correction|"
    r"correction|i\s+tell\s+a\s+lie)\W+)*"
)
_OPENS_ASKING = re.compile(
    # (not a wish: "I'd love to get back to cycling to work", "I want to go back to working
    # from home", the review)
    _LEAD_IN + r"(?:can|could|shall|may|let'?s|let\s+me|i'?d\s+(?:rather|like|sooner)|"
    r"i\s+would|going\s+back|back\s+to|what\s+i\s+(?:really\s+)?want)\b",
    re.IGNORECASE,
)
_OPENS = re.compile(_CORRECTING_LEAD + "$", re.IGNORECASE)


def put_right(answer: str) -> Correction | None:
    """The answer's correction (``find_correction``), unless its frame is part of a request
    to go back ("Actually, can we go back to the bit where I said not taking it for
    granted?" puts nothing right)."""
    correction = find_correction(answer)
    steer = find_steer(answer)
    if correction is None or steer is None:
        return correction
    begins = sentence_start(answer, steer.start)
    asking = begins <= correction.start <= steer.end and bool(
        _GOING_BACK.search(answer, begins, steer.end)
    )
    return None if asking else correction


# (a request to go back or talk about something: "I meant the comfort, not the sound" names
# what they meant, and puts the sound right, the review)
_GOING_BACK = re.compile(r"\bback\b|\btalk", re.IGNORECASE)


def opens_elsewhere(request: ExtractRequest) -> bool:
    """The answer opens by going back to something new or by putting right something other
    than the focus: what follows is no answer to the question asked."""
    return goes_somewhere_new_first(request) or puts_right_first(
        request.answer, request.focus_label
    )


def puts_right_first(answer: str, focus: str | None) -> bool:
    """The answer opens by putting right something said before, not the ``focus`` ("Sorry, I
    said the bus but it was the train actually, the 7.10, always cancelled", asked why being
    on time matters): what follows tells of that, no answer to the why asked (round 235 made
    "always cancelled" a value above "being on time"). The focus put right is the focus said
    again ("it weren't March, it was April they fitted it"); a correction said after the
    answer is none ("... and it was 25 quid not 20 btw", the review)."""
    correction = put_right(answer)
    return (
        correction is not None
        and not correction.said_back
        and _OPENS.match(answer[: correction.start]) is not None
        and not shared(words_of(correction.said), words_of(focus or ""))
    )


def goes_somewhere_new_first(request: ExtractRequest) -> bool:
    """The answer opens by going back to something not said before (``goes_back_first``, and
    no earlier node is it): what follows tells of that, no answer to the why asked, so it is
    no rung above the focus (round 235: "carry the battery up" was typed a value above "feel
    like I'm doing right", and linked from it). Going back to an earlier node, what follows
    climbs from that node instead (``relinked_from_steer``)."""
    steer = find_steer(request.answer)
    return (
        steer is not None
        and goes_back_first(request.answer)
        and gone_back_to(steer, request) is None
        # (said to be something said before, in other words: "Can we go back to what I said
        # about keeping costs down? ..." climbs from it, whatever its words; the held-out
        # simulated respondents lost a rung a request without it)
        and _SAID_BEFORE.search(request.answer, 0, steer.start) is None
    )


_SAID_BEFORE = re.compile(
    r"\b(?:what|where|when|the\s+bit\s+(?:where|about))\s+i\s+(?:said|mentioned|was\s+saying)\b",
    re.IGNORECASE,
)


def stressed(answer: str, nodes: list[ExtractedNode]) -> ExtractedNode | str | None:
    """What the respondent says matters most ("the bit that matters is the knee", "the knee,
    that's the real reason"): the node of this answer said first after a frame of
    ``emphasis/ahead`` in its sentence, else the last said before one of ``emphasis/behind``
    (first, the first node told after another story offered, ``emphasis/offer``);
    when this answer made no node there (it was said before), the words there."""
    said = sorted(((quoted_at(answer, n), n) for n in nodes), key=lambda p: p[0])
    for pattern in phrase_patterns("emphasis/offer"):
        # another story offered and told: its first node, in whatever sentence it starts
        for m in pattern.finditer(answer):
            told = next((n for at, n in said if at >= m.end()), None)
            if told is not None:
                return told
    for pattern in (*phrase_patterns("emphasis/ahead"), *phrase_patterns("emphasis/comes_to")):
        for m in pattern.finditer(answer):
            stop = _SENTENCE_END.search(answer, m.end())
            end = stop.start() if stop else len(answer)
            # (a quote may hold the frame before it: "ok first thing i looked at was the 12g
            # protein" is the quote of "12g protein")
            after = [n for at, n in said if at < end and at + len(n.quote) > m.end()]
            if after and _OPENS_A_CONDITION.match(answer, m.end()):
                # what comes of a condition, not the condition: "it's more that when I'm
                # wrecked | I'm short with the kids" (round 239); nothing when only the
                # condition made a node (the review)
                return after[1] if len(after) > 1 else None
            return after[0] if after else answer[m.end() : end]
    for pattern in phrase_patterns("emphasis/behind"):
        for m in pattern.finditer(answer):
            # (in its sentence: "handover and a stale biscuit haha. the bike bit is what
            # matters" stresses the bike, a word of the topic that made no node, not the
            # biscuit, round 120's next question)
            sentence = sentence_start(answer, m.start())
            if not words_of(answer[sentence : m.start()]):
                # ("But unlimited calls to my mum in Spain. That's the main thing.": a frame
                # opening its sentence is said of the one before)
                sentence = sentence_start(answer, max(sentence - 1, 0))
            before = [n for at, n in said if sentence <= at < m.start()]
            if before:
                return before[-1]
            begins = max(answer.rfind(c, 0, m.start()) for c in ".!?,") + 1
            return answer[begins : m.start()]
    return None


_OPENS_A_CONDITION = re.compile(r"\W*(?:if|when|whenever|once)\b", re.IGNORECASE)


def what_it_came_to(
    request: ExtractRequest,
    view: OntologyView,
    steer: str | None,
    nodes: list[ExtractedNode],
    edges: list[ExtractedEdge],
    *,
    deepen: bool,
) -> tuple[list[ExtractedNode], list[ExtractedEdge]]:
    """The answer to a why that says what it comes to ("So it's about not letting people
    down", ``stressed``), with no link of the answer reaching it: what the focus leads to,
    linked from it and typed above it (round 240's close read "reliability" back as mattering
    because of "I do locum shifts", and the point was an attribute). ``deepen``: the question
    asked why."""
    focus, focus_type = request.focus_label, request.focus_type
    if not steer or not focus or not focus_type or find_steer(request.answer) is not None:
        return nodes, edges
    if PUZZLED.match(request.answer) or not deepen:
        return nodes, edges  # (puzzled by the question: what they meant answers no why of it)
    node = next((n for n in nodes if normal(n.label) == normal(steer)), None)
    if node is None or normal(steer) == normal(focus):
        return nodes, edges
    said = quoted_at(request.answer, node)
    if not _A_DOING.search(node.label) or stance_of(node.quote or node.label) < 0:
        return nodes, edges  # (a thing, or a complaint: "it's more that the app crashes")
    comes_to = [
        m for m in phrase_pattern("emphasis/comes_to").finditer(request.answer) if m.end() <= said
    ]
    if not comes_to or sentence_start(request.answer, said) > comes_to[-1].start():
        # (said to be what it comes to, in its sentence: not "the other big thing is my
        # stomach", another thing)
        return nodes, edges
    if any(normal(e.target) == normal(steer) or normal(e.source) == normal(steer) for e in edges):
        return nodes, edges  # (linked already, either way: the answer said how)
    focus_level, level = view.level(focus_type), view.level(node.node_type)
    if focus_level is None or level is None:
        return nodes, edges
    kind = node.node_type
    if level <= focus_level:
        kind = view.choose_type(
            category=None, target_level=focus_level + 1, previous_type=focus_type, direction="up"
        )
    relation = view.relation(focus_type, kind)
    if relation is None or (view.level(kind) or 0) <= focus_level:
        return nodes, edges
    placed = node.model_copy(update={"node_type": kind})
    link = ExtractedEdge(source=focus, target=node.label, relation=relation, quote=node.quote)
    return [placed if n is node else n for n in nodes], [*edges, link]


# What a point an answer comes to says: a doing or a state of theirs ("not letting people
# down", "being there for them"), not a thing ("the bass", "the freezer", "the Tudors", the
# review)
_A_DOING = re.compile(
    r"\b(?:\w+ing|not|no|never|be|feel|feels|keep|get|have|make|can|can't)\b", re.IGNORECASE
)


# (no dot between two digits: "£1.80 a carton")
_SENTENCE_END = re.compile(r"[!?]|\.(?!\d)")


# a person asked back to by pronoun, and the names they may stand for: a word written with a
# capital mid-sentence ("a woman called Shona")
_PERSONS = frozenset({"her", "him"})


def _person_named(steer: Steer, request: ExtractRequest) -> Steer:
    """``steer`` with a person asked back to by pronoun named: "It ended with Shona, like I
    said. Can we go back to her actually?" is Shona (round 43 went on to "general customer
    services"). The last name said before it in this answer, else in the newest earlier
    quote that has one; else ``steer`` as it was."""
    if steer.target.lower() not in _PERSONS:
        return steer
    # "Can we go back to her though, my mum I mean": who, said right after
    said = _APPOSITIVE.match(request.answer, steer.end)
    if said is not None:
        return Steer(said.group("who"), said.start("who"), said.end("who"))
    before = request.answer[: steer.start]
    names = [m for m in TITLED.finditer(before) if m.group(0) not in _NO_NAMES]
    if names:
        return Steer(names[-1].group(0), names[-1].start(), names[-1].end())
    for earlier in earlier_nodes(request):
        names = [m for m in TITLED.finditer(earlier.quote) if m.group(0) not in _NO_NAMES]
        if names:
            return Steer(names[-1].group(0), steer.start, steer.end)
    return steer


def _not_whom_they_ask(steer: Steer, request: ExtractRequest) -> Steer:
    """``steer`` without a "man" that calls the interviewer: "Ask me about the coffee man" is
    the coffee (round 195 said "Back to the coffee man."), where what is left is the study's
    topic or said before; "the delivery man" stays who it was (from the review)."""
    words = steer.target.split()
    if len(words) < 2 or words[-1].lower() not in ("man", "pal"):
        return steer
    rest = " ".join(words[:-1])
    said = words_of(rest)
    known = words_of(request.concept.name) | {
        w for n in earlier_nodes(request) for w in words_of(n.label)
    }
    if not said or not said <= known:
        return steer
    return Steer(rest, steer.start, steer.start + len(rest))


_NO_NAMES = frozenset(
    """I The My And But So Then It Its That This Monday Tuesday Wednesday Thursday Friday
    Saturday Sunday January February March April May June July August September October
    November December Christmas Easter""".split()
)
_APPOSITIVE = re.compile(
    r"(?:\s+(?:though|tho|actually|again|please))?\s*,\s*(?P<who>(?:the|my|our|that)\s+[\w'-]+"
    r"(?:\s+(?!i\b)[\w'-]+)?)",
    re.IGNORECASE,
)


def gone_back_to(steer: Steer, request: ExtractRequest) -> Earlier | None:
    """The earlier node a request to go back names, where it was first said: of two that name
    it alike, the older ("can I go back to the rear-facing thing?" is the extended rear-facing
    seat of the first answer, not the rear-facing that spreads the force said since); and by a
    word of its label ("can we go back to the noise cancelling thing" went back to "sleep
    during the day", whose quote said "noise", round 31), else, when the request is one word,
    the oldest that names its idea (``core.canonical.meaning``'s senses). None: nothing said
    before."""
    words = words_of(steer.target)
    earlier = earlier_nodes(request)[::-1]
    named = [c for c in earlier if shared(words, words_of(c.label))]
    if named:
        return best_match(steer.target, named)
    # else by the idea its word names: "can we go back to the noise thing" is "quiet" (round
    # 112 made a node "noise" of it, beside the "quiet" of the first answer)
    if len(words) != 1:
        return None
    senses = {sense_of(w) for w in words} - {None}
    alike = [c for c in earlier if senses & {sense_of(w) for w in words_of(c.label)}]
    return alike[0] if alike else None


def _back_on_topic(steer: Steer, request: ExtractRequest) -> bool:
    """The request goes back to nothing but the study's own topic ("the phone stuff" in a
    study of phone plans)."""
    words = words_of(steer.target)
    return bool(words) and words <= words_of(request.concept.name)


# A request to go back to what was just said: "the substitutions 100%. can I go back to that
# actually cos nobody's asked" (round 283 asked how she felt once it was all over)
_BACK_TO_THAT = re.compile(
    # (not "can I come back to that?", put off, review rv66)
    r"\b(?:can|could|shall|may)\s+(?:we|i)\s+(?:just\s+)?(?:go|get)\s+back\s+to\s+(?:that|this|it)"
    r"(?:\s+(?:one|bit|thing|part))?\b(?!\s+(?:about|where|when|you|i)\b)",
    re.IGNORECASE,
)


def _back_to_what_was_just_said(answer: str, nodes: list[ExtractedNode]) -> str | None:
    """The node said just before a request to go back to "that", in the same answer."""
    pointed = _BACK_TO_THAT.search(answer)
    if pointed is None:
        return None
    before = [n for n in nodes if 0 <= quoted_at(answer, n) < pointed.start()]
    return before[-1].label if before else None


def steer_to(
    request: ExtractRequest, nodes: list[ExtractedNode], view: OntologyView
) -> tuple[str | None, ExtractedNode | None]:
    """The label the answer steers to and, when it names nothing said before, the new node
    its words make (None, None: no request, or one that names nothing). Without a request,
    the node it says matters most (``stressed``) is steered to."""
    steer = find_steer(request.answer)
    if steer is None and (just_said := _back_to_what_was_just_said(request.answer, nodes)):
        return just_said, None
    if steer is None:
        chosen = stressed(request.answer, nodes)
        if isinstance(chosen, str):  # "the important word was trust", said before
            earlier = best_match(chosen, earlier_nodes(request)) if words_of(chosen) else None
            return (earlier.label if earlier is not None else None), None
        return (chosen.label if chosen is not None else None), None
    steer = _not_whom_they_ask(_person_named(steer, request), request)
    if _back_on_topic(steer, request):
        # back to the study itself, away from where the questions had wandered: what they say
        # matters there is the focus, else no steer ("Can we go back to the phone stuff? The
        # data thing is honestly the bigger deal", round 262 was asked "What would you like to
        # say about that?" of a new node "phone")
        chosen = stressed(request.answer, nodes)
        if isinstance(chosen, str):
            earlier = best_match(chosen, earlier_nodes(request)) if words_of(chosen) else None
            return (earlier.label if earlier is not None else None), None
        return (chosen.label if chosen is not None else None), None
    earlier = gone_back_to(steer, request)
    if earlier is not None:
        return earlier.label, None
    words = words_of(steer.target)
    # a node of this answer that says most of what was named, not one word of it ("the
    # feeling like a rubbish owner thing" is not "ill all the time, felt")
    mine = next(
        (n for n in nodes if words and 2 * shared(words, words_of(n.label)) >= len(words)), None
    )
    if mine is not None:
        return mine.label, None
    label = make_label(steer.target, None, None)
    if not label or not words or len(words) < len(words_of(label)):
        return None, None  # "your earlier question": nothing said before, nothing new either
    node = ExtractedNode(
        label=label,
        node_type=view.choose_type(category="concrete", target_level=float(view.min_level)),
        quote=quote(request.answer, steer.start, steer.end),
        confidence=0.6,
    )
    taken = {normal(n.label) for n in nodes}
    return label, (None if normal(label) in taken else node)


def relinked_from_steer(
    request: ExtractRequest,
    steer: str | None,
    nodes: list[ExtractedNode],
    edges: list[ExtractedEdge],
    *,
    made: bool = False,
) -> list[ExtractedEdge]:
    """The links with what this answer placed above the question's focus placed above the
    earlier node it asked to go back to instead: after "can we go back to not taking it for
    granted?", "being around for the wee ones" says what THAT leads to, not what the focus
    asked about does. ``made``: the request named something no node held, and its words are
    the new node ``steer`` ("Can we go back to the noise thing, thats the big one for me cos
    the kids rooms are right above the kitchen" had the money asked about lead to the kids'
    rooms, and the closing read-back said so)."""
    focus = request.focus_label
    if not steer or not focus or normal(steer) == normal(focus):
        return edges
    # only what is said after the request: what came before it answered the question
    # (round 22: "I meant she wriggles out of her straps. ... Can we go back to the boot?"
    # had the boot lead to the straps)
    asked = find_steer(request.answer)
    after = asked.start if asked is not None else 0
    later = {normal(n.label) for n in nodes if quoted_at(request.answer, n) >= after}
    if asked is not None:
        # nor is it below the focus ("can we go back to the weight thing? the vet was quite
        # firm about it": a typed interview's closing check read '"the vet was quite firm about
        # it" matters to you because of "it's money down the drain"')
        edges = [e for e in edges if not _into_focus(e, focus, later)]
    if normal(steer) in {normal(n.label) for n in nodes}:
        return edges  # named anew in this answer: its own links stand
    if not made and normal(steer) not in {normal(label) for label in request.existing_labels}:
        return edges
    return [
        e.model_copy(update={"source": steer})
        if normal(e.source) == normal(focus) and normal(e.target) in later
        else e
        for e in edges
    ]


def _into_focus(edge: ExtractedEdge, focus: str, later: set[str]) -> bool:
    """``edge`` leads from a node said after the request to go back up to the focus."""
    return normal(edge.target) == normal(focus) and normal(edge.source) in later


def steered_edges(
    request: ExtractRequest,
    steer: str | None,
    new: ExtractedNode | None,
    nodes: list[ExtractedNode],
    edges: list[ExtractedEdge],
) -> list[ExtractedEdge]:
    """The answer's links, the ontology's permitted ones, with what was said after a request
    to go back to ``steer`` climbing from it (``relinked_from_steer``); from ``new``, the node
    the request's words made, only where the ontology lets every link climb from it. A request
    to go back to the study itself leaves the focus all the same:
    nothing said is linked to it ("Can we go back to the gym stuff? like the price is actually
    a big thing": round 273 took the price as said of the focus, and asked about the focus
    again)."""
    focus = normal(request.focus_label or "")
    asked = find_steer(request.answer) if steer is None and focus else None
    if asked is not None and _back_on_topic(asked, request):
        # (only back to the study itself: "Going back to your question, it lets me actually
        # focus at work" answers the focus after all, review rv63)
        edges = [e for e in edges if focus not in (normal(e.source), normal(e.target))]
    edges = still_permitted(request, nodes, relinked_from_steer(request, steer, nodes, edges))
    if new is None:
        return edges
    relinked = relinked_from_steer(request, steer, nodes, edges, made=True)
    kept = still_permitted(request, [*nodes, new], relinked)
    return kept if len(kept) == len(edges) else edges


__all__ = [
    "Steer",
    "find_steer",
    "goes_back_first",
    "goes_somewhere_new_first",
    "opens_elsewhere",
    "put_right",
    "puts_right_first",
    "gone_back_to",
    "relinked_from_steer",
    "steer_to",
    "steered_edges",
    "what_it_came_to",
]
