"""Retractions: "the brakes thing was a joke really", "that has nothing to do with the coffee".

INTERVIEWING.md "How people actually answer": jokes, asides and backstory are rapport, not
content; when the reader took one for content and asked about it, the respondent says so.
A moderator takes it back and moves on; a junk question asked twice costs more rapport than a
missed rung. The phrases (``lexicon/en/retraction.yaml``, group ``said`` what is taken back)
are blanked like any non-content span; here they name the node the answer disowns:

- what they named ("the brakes thing"): the earlier concept sharing the most words with it
  (``earlier.best_match``), else the question's focus (a reply takes back what it was asked);
- nothing named ("that was a joke", "I was only joking", "it's not a feature"): what the
  question was about, its focus;
- "what do you mean by 'good grief'?": their own words quoted back make no sense to them;
- pointing at what the answer has just said ("my sister and her pod machine, that has nothing
  to do with it, forget I said that"): this answer's nodes before it, in its sentence, go.

The extraction carries the labels as ``retracted``; the graph update disowns the nodes
(``KnowledgeGraph.disown``), so they are not asked about or read back until said again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from interview_cli.llm.offline.lexicon.phrases import phrase_pattern, phrase_patterns
from interview_cli.llm.offline.reading.clauses import blank, sentence_start
from interview_cli.llm.offline.reading.earlier import (
    Earlier,
    best_match,
    earlier_nodes,
    match_score,
    shared,
    words_of,
)
from interview_cli.llm.offline.reading.meta import PUZZLED
from interview_cli.llm.protocol import ExtractRequest

# Words that point without naming: "this isn't relevant" judges the question.
_POINTING = frozenset("this that it these those which what".split())
_NAMING = re.compile(r"[a-z]{3,}", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?]+")


@dataclass
class TakenBack:
    """What an answer takes back: earlier nodes by label, and where it takes back what it
    had just said itself ("my sister and her pod machine, that has nothing to do with it":
    the nodes quoted before each position, in its sentence, go)."""

    labels: list[str] = field(default_factory=list)
    just_said: list[tuple[int, int]] = field(default_factory=list)  # (sentence start, at)


def taken_back(request: ExtractRequest) -> TakenBack:
    """What the answer takes back, in the order it does."""
    found = TakenBack()
    candidates = earlier_nodes(request)
    answer = request.answer
    found.just_said.extend([*_joke_then_answer(answer), *_reassured(answer)])
    denied, spans = _denied_reasons(request, candidates)
    found.labels.extend(denied)
    found.just_said.extend(spans)  # ("not because dairy-free wasnt a choice" is no node)
    found.labels.extend(x for x in _recap_denied(request, candidates) if x not in found.labels)
    _off_topic(request, found)
    for pattern in phrase_patterns("retraction"):
        for match in pattern.finditer(answer):
            _take_back(request, found, candidates, match)
    return found


def _take_back(
    request: ExtractRequest, found: TakenBack, candidates: list[Earlier], match: re.Match[str]
) -> None:
    """What one retraction takes back, added to ``found``."""
    answer = request.answer
    exact = (match.groupdict().get("exact") or "").strip()
    if exact:
        # "The fingerprint, not the fingers": only a node that is all of what they
        # name is taken back, never the focus for a word it shares ("not walking lol,
        # walking OUT" keeps "them to feel smart walking out")
        named = _exactly_named(request, exact, candidates, match)
        found.labels.extend(label for label in named if label not in found.labels)
        return
    said = _said(match)
    pointing = not said or not words_of(said) - _POINTING
    begins = sentence_start(answer, match.start())
    if "of_last" in match.groupdict() and not _after_the_focus(request, begins):
        return  # said of the sentence before, which was not about the focus
    if "all" in match.groupdict() and match.start() > 0:
        found.just_said.append((0, match.start()))  # the whole story before it
        return
    if pointing and _points_back(request, found, begins, match.start()):
        return
    if pointing and _JOKING.search(match.group(0)):
        _joke_said_again(request, found, begins)
    if said and pointing:
        return  # "this isn't relevant": the question judged, nothing taken back
    if _offers_a_reading(match, said, answer):
        return
    topic = said and words_of(said) <= words_of(request.concept.name)
    every = "every" in match.groupdict()  # all that names it was the background
    named = _all_named(said, candidates, every=every) if said and not topic else []
    if said and _quoted(answer, match.start("said")):
        # their words quoted back ("'ask me about the boots' isnt a thing"): a node
        # that is most of the quote, not one that shares a word with it ("boots")
        named = [
            n
            for n in _wholly_named(said, candidates)
            if len(_said_words(n)) >= len(_said_words(said))
        ]
    if not any(_said_words(n) <= _said_words(said) for n in named):
        named = _named_in_quotes(request, said, candidates) or named
    # what they named is no earlier node but is said like what the question asked
    # about ("the dentist thing" for "dental receptionist"), or is the topic itself
    # ("nothing to do with the mower"): what they take back is the focus. A name that
    # is neither takes nothing back ("forget the Mrs Pritchard bit", "forget the
    # biscuits bit" of a joke the reader had already let go)
    focus = request.focus_label or ""
    about_focus = topic or not said or _alike(words_of(said), words_of(focus))
    labels = named or ([focus] if focus and about_focus else [])
    if said and focus in labels and _said_it_before(answer, begins, focus, said, match):
        # "She affects me by screaming. ... Forget the Miso bit, that was a joke": what
        # this answer said of the focus before taking it back goes with it
        found.just_said.append((0, match.start()))
    found.labels.extend(label for label in labels if label not in found.labels)


def _after_the_focus(request: ExtractRequest, begins: int) -> bool:
    """The sentence before ``begins`` was about the question's focus (it says a word of it), or
    the answer named nothing before: "It's just a salary sacrifice thing, the paperwork took a
    fortnight, that's it. Not really the interesting bit." """
    focus = words_of(request.focus_label or "")
    before = request.answer[: max(begins, 0)]
    last = before[sentence_start(before, max(len(before.rstrip()) - 1, 0)) :]
    # (said of it by a pronoun: "Meh, it puts a few pennies away each week. Not really the
    # main thing tbh", from the review)
    of_it = _OF_IT.match(last)
    return not words_of(before) or bool(of_it) or bool(shared(words_of(last), focus))


_OF_IT = re.compile(
    r"\W*(?:(?:meh|well|oh|erm|um|yeah|ha)\W+)*(?:it|it's|its|that|that's|thats)\b", re.I
)


def _said_it_before(answer: str, begins: int, focus: str, said: str, match: re.Match[str]) -> bool:
    """The answer said the focus it takes back before the sentence taking it back: by its
    words, or by a pronoun opening the answer ("She affects me by screaming"); not a point of
    its own ("it's about staying sharp all night ... The pay thing were just a side comment"
    keeps its point, round 164), nor a question of what it meant."""
    if begins <= 0 or _PUZZLED.match(match.group(0)):
        return False
    before = words_of(answer[:begins])
    return bool(shared(before, words_of(focus) | words_of(said)) or _OF_THE_FOCUS.match(answer))


# An answer that opens on who was asked about, by a pronoun: "She affects me by screaming" (not
# "It's about it lasting years really ... The price thing was just a side comment": its point)
_OF_THE_FOCUS = re.compile(r"\W*(?:she|he|they|her|his|their)\b", re.IGNORECASE)


def _said(match: re.Match[str]) -> str:
    """What a retraction names: its ``said``, or nothing (the focus) when a pattern named
    ``of_focus`` says it by a pronoun ("Dark car park? It let me do nothing haha")."""
    said = (match.groupdict().get("said") or "").strip()
    return "" if "of_focus" in match.groupdict() and not words_of(said) - _POINTING else said


# What the question was about, said to be about something else than the study: "that's about
# night shifts not coffee though" (round 92 asked about the pay twice more). Read here, not in
# the lexicon: only when what it is not about is the study's topic ("it's about the price not
# the taste" is a point), and only of what was asked ("that's"): "For me it's about the price,
# not the milk" says what matters (from the review)
_NOT_ABOUT = re.compile(
    r"\b(?:that'?s|thats|that\s+is)\s+(?:more\s+|really\s+|just\s+|all\s+)?"
    r"(?:about|to\s+do\s+with)\s+[^,.;!?]{1,30}?,?\s+not\s+(?:about\s+)?(?:the\s+|my\s+)?"
    r"(?P<topic>[^,.;!?\s]+(?:\s+(?!(?:though|tho|really|tbh|mate)\b)[^,.;!?\s]+)?)"
    r"(?:\s+(?:though|tho|really|tbh|mate))?(?=\s*(?:[,.;!?]|$))",
    re.IGNORECASE,
)


# "but thats not really a coffee thing lol", of what was asked (round 103 asked about the
# keyboard twice): what it said of the focus is no node either
_NOT_A_TOPIC_THING = re.compile(
    r"\b(?:but\s+)?(?:that'?s|thats|that\s+is|it'?s|its)\s+not\s+(?:really\s+|actually\s+|"
    r"exactly\s+)?(?:a|an)\s+(?P<topic>[\w-]+(?:\s+[\w-]+)?)\s+(?:thing|question|issue|topic)"
    r"(?:\s+(?:lol|haha|tho|though|really|tbh|mate))?(?=\s*(?:[,.;!?]|$))",
    re.IGNORECASE,
)


# The talk said to have left the topic: "anyway i thought this was about dog food" (round 244
# asked on about his working hours), said of this talk, not of how they once saw it ("When I
# started I thought it was about the bike. Turns out ...", the review) ...
_THOUGHT_ABOUT = re.compile(
    r"\bi\s+thought\s+(?:this(?:\s+(?:survey|interview|chat|study|research))?|we|you)\s+"
    r"(?:is|was|were|are|was\s+asking)\s+(?:all\s+)?(?:meant\s+to\s+be\s+|supposed\s+to\s+be\s+|"
    r"going\s+to\s+be\s+)?(?:all\s+)?(?:about|on|talking\s+about|asking\s+about)\s+"
    r"(?:the\s+|my\s+|our\s+)?(?P<topic>[\w-]+(?:\s+[\w-]+)?)"
    r"(?:\s+(?:though|tho|really|tbh|mate|bro|lol|haha|now))*(?=\s*(?:[,.;!?]|$))",
    re.IGNORECASE,
)
# ... or, after the question was not followed, said not to be about the topic: "Sorry what do
# you mean, why he sleep? He works late too, warehouse. Is not really about the bike shop." (the
# question on her husband's working late was asked next); not the value beyond the product
# ("It's the only time we're all in one room, phones away. It's not really about the cooking.",
# the review)
_NOT_REALLY_ABOUT = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:(?:but|and|so|sorry|well|anyway)\W+)?(?:(?:it|this|that)(?:'?s|\s+is)|is)\s+"
    r"not\s+really\s+about\s+(?:the\s+|my\s+|our\s+)?(?P<topic>[\w-]+(?:\s+[\w-]+)?)"
    r"(?:\s+(?:though|tho|really|tbh|mate|bro|lol|haha))*(?=\s*(?:[.!?]|$))",
    re.IGNORECASE,
)


def _off_topic(request: ExtractRequest, found: TakenBack) -> None:
    """The focus taken back, and the words saying so no node, when the answer says the focus
    is about something else than the study's topic."""
    topic = words_of(request.concept.name)
    for match in [
        *_NOT_ABOUT.finditer(request.answer),
        *_NOT_A_TOPIC_THING.finditer(request.answer),
        *_THOUGHT_ABOUT.finditer(request.answer),
        *_NOT_REALLY_ABOUT.finditer(request.answer),
    ]:
        said = words_of(match.group("topic"))
        if not said or not said <= topic:
            continue
        if match.re is _NOT_REALLY_ABOUT and not PUZZLED.match(request.answer):
            continue  # (only after the question was not followed: the value beyond it is kept)
        # (said of what was asked, all that went before it is about that: "its the best £120
        # ive ever spent ... but thats not really a coffee thing")
        # (only where it closes the answer: "it's not an oat milk thing, any plant milk would do"
        # says what the point is, from the review)
        closes = not re.search(r"[a-z]{3,}", request.answer[match.end() :], re.IGNORECASE)
        whole = (match.re is _NOT_A_TOPIC_THING and bool(request.focus_label) and closes) or (
            match.re in (_THOUGHT_ABOUT, _NOT_REALLY_ABOUT)
        )
        found.just_said.append((0 if whole else match.start(), match.end()))
        focus = request.focus_label or ""
        if focus and focus not in found.labels:
            found.labels.append(focus)


# One of the recap's quotes said by its place not to be meant: "that middle one isnt something
# I meant", "the first one is not what I said" (round 59 kept the middle one in the summary)
_BY_PLACE = re.compile(
    r"\b(?:that|the)\s+(?P<place>first|middle|second|third|last)\s+(?:one|bit|thing)\s+"
    r"(?:is\s*n'?t|isnt|is\s+not|was\s*n'?t|wasnt|was\s+not)\s+(?:something|anything|what)\s+i\s+"
    r"(?:meant|said|care\s+about)\b",
    re.IGNORECASE,
)
_PLACES = {"first": 0, "second": 1, "middle": 1, "third": 2, "last": -1}
_QUOTE = re.compile(r"\"([^\"]{1,80})\"")


def _named_in_quotes(request: ExtractRequest, said: str, candidates: list[Earlier]) -> list[str]:
    """The earlier concepts of the question's quotes that share a word with ``said``: what a
    dismissal names no concept wholly of takes back when the question quoted them ("Phone
    thing is not important" of a check-back that read "I open chat on my phone" took back the
    lesson "should phone first", round 178; "the chat bot thing" still takes back "chat bot")."""
    words = words_of(said)
    labels: list[str] = []
    for quoted in _QUOTE.findall(request.question) if words else ():
        named = best_match(quoted, candidates, whole=True) if words & words_of(quoted) else None
        if named is not None and named.label not in labels:
            labels.append(named.label)
    return labels


def _recap_denied(request: ExtractRequest, candidates: list[Earlier]) -> list[str]:
    """The earlier concepts the recap quoted that the answer says, by their place, it did
    not mean."""
    quoted = _QUOTE.findall(request.question)
    denied: list[str] = []
    for match in _BY_PLACE.finditer(request.answer) if len(quoted) >= 2 else ():
        place = _PLACES[match.group("place").lower()]
        if place >= len(quoted):
            continue
        named = best_match(quoted[place], candidates, whole=True)
        if named is not None and named.label not in denied:
            denied.append(named.label)
    return denied


# The check-back's read-back: '"A" matters to you because (of) "B"' (asking/closing.py)
_READ_BACK = re.compile(r"because\s+(?:of\s+)?\"([^\"]{1,80})\"")


def _denied_reasons(
    request: ExtractRequest, candidates: list[Earlier]
) -> tuple[list[str], list[tuple[int, int]]]:
    """The reasons read back by the check-back that the answer says are not ones ("not
    because dairy-free wasnt a choice", ``lexicon/en/check_back.yaml``): the read-back node
    the denial names most of, and where the denial names it."""
    read_back = _READ_BACK.findall(request.question)
    denied: list[str] = []
    spans: list[tuple[int, int]] = []
    for pattern in phrase_patterns("check_back") if read_back else ():
        for match in pattern.finditer(request.answer):
            named_as = match.groupdict()
            # a reason denied, or any item read back called wrong
            pool = read_back if "said" in named_as else _QUOTE.findall(request.question)
            said = words_of(named_as.get("said") or named_as.get("item") or "")
            for quoted in pool:
                own = words_of(quoted)
                if own and said and 2 * shared(said, own) >= min(len(said), len(own)):
                    named = best_match(quoted, candidates, whole=True)
                    if named is not None and named.label not in denied:
                        denied.append(named.label)
                        # (its whole clause: "my whole life isnt on there because of TikTok")
                        spans.append((_clause_start(request.answer, match.start()), match.end()))
    return denied, spans


def _clause_start(answer: str, at: int) -> int:
    """Where the clause holding ``at`` starts, a "no" before it included ("But no, the
    portions thing isnt because ...": round 66's summary led with "no the portions thing")."""
    begins = max(answer.rfind(c, 0, at) for c in ",.;!?")
    before = max(answer.rfind(c, 0, max(begins, 0)) for c in ",.;!?")
    if begins > 0 and _A_NO.fullmatch(answer, before + 1, begins):
        return before + 1
    return begins + 1


_A_NO = re.compile(r"\s*(?:(?:but|and|so)\s+)?(?:no|nah|nope|naw)\s*", re.IGNORECASE)


# "Grey hairs mostly haha. Nah, the Sharan gives us room": a sentence that laughs (the laughs
# of ``lexicon/en/doubt/laugh.yaml``), then one that says "nah" or "seriously": the first was
# the joke.
_NOW_SERIOUSLY = re.compile(
    r"(?:nah|naw|no|(?:but\s+)?seriously(?:\s+though)?|joking\s+aside|in\s+all\s+seriousness)\b",
    re.IGNORECASE,
)


# ... said so outright: "ha catch yourself on, the wee one screamin is just tuesday in our
# house. no but seriously the point is ..." (round 160 asked "You mentioned your house.")
# (not "seriously" alone, nor "no, seriously", which stress what came before: "They changed my
# life on the commute. No, seriously, I actually arrive calm now.")
_SERIOUSLY_NOW = re.compile(
    r"(?:(?:no|nah|naw|ok|okay)\W+)?(?:but\s+seriously|joking\s+aside|in\s+all\s+seriousness|"
    r"on\s+a\s+serious\s+note)\b",
    re.IGNORECASE,
)


# ... or called one in a sentence of its own: "Ye're as bad as the chat support now eh! Joke."
# (round 227 asked what happened)
_CALLED_A_JOKE = re.compile(
    r"(?:(?:only|just)\s+)?(?:joke|joking|jokes|kidding|jk)\b\W*(?:[.!?]|$)", re.IGNORECASE
)
# ... a bare "Joke." only of what was said to the interviewer: "The price went up and they
# didn't even tell me. Joke." calls the firm a joke (the review)
_ONLY_JOKING = re.compile(r"(?:(?:only|just)\s+)?(?:joking|kidding|jk)\b", re.IGNORECASE)
# (said of the interviewer: "Ye're as bad as the chat support now eh!"; not "You try ringing
# them on a Saturday!", "can you believe it!", the review)
_TO_YOU = re.compile(r"\b(?:you're|ye're|youre|you\s+are|ye\s+are)\b", re.IGNORECASE)
_TURNED_SERIOUS = re.compile(
    r"(?:(?:no|nah|naw)\s*,?\s*)?(?:serious(?:ly)?|joking\s+aside)\s*,|(?:nah|naw)\b",
    re.IGNORECASE,
)


def _joke_then_answer(answer: str) -> list[tuple[int, int]]:
    """The sentences that laughed just before one that turns serious, or that one says was
    not serious, as (start, end)."""
    spans = []
    starts = [0, *(m.end() for m in _SENTENCE_END.finditer(answer))]
    for i, (before, start) in enumerate(zip(starts, starts[1:], strict=False)):
        after = answer[start:].lstrip()
        # (a laugh said as a sentence of its own laughs at the one before: "Sleep! Ha. No
        # seriously, ..." - round 173 was asked what sleeping helped him get done)
        alone = i > 0 and _only_a_laugh(answer[before:start])
        # (or laughed as it opens: "Ha! Lets me get under Eirlys's feet all afternoon. No,
        # serious, ..." - round 227 asked why that mattered)
        opened = i > 0 and _only_a_laugh(answer[starts[i - 1] : before])
        laughed = (alone or _ends_laughing(answer[before:start])) and _NOW_SERIOUSLY.match(after)
        # (laughed into, the turn must say so: not "Haha. Unlimited data. No more running out",
        # "Ha. The price. Serious money for boots", the review)
        laughed = laughed or (opened and _TURNED_SERIOUS.match(after))
        # (to the interviewer, and exclaimed: not a generic "you", "You ring them up and you
        # are on hold for an hour every single time. Joke.", the review)
        exclaimed = answer[before:start].rstrip().endswith("!")
        called = _CALLED_A_JOKE.match(after) and (
            _ONLY_JOKING.match(after) or (exclaimed and _TO_YOU.search(answer, before, start))
        )
        if laughed or _SERIOUSLY_NOW.match(after) or called:
            spans.append((starts[i - 1] if alone else before, start))
    return spans


def _only_a_laugh(sentence: str) -> bool:
    """The sentence says nothing but a laugh (those of ``lexicon/en/doubt/laugh.yaml``, or a
    bare "ha", which is one said alone): "Ha.", "lol!"; not "OK."."""
    rest = _HA.sub("", phrase_pattern("doubt/laugh").sub("", sentence))
    return not re.search(r"[^\W\d_]{2,}", rest)


_HA = re.compile(r"\bha\b", re.IGNORECASE)


def _ends_laughing(sentence: str) -> bool:
    """The sentence closes on a laugh ("... mostly haha.", "... :)")."""
    laughs = list(phrase_pattern("doubt/laugh").finditer(sentence))
    return bool(laughs) and not re.search(r"\w", sentence[laughs[-1].end() :])


# A retraction (``lexicon/en/retraction.yaml``) that calls what it takes back a joke: "that
# was only a joke", "I was just kidding" (the lexicon says which are; "it's a joke" of a thing is
# a complaint there, and no retraction)
_REST_OF_CLAUSE = re.compile(r"[^,.;:!?]*[,.;:!?]+\s*")
_CLAUSE = re.compile(r"[^.;!?]*")


def _reassured(answer: str) -> list[tuple[int, int]]:
    """The kind word that follows a joke called one ("that was only a joke mun, Dai is a
    good sort": ``lexicon/en/doubt/reassurance.yaml``), as (start, end): it answers nothing."""
    spans = []
    jokes = (m for m in phrase_pattern("retraction").finditer(answer) if _JOKING.search(m[0]))
    for joke in jokes:
        rest = _REST_OF_CLAUSE.match(answer, joke.end())
        if rest is None:
            continue
        clause = _CLAUSE.match(answer, rest.end())
        assert clause is not None  # matches the empty string at worst
        said = clause.group(0)
        if not phrase_pattern("doubt/reassurance").match(said):
            continue
        if re.search(r"[.!?]", rest.group(0)) and not _SOFTENED.search(said):
            # (a new sentence is a new point unless it softens: "No, that was joke about the
            # jabs. The app is brilliant." says what is good, round 162's speaker)
            continue
        spans.append((clause.start(), clause.end()))
    return spans


_SOFTENED = re.compile(
    r"\b(?:really|actually|honestly|bless|to\s+be\s+fair|tbf|i\s+(?:do\s+)?love|he|she|him|her|"
    r"they)\b",
    re.IGNORECASE,
)


# "what do you mean by 'cooking chemistry'?" asks about the question's words; it takes back
# nothing the answer said before it
_PUZZLED = re.compile(r"\W*what\s+do\s+you\s+mean", re.IGNORECASE)
_READING_OFFERED = re.compile(
    r"\W*(?:(?:oh|um|erm|hmm|so|or)\W+)*(?:like|you\s+mean|as\s+in|do\s+you\s+mean|is\s+that|"
    r"if\s+you\s+mean|i\s+guess\s+you\s+mean|the\s+\w+\s+you\s+mean)\b",
    re.IGNORECASE,
)


def _offers_a_reading(match: re.Match[str], said: str, answer: str) -> bool:
    """ "What do you mean by 'it starting'? Like the car starting in the morning?": they offer a
    reading of their own words, they do not disown them (not "what do you mean by its Leeds? I
    just live here, I dont have feelings about Leeds", round 65, asked about "its Leeds" again)."""
    return bool(
        _PUZZLED.match(match.group(0))
        and _READING_OFFERED.match(answer, match.end())
        and shared(words_of(said), words_of(answer[match.end() :]))
    )


def _alike(words: frozenset[str], other: frozenset[str]) -> bool:
    """Some word of ``words`` is one of ``other``'s, or starts as it does ("dentist",
    "dental")."""
    return shared(words, other) > 0 or any(
        len(a) >= _ALIKE and len(b) >= _ALIKE and a[:_ALIKE] == b[:_ALIKE]
        for a in words
        for b in other
    )


_ALIKE = 4


_UNSAID = frozenset(
    "i me my you your we our it its is was were am are be the a an to of that this".split()
)


def _said_words(text: str) -> set[str]:
    """Every word but the smallest ones: "ask me about the boots" is "ask", "about", "boots"."""
    return {w for w in re.findall(r"[a-z0-9']+", text.lower()) if w not in _UNSAID}


def _quoted(answer: str, at: int) -> bool:
    """The words from ``at`` are in quotation marks."""
    return at > 0 and answer[at - 1] in "'\"\u2018\u201c"


_NOT_MEANT = re.compile(
    r"\b(?:just|only)\s+a\s+joke\b|\bjoking\b|\bkidding\b|^\W*(?:\w+\W+){0,2}?(?:no|nah|naw)\b",
    re.IGNORECASE,
)


def _exactly_named(
    request: ExtractRequest, exact: str, candidates: list[Earlier], match: re.Match[str]
) -> list[str]:
    """What a retraction naming its thing ``exact`` takes back: the earlier concepts it names
    wholly; where it names none, and calls what it names a joke, the question's focus when
    that holds all its words ("haha no the toast was a joke" asked about "can just eat my own
    toast": round 137 asked about the toast again)."""
    named = _wholly_named(exact, candidates)
    focus = request.focus_label or ""
    # ("the helpline was a joke" says it was useless: only one said not to be meant)
    if named or not focus or not _NOT_MEANT.search(match.group(0)):
        return named
    said = {w.removesuffix("s") for w in words_of(exact)}
    own = {w.removesuffix("s") for w in words_of(focus)}
    return [focus] if said and said <= own else []


def _wholly_named(said: str, candidates: list[Earlier]) -> list[str]:
    """The earlier concepts all of whose own words ``said`` names, word for word (a plural
    as its singular): "the fingers" is not "fingerprint"."""
    words = {w.removesuffix("s") for w in words_of(said)}
    return [
        c.label
        for c in candidates
        if (own := {w.removesuffix("s") for w in words_of(c.label)}) and own <= words
    ]


def _points_back(request: ExtractRequest, found: TakenBack, begins: int, at: int) -> bool:
    """A retraction pointing back at what its sentence named before it ("my sister and her
    pod machine, that has nothing to do with it"): that is taken back, and the focus too
    where that said a word of it again ("Never once turned anyone away, that was my dad,
    thats just a bit of family history", round 58). False: the sentence named nothing."""
    said = request.answer[begins:at]
    if len(_NAMING.findall(said)) < 2:
        return False
    # (a remark names nothing: "ha it doesnt mean anything, was just a joke" points at the
    # question's focus, round 58; a retraction before it is what it points at)
    taken = any(p.search(said) for p in phrase_patterns("retraction"))
    if not taken and len(_NAMING.findall(blank(said))) < 2:
        return False
    found.just_said.append((begins, at))
    focus = request.focus_label or ""
    own = _SAID_AS_MINE.search(said)  # "I cook for the street because my dad ...": still meant
    if focus and not own and shared(words_of(said), words_of(focus)) and focus not in found.labels:
        found.labels.append(focus)
    return True


def _joke_said_again(request: ExtractRequest, found: TakenBack, begins: int) -> None:
    """After a "that was a joke" opening its sentence, the sentence before it goes with the
    focus when it said the focus again, not as theirs ("haha no, the laundry pile wins, not
    me. that was a joke", round 73, where "wins most weeks" was asked about)."""
    focus = request.focus_label or ""
    before = sentence_start(request.answer, max(0, begins - 1))
    said = request.answer[before:begins]
    if focus and begins and shared(words_of(said), words_of(focus)):
        if not _SAID_AS_MINE.search(said):
            found.just_said.append((before, begins))


_JOKING = re.compile(r"\b(?:jok\w*|kidding|banter|messing)\b", re.IGNORECASE)
_SAID_AS_MINE = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|we|we're|we've)\b", re.IGNORECASE)


def _all_named(said: str, candidates: list[Earlier], *, every: bool = False) -> list[str]:
    """The earlier concepts ``said`` names: every one whose own words it all names ("the
    fridge has nothing to do with it" takes back each "fridge"), else the one it names best
    (``earlier.best_match``'s score, then the share of its words named); with ``every``, each
    that shares a word with it ("the fiesta was just backstory": "I used to drive my old
    fiesta" and "after the fiesta died I was getting the bus"). Two things named with "and"
    are each taken back ("Work shifts and my wife, that was just talk")."""
    parts = [p for p in _AND.split(said) if words_of(p)]
    if len(parts) > 1:
        each = [label for part in parts for label in _all_named(part, candidates, every=every)]
        return list(dict.fromkeys(each))
    words = words_of(said)
    if every:  # by the thing named, its last word ("the old flat": not the "old cast iron pan"),
        # and never a value on it ("my nan was just backstory" keeps "feel close to my nan")
        head = words_of(said.split()[-1]) if said.split() else frozenset()
        return [
            c.label
            for c in candidates
            if shared(head, words_of(c.label)) and "value" not in c.node_type
        ]
    scored = []
    for candidate in candidates:
        own = words_of(candidate.label)
        named = shared(words, own)
        if named and own:
            scored.append((match_score(words, candidate), named / len(own), candidate.label))
    whole = list(dict.fromkeys(label for _, cover, label in scored if cover == 1.0))
    if whole:
        return whole
    best = max(scored, key=lambda s: (s[0], s[1]), default=None)
    return [best[2]] if best is not None else []


_AND = re.compile(r"\s+and\s+|\s*&\s*", re.IGNORECASE)


__all__ = ["TakenBack", "taken_back"]
