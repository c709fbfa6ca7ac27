"""Cutting an answer into clauses and naming each one (offline extraction, step 1).

An answer is split into sentences, each sentence at the cue phrases of ``lexicon.CUES``.
Hedges, fillers and "don't know" phrases are first blanked out (replaced by spaces, so
every offset still points into the original answer and quotes stay verbatim). Each clause
keeps the cue that opened it (how it links to the clause before) and a semantic category
from its words (:func:`lexical_category`: a way of being, a value, a feeling, a pain, a
context, a solution, an action or a functional consequence, which the extractor weighs
against the category its cue suggests).

Naming a clause (:func:`make_label`): a short label in the respondent's words, 2-6 words,
lower case (acronyms kept): pronouns, fillers, opinion verbs and rating predicates stripped,
cut at the next clause break, never ending on a dangling word; a label of nothing but words
that name nothing is empty.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from interview_cli.core.models import ExtractedNode
from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.lexicon import (
    ACTION_LEADS,
    BARE_MEANS,
    BARE_SO,
    CLAUSE_BREAKS,
    CONDUCT_PREFIXES,
    CONFIRMATIONS,
    COPULAS,
    CUES,
    DANGLING,
    DISLIKE_VERBS,
    DISPENSABLE,
    DONT_KNOW,
    EVALUATIVE,
    FEELING_PHRASES,
    FEELING_WORDS,
    FUNCTIONAL_LEADS,
    IMPORTANCE,
    INNER_FILLERS,
    INNER_PRONOUNS,
    LABEL_NAMELESS,
    LATE_BREAKS,
    LEADING_STRIP,
    MEANS_IDIOMS,
    MEANS_NOUN_AFTER,
    MEANS_NOUN_BEFORE,
    NAMELESS,
    OPINION_LEADS,
    PAIN_WORDS,
    SO_BOUNDARY,
    SO_NOT_LINKING_AFTER,
    SO_PERSONAL,
    SO_SUBJECTS,
    SOLUTION_LEADS,
    TERMINAL_CEILING,
    TIME_OPENER,
    TRAILING_STRIP,
    VALUE_PHRASES,
    VALUE_WORDS,
    Cue,
)
from interview_cli.llm.offline.lexicon.phrases import phrase_pattern
from interview_cli.llm.offline.reading.content import verdict_words
from interview_cli.llm.offline.reading.irked import irked_spans
from interview_cli.llm.offline.reading.meta import LOAD_OFF, blank_meta, naming_words
from interview_cli.llm.offline.reading.nonanswers import blank_spans, inline_spans

MAX_LABEL_WORDS = 6
# A number with its thousands ("1,800 quid"): one word, and no comma that parts clauses.
THOUSANDS = r"\d{1,3}(?:,\d{3})+(?!\d)"
# "3.49", "a 2:1", "1,800" kept whole
WORD = re.compile(THOUSANDS + r"|\d+(?:[.:]\d+)+|[\w][\w'\u2019\-]*")
_STRENGTH = {"up": 5, "down": 5, "sequence": 4, "assoc": 3, "sibling": 2, "none": 1}
# A question back ("Why does anyone do anything?", "What do you want me to say?") and a
# tautology ("Boots are boots.", "it is what it is") say nothing about the topic.
# (A sentence that opens like a question; "maybe the face ID login?" is a tentative answer.)
# A tag question asks for agreement with what was just said ("it saves time, doesn't it?",
# "that's what life's for, isn't it, love"): the statement is the answer, the tag nothing.
_TAG = (
    r"(?:isn'?t|aren'?t|wasn'?t|weren'?t|doesn'?t|don'?t|didn'?t|won'?t|wouldn'?t|can'?t|"
    r"couldn'?t|haven'?t|hasn'?t|shouldn'?t)\s+(?:it|they|you|he|she|we|there|that|i)"
)
_TAG_QUESTION = re.compile(
    rf",\s*{_TAG}\b(?=\s*(?:,\s*(?:love|mate|dear|eh|like)\b)?\s*(?:[.!?]|$))|"
    # typed without its comma, before one: "Its just wasteful isnt it, my mam darned socks"
    # (round 51: "You said wasteful isn't it.")
    rf"(?<=\w)\s+{_TAG}\b(?=\s*(?:[,.!?]|$))",
    re.IGNORECASE,
)
_QUESTION_BACK = re.compile(
    r"(?:^\s*|(?<=[.!?] ))(?:why|what|how|who|where|when|do|does|did|is|are|isn'?t|aren'?t|can|"
    r"could|would|should|will)\b[^.!?]*\?|"
    # a question of four words or more, whatever it opens with ("If I can't get myself up,
    # who's going to?"), asks the interviewer or no one; "Maybe the face ID login?" offers;
    # not a reason said unsure ("cos i need good grades??"), nor a statement with the
    # rising tone of a hedge ("less scared of ruining it, I think?")
    # , nor the answer to "what does that mean for you?" said with a rising tone ("it means
    # I'm doing an ok job as a mum? I dont know how much deeper that goes", round 35)
    # (an echo of the question blanked before it leaves it opening the answer: "what do you
    # mean features? like the machines and that?", round 44 asked about the machines)
    r"(?:^\s*|(?<=[.!?] ))(?!or\b)(?!(?:cos|coz|cause|because|bc|so)\s)"
    r"(?!(?:it|that|this)\s+(?:means|meant|makes|made|gives|gave|helps|lets)\s)"
    r"(?!(?:i'?m|im|i\s+am|i\s+feel)\s)"
    r"(?![^.!?]*\b(?:maybe|perhaps|probably|possibly|i\s+think|i\s+guess|i\s+suppose|"
    r"i\s+reckon|kind\s+of|sort\s+of|idk|i\s+dunno|dunno|not\s+sure)\b)"
    rf"(?![^.!?]*,\s*{_TAG}\b[^.!?]{{0,12}}\?)"
    r"(?:[^.!?\s]+\s+){3,}(?<!you )(?<!you, )(?!(?:know|right|yeah|eh|innit|ok|okay|see)\b)"
    r"[^.!?\s]+\s*\?",
    re.IGNORECASE,
)
_TAUTOLOGY = re.compile(r"\b(\w+) (?:is|are) (?:what \w+ (?:is|are)|\1)\b", re.IGNORECASE)
# "the main thing is the fit": the frame says which one counts, the node is "fit". ("They
# do the job" stays: for a respondent who cares little, that it works is the attribute.)
_RATING_IDIOMS = re.compile(
    r"\b(?:the\s+)?(?:main|big|biggest|most important|only|key|whole)\s+(?:thing|point|reason)"
    r"(?:\s+for\s+me)?(?:\s+(?:is|was|'s))?\b|\b(?:which|that)\s+is\s+the\s+whole\s+point\b|"
    r"\bthe\s+point\s+(?:is|was)(?:\s+more)?\b|"
    # what a correction says they meant: "it's more that the foam ...", "I was saying ..."
    r"\b(?:it'?s|it\s+is)\s+more\s+that\b|\bwhat\s+i\s+meant\s+(?:is|was)\b|"
    r"\bi\s+was\s+saying(?:\s+that)?\b|"
    # a rating, not an element: "the price was fine, nothing special"
    r"\bnothing\s+(?:special|fancy|amazing|to\s+write\s+home\s+about)\b",
    re.IGNORECASE,
)
# Frames of a third-person or an absence answer: "someone like me cares because ...",
# "without it I'd have to ...": the frame is the question's, what follows is the answer.
_FRAMES = re.compile(
    # "it's not the fees so much, it's that ...": what it is not is no element
    # (a "that's" after a noun is a relative: "one evening a week that's not laundry")
    r"(?:\b(?:it'?s|it\s+is)|(?:^|(?<=[,.;!?]\s)|(?<=\bbut\s)|(?<=\bno\s))that'?s)\s+not\s+"
    # (what it is not stops at a "but": "It's not fancy but it's open when I need it, ...")
    r"(?:really\s+)?(?:about\s+)?(?:(?!\bbut\b)[^,.;!?]){1,40}?"
    # (not "it's not heavy, I think": a hedge after the comma sets nothing against it)
    r"(?:\s+so\s+much|\s+really)?\s*,"
    r"(?!\s*(?:i\s+think|i\s+guess|i\s+suppose|i'?d\s+say|i\s+reckon|basically|like|really|"
    r"honestly|to\s+be\s+(?:fair|honest)|mate|love|though|you\s+know|tbh|lol|haha)\s*(?:[,.!?]|$))"
    r"\s*(?:(?:it'?s|but)\s+)?(?:more\s+|rather\s+)?"
    r"(?:(?:that|about|the\s+fact\s+that)\b)?|"
    r"\b(?:(?:the\s+)?(?:thing|part|bit)\s+(?:that|which)|what)\s+"
    + DISLIKE_VERBS
    + r"(?:\s+the)?(?:\s+most)?(?:\s+(?:is|are))?(?:\s+when)?\b|"
    r"\b(?:someone|somebody|people|anyone|a person|others)\s+like\s+(?:me|us|you|myself)"
    r"(?:\s+(?:would|might|probably|just))*(?:\s+(?:cares?|want|wants)(?:\s+about\s+(?:it|that))?)?"
    r"|^\s*without\s+(?:it|them|that|this)\b",
    re.IGNORECASE,
)
# A full stop between digits is a decimal point ("3.49", "£2.50"), not a sentence's end.
_SENTENCE_END = re.compile(r"(?:(?<!\d)\.|\.(?!\d)|[!?;\n\u2026])+")  # "\u2026": a typed ellipsis
_EDGE_WORDS = re.compile(
    r"^(?:(?:and|but|or|so|then|because)\b[\s,]*)+|(?:[\s,]*\b(?:and|but|or|so|then))+$",
    re.IGNORECASE,
)


_INFINITIVE = frozenset("wanna gonna gotta to".split())
_MADE_WHO = frozenset("me us him her them you".split())
_CAUSATIVE = frozenset("made make makes making let lets letting".split())
_SHARED_DENIAL = re.compile(r"^(?:the\s+)?(?:no|without)\s", re.IGNORECASE)
_NEGATORS = frozenset("not never no don't doesn't didn't won't can't cannot isn't".split())
_CONNECTIVES = ("because", "'cause", "so", "which", "that", "this", "it", "in ", "as ", ",", "and")


_IF_MAIN = re.compile(
    r"^\s*(?:(?:and|but|because|'cause|so|well)\W+)*(?P<cond>if|as long as|when|whenever)\s+"
    r"(?:[\w'\u2019]+\s+){1,6}?[\w'\u2019]+"
    r"(?=\s*,?\s+(?:then\s+)?(?:i|i'm|i'll|we|we're|you|they|it|it's|my)\b)",
    re.IGNORECASE,
)
_IF_CUE = Cue("if", "up")
_COMMA_SUBJECT = re.compile(
    r"(?:,|\band|\bbut)\s+(?:then\s+)?(?=(?:(?:i|we|you|they|he|she|it)(?:['\u2019](?:m|ve|d|ll|re|s))?"
    # typed without the apostrophe: "its", "im", "ive", "theyre"
    r"|its|im|ive|theyre|youre)\s+"
    r"(?!mean\b|guess\b|think\b|suppose\b|know\b|said\b|say\b|see\b|reckon\b)\w)|"
    # a second statement about something else: "... and the noise cancelling is proper good"
    r"\band\s+(?=(?:the|my|our|their|his|her|your)\s+(?:[\w'-]+\s+){0,2}(?:is|are|was|were|has|"
    r"have|had|does|do|did|can|can't|will|won't|keeps?|gets?|goes|lasts?|makes?|stays?)\b)|"
    # ... or after a comma, someone of theirs and what they did: "Its just wasteful isnt it,
    # my mam darned socks till there was more darn than sock" (round 51)
    r",\s+(?=(?:my|our|me)\s+(?:mam|mum|mom|mother|dad|father|nan|nana|gran|granny|grandad|"
    r"grandma|husband|wife|partner|fella|missus|son|daughter|brother|sister|kids|boss|mate)\s+"
    r"(?:[\w'-]+\s+)?\w+ed\b)|"
    # ... or after a comma, another thing and what it did: "The laser mapping I guess, the old
    # cheap one we had before kept getting stuck under the sofa" (round 50 held the mapping
    # against for the old one getting stuck)
    r",\s+(?=(?:the|my|our|their|his|her|your)\s+(?:old|other|last|previous|first|cheap|new)\s+"
    r"(?:[\w'-]+\s+){0,4}?(?:is|are|was|were|has|"
    r"had|kept|keeps|used\s+to|would|never|always|broke|died|got|gets|took|takes)\b)|"
    # ... or a doing said as its subject: "... and having that 6am thing is good for my head"
    r"\band\s+(?=\w+ing\s+(?:[\w'-]+\s+){0,3}(?:is|are|was|were|makes?|keeps?|gives?|"
    r"helps?)\b)|"
    # a second action with its subject unsaid: "..., pour it in my cup and drink it on the
    # train" (a verb and its object pronoun); not "go and fetch it", one doing
    r"(?:,|(?<!\bgo\s)(?<!\bcome\s)(?<!\btry\s)(?<!\bwent\s)(?<!\bgoes\s)\band)"
    r"\s+(?:then\s+)?(?=(?!it\b|them\b|that\b|this\b)[a-z]{3,}\s+(?:it|them)\b)",
    re.IGNORECASE,
)
_COMMA_CUE = Cue(",", "sibling")
# A comma that parts words, not one inside a number ("1,800 quid").
_COMMA = re.compile(r",(?!(?<=\d,)\d)")


@dataclass
class Clause:
    """One clause of the answer that may name an element of the ontology."""

    text: str  # the clause's words, noise blanked
    start: int  # span of its content in the answer
    end: int
    quote_start: int  # where its verbatim quote starts (earlier when the cue belongs to it)
    cue: Cue | None
    sentence: int
    label: str = ""
    category: str | None = None
    node_type: str = ""
    existing: bool = False  # names a node from an earlier turn: reference, don't re-extract
    strong: bool = False  # its category points clearly at one node type
    timed: bool = False  # its sentence put a time before it ("Last Tuesday I was late")
    # the stretch of the answer between the cues around it, blanked words included
    raw_start: int = 0
    raw_end: int = 0


# "because" as typed.
_TYPED_BECAUSE = frozenset("cos coz cuz".split())
# What refuses a letting ("won't let me", "never lets me"), each spelled as typed.
_REFUSED = (
    "won't",
    "wont",
    "don't",
    "dont",
    "doesn't",
    "doesnt",
    "didn't",
    "didnt",
    "never",
    "not",
    "wouldn't",
    "wouldnt",
)


def _cue_pattern() -> re.Pattern[str]:
    phrases = sorted({c.phrase for c in CUES}, key=len, reverse=True)
    parts = []
    for phrase in phrases:
        body = re.escape(phrase).replace(r"\ ", r"\s+").replace("'", "['\u2019]")
        lead = "" if phrase.startswith(",") else r"(?<![\w'\u2019])"
        # "it lets me relax" opens a reason; "it won't let me down" is the phrasal verb, and
        # "she won't let me skip it" is what they cannot do, no reason (round 22: "skip it")
        letting = re.search(r"\blets?\s+me$", phrase)
        down = r"(?!\s+down\b)" if letting else ""
        if phrase in _TYPED_BECAUSE:
            down = r"(?!\s+of\b)"  # "8 till 7 cos of labs": a time's reason, no clause
        if letting:
            lead += "".join(rf"(?<!\b{n}\s)" for n in _REFUSED)
        parts.append(lead + body + r"(?![\w'\u2019])" + down)
    return re.compile("|".join(parts), re.IGNORECASE)


_CUE_RE = _cue_pattern()
_CUES_BY_PHRASE = {c.phrase: c for c in CUES}


def _cue_for(matched: str) -> Cue:
    key = " ".join(matched.lower().replace("\u2019", "'").split())
    if key.startswith(","):
        key = ", " + key[1:].strip()
    return _CUES_BY_PHRASE[key]


@lru_cache(maxsize=1024)
def blank(answer: str) -> str:
    """The answer with hedges, fillers, importance and don't-know phrases, and remarks about
    the interview ("like I said", "can we move on?"), replaced by spaces."""
    working = list(blank_spans(blank_meta(answer), inline_spans(answer)))
    for time in inline_spans(answer, ("time",)):
        _blank_preposition_before(working, time.start)
        if answer[time.end : time.end + 2] in ("'s", "\u2019s"):
            working[time.end : time.end + 2] = "  "  # "Thursday's our night": the time's verb
    for frame in _LEADS_TO.finditer(answer):
        # "when I've been rushed it leads to a bad cut": the question's own verb said back
        # names nothing, and where it stood one clause ends and the next begins
        working[frame.start() : frame.end()] = ";" + " " * (frame.end() - frame.start() - 1)
    for pattern in (
        _TAG_QUESTION,
        phrase_pattern("emphasis/ahead"),
        phrase_pattern("emphasis/behind"),
        phrase_pattern("frame"),
        phrase_pattern("against"),
        _RATING_IDIOMS,
        _FRAMES,
        IMPORTANCE,
        DONT_KNOW,
        TERMINAL_CEILING,
        CONFIRMATIONS,
        _QUESTION_BACK,
        _TAUTOLOGY,
    ):
        for match in pattern.finditer(answer):
            for i in range(match.start(), match.end()):
                working[i] = " "
    for start, end in irked_spans(answer):
        # (where it stood the clause ends: "The queue drives me mad but the staff are lovely")
        working[start:end] = " " * (end - start - 1) + ";"
    text = "".join(working)
    # "Nothing much, literally, goes to landfill": a filler between commas after a word or two
    # of a sentence leaves no clause behind, only its commas; the sentence is one again
    for match in _FILLER_COMMAS.finditer(text):
        working[match.start("a")] = working[match.start("b")] = " "
    return "".join(working)


_FILLER_COMMAS = re.compile(
    r"(?:^|(?<=[.!?;]\s))\s*[\w'\u2019]+(?:\s+[\w'\u2019]+)?\s*(?P<a>,)\s{2,}(?P<b>,)"
)


# "not sluggish on a Thursday": with the time gone, its preposition names nothing either.
_TIME_PREPOSITION = re.compile(r"\b(?:on|at|in|by|during|every|for)\s*$", re.IGNORECASE)


_LEADS_TO = re.compile(
    r"\b(?:(?:and\s+)?then\s+)?(?:it|that|this|which)\s+(?:leads?|led)\s+(?:me\s+)?to\b|"
    # the read-back's verb agreed with: "the label reading does lead to her being comfy"
    r"\b(?:does|do|did)\s+lead\s+to\b|"
    # "How does that help you?" - "it helps cos i get better feedback" (round 25)
    r"\b(?:it|that|this)\s+(?:helps|matters)(?=\s+(?:because|cos|coz|cuz|as|since)\b)|"
    # the read-back's own words said back: "firm support leading to waking without the ache"
    # (after its quoted words were blanked too: "'X' leading to 'Y' is daft", round 25)
    r"(?:(?<=\w)|(?<=\s))\s*leading\s+to\b",
    re.I,
)


def _blank_preposition_before(working: list[str], at: int) -> None:
    """Blank the preposition that leads into a blanked time ending at ``at``."""
    match = _TIME_PREPOSITION.search("".join(working[max(0, at - 12) : at]))
    if match is not None:
        for i in range(at - (len(match.group(0))), at):
            working[i] = " "


def content_words(text: str) -> list[str]:
    return [
        w for w in WORD.findall(text.lower()) if w not in LEADING_STRIP and w not in TRAILING_STRIP
    ]


def _merge(a: Cue | None, b: Cue) -> Cue:
    """Cues with nothing between them ("because it lets me") act as one."""
    if a is None:
        return b
    link = b.link if _STRENGTH[b.link] >= _STRENGTH[a.link] else a.link
    return Cue(
        f"{a.phrase} {b.phrase}", link, b.category or a.category, b.in_quote, b.prefix or a.prefix
    )


def _sentences(working: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for match in _SENTENCE_END.finditer(working):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(working)))
    return spans


def _cuts(sentence: str, offset: int, active: Callable[[Cue], bool]) -> list[tuple[int, int, Cue]]:
    cuts = []
    for match in _CUE_RE.finditer(sentence):
        cue = _cue_for(match.group(0))
        if not active(cue):
            continue
        before = sentence[: match.start()].split()
        previous = before[-1].lower().strip(",").replace("\u2019", "'") if before else ""
        made = previous in _MADE_WHO and len(before) > 1 and before[-2].lower() in _CAUSATIVE
        if (previous in _NEGATORS | _INFINITIVE or made) and not cue.phrase.startswith(
            _CONNECTIVES
        ):
            # "not feel like a dinosaur": the negation belongs to what the cue introduces,
            # and cutting there would leave a node "not" and lose the negation; so does the
            # wanting ("i dont wanna | feel like a muppet" made the rung "dont wanna", round 36)
            # and the making ("He just never made me | feel like a nuisance" lost its "never",
            # round 40: read back as "feel like a nuisance")
            continue
        if cue.phrase in BARE_SO:
            after = sentence[match.end() :].split()
            pronoun = (
                cue.phrase.split()[1]
                if cue.phrase != "so"
                else (after[0].lower().strip(",") if after else "")
            )
            subject = cue.phrase != "so" or pronoun in SO_SUBJECTS
            personal = pronoun in SO_PERSONAL and previous not in SO_NOT_LINKING_AFTER
            if not ((SO_BOUNDARY.search(sentence[: match.start()]) and subject) or personal):
                continue
        if cue.phrase in BARE_MEANS:
            after = [w.lower().strip(",") for w in sentence[match.end() :].split()]
            if (
                not before
                or not after
                or previous in MEANS_NOUN_BEFORE
                or (after[0] in MEANS_NOUN_AFTER or MEANS_IDIOMS.match(sentence[match.end() :]))
            ):
                continue
        cuts.append((offset + match.start(), offset + match.end(), cue))
    main = _IF_MAIN.match(sentence)
    if main and not any(main.start("cond") <= start - offset < main.end() for start, _, _ in cuts):
        # "If I can concentrate, I get my reading done": the condition is the means, the
        # main clause its end; one label for both would read "if can concentrate get my ...".
        at = offset + main.end()
        cuts.append((at, at, _IF_CUE))
    for match in _COMMA_SUBJECT.finditer(sentence):
        # "it just works, I don't have to fiddle with it", "... and then I'd get the
        # headache": a second statement after a comma or an "and" is an element of its own,
        # like the first, not the tail of one long label.
        at = offset + match.end()
        if not any(abs(start - at) <= 12 for start, _, _ in cuts):
            cuts.append((at, at, _COMMA_CUE))
    cuts.sort(key=lambda cut: cut[0])
    return cuts


def split_clauses(answer: str, active: Callable[[Cue], bool] = lambda cue: True) -> list[Clause]:
    """Clauses of the answer, cut at the cue phrases ``active`` accepts (all by default)."""
    working = blank(answer)
    times = inline_spans(answer, ("time",))
    clauses: list[Clause] = []
    for index, (s_start, s_end) in enumerate(_sentences(working)):
        segments: list[tuple[int, int, Cue | None, int | None]] = []
        position = s_start
        pending: Cue | None = None
        pending_quote: int | None = None
        for c_start, c_end, cue in _cuts(working[s_start:s_end], s_start, active):
            segments.append((position, c_start, pending, pending_quote))
            pending, pending_quote = cue, (c_start if cue.in_quote else None)
            position = c_end
        segments.append((position, s_end, pending, pending_quote))
        carried: Cue | None = None
        carried_quote: int | None = None
        before = s_start  # where the clause before this one ended, in this sentence
        for seg_start, seg_end, opener, quote_at in segments:
            merged = _merge(carried, opener) if opener is not None else carried
            if not content_words(working[seg_start:seg_end]):
                # "because it lets me": the empty "it" between two cues joins them.
                carried = merged
                carried_quote = quote_at if quote_at is not None else carried_quote
                continue
            start, end = _trim(working, seg_start, seg_end)
            quote_start = quote_at if quote_at is not None else carried_quote
            clauses.append(
                Clause(
                    text=working[start:end],
                    start=start,
                    end=end,
                    quote_start=start if quote_start is None else quote_start,
                    cue=merged,
                    sentence=index,
                    timed=any(before <= t.start and t.end <= start + 1 for t in times),
                    raw_start=seg_start,
                    raw_end=seg_end,
                )
            )
            before = end
            carried, carried_quote = None, None
    return clauses


def list_parts(clause: Clause) -> list[Clause]:
    """A plain list of short noun phrases ("light and comfortable", "the sound, the fit")
    as sibling clauses; [] when the clause is not such a list."""
    # "peace and quiet" is one thing, and so may be two words of one kind ("happy and
    # relaxed"); but a list with commas is a list whatever its first item is ("feeling like
    # myself, calm mornings and time thats just mine", round 28: one node of three)
    if _BINOMIAL.search(clause.text):
        return []
    chunks: list[str] = []
    for segment in _COMMA.split(clause.text):
        pieces = [p for p in re.split(r"\s*\b(?:and|or|plus)\b\s*", segment) if p.strip()]
        if len(pieces) == 2 and len(content_words(pieces[0])) == 1 < len(content_words(pieces[1])):
            pieces = [segment.strip()]  # "a full and rich life": two words for one noun
        elif len(pieces) == 2 and _SHARED_PREPOSITION.search(pieces[0]):
            pieces = [segment.strip()]  # "data for the satnav and the app": one "for"
        elif len(pieces) == 2 and _SHARED_DENIAL.match(pieces[0]) and len(pieces[1].split()) == 1:
            # "no added oil and sugar": no added sugar either (round 41 read back "sugar")
            pieces = [re.sub(r"^(?:plus|and|or)\s+", "", segment.strip())]
        chunks.extend(p.strip() for p in pieces if p.strip())
    # (a person the item is about names nothing of it: "his tummy, him enjoying his dinner
    # and me knowing I have done right by him", round 54: one node, "tummy him enjoying his
    # dinner")
    sizes = [len([w for w in content_words(c) if w not in _MADE_WHO]) for c in chunks]
    # a comma list of three or more may hold one longer item among its short ones ("the
    # dentist explaining before they do anything, early appointments, no upselling, and
    # setting an example for my kids", round 35: read as two nodes, the short items lost)
    listed = len(_COMMA.split(clause.text)) >= 3 and len(sizes) > 1 and sorted(sizes)[1] <= 2
    longest = 6 if listed else 3
    if len(chunks) < 2 or any(not 0 < size <= longest for size in sizes):
        return []
    if lexical_category(clause.text) is not None and (len(chunks) < 3 or "," not in clause.text):
        return []
    parts: list[Clause] = []
    cursor = 0
    for chunk in chunks:
        at = clause.text.find(chunk, cursor)
        cursor = at + len(chunk)
        start = clause.start + at
        parts.append(
            Clause(
                chunk,
                start,
                start + len(chunk),
                start,
                clause.cue,
                clause.sentence,
                raw_start=start,
                raw_end=start + len(chunk),
            )
        )
    parts[0].quote_start = clause.quote_start
    return parts


# Pairs said as one thing: "peace and quiet", "safe and sound", "wear and tear".
_BINOMIAL = re.compile(
    r"\b(?:peace\s+and\s+quiet|safe\s+and\s+sound|wear\s+and\s+tear|rest\s+and\s+relaxation|"
    r"ups\s+and\s+downs|pros\s+and\s+cons|odds\s+and\s+ends|bits\s+and\s+bobs|"
    r"health\s+and\s+safety|fish\s+and\s+chips|salt\s+and\s+pepper|bread\s+and\s+butter|"
    r"time\s+and\s+money|hustle\s+and\s+bustle|fit\s+and\s+healthy|fit\s+and\s+well)\b",
    re.IGNORECASE,
)
_SHARED_PREPOSITION = re.compile(r"\w\s+(?:for|with|on|to|from)\s+(?:the\s+|my\s+|a\s+)?\w+$", re.I)


def _trim(working: str, start: int, end: int) -> tuple[int, int]:
    while start < end and not working[start].isalnum():
        start += 1
    while end > start and not (working[end - 1].isalnum() or working[end - 1] in "%)'\u2019"):
        end -= 1
    return start, end


def quote(answer: str, start: int, end: int) -> str:
    """The verbatim span, without dangling connectives or punctuation at its ends."""
    text = answer[start:end].strip(" \t\n,;:-\"'")
    trimmed = _EDGE_WORDS.sub("", text).strip(" \t\n,;:-\"'")
    return trimmed or text or answer[start:end]


_WORD = re.compile(r"[\w][\w'\u2019\-]*")  # WORD without its dotted numbers


def lexical_category(
    text: str, supports: Callable[[str], bool] = lambda c: True, *, timed: bool = False
) -> str | None:
    """A semantic category from the words of a clause alone (None: nothing stands out).

    ``supports`` says which categories the methodology can use; the first supported
    category whose words appear wins, in order of how telling they are. ``timed``: a time
    was said before the clause, which sets a scene.
    """
    lower = " ".join(_WORD.findall(text.lower())).replace("\u2019", "'")
    words = set(lower.split())
    # the frame around it does not change the form: "it's (all) about being a good parent"
    frame = {"i", "i'm", "it's", "just", "really", "because", "it", "is", "that's", "all", "about"}
    stripped = " ".join(w for w in lower.split() if w not in frame)
    content = [w for w in lower.split() if w not in LEADING_STRIP]
    lead = content[0] if content else ""
    valued = bool(words & VALUE_WORDS) or any(p in lower for p in VALUE_PHRASES)
    checks: list[tuple[str, bool]] = [
        # "being a good parent" names a way of being (an instrumental value) even when its
        # words are value words: the phrase's form decides first
        ("conduct", stripped.startswith(CONDUCT_PREFIXES)),
        # "I can provide for my family": what it makes possible, not yet the end itself
        ("feeling", valued and lead in ("can", "could")),
        ("value", valued),
        ("feeling", bool(words & FEELING_WORDS) or any(p in lower for p in FEELING_PHRASES)),
        ("pain", bool(words & PAIN_WORDS)),
        ("context", timed or bool(TIME_OPENER.search(text.strip()))),
        ("solution", lead in SOLUTION_LEADS),
        ("action", lead in ACTION_LEADS),
        ("functional", lead in FUNCTIONAL_LEADS),
    ]
    for category, hit in checks:
        if hit and supports(category):
            return category
    return None


def _strip_leading(words: list[str]) -> list[str]:
    while words and _leading_word(words[0].lower().replace("\u2019", "'")):
        words = words[1:]
    return words


@lru_cache(maxsize=4096)
def _leading_word(word: str) -> bool:
    """A word that leads a clause without naming anything ("also", "actually"), typed as it
    is or with two letters swapped ("alos", "actaully"): a typo of one is no content."""
    if word in LEADING_STRIP:
        return True
    return len(word) >= 4 and any(_swapped(word, strip) for strip in _LONG_STRIP)


def _swapped(word: str, other: str) -> bool:
    """``word`` is ``other`` with two neighbouring letters swapped."""
    if len(word) != len(other) or word == other:
        return False
    diff = [i for i, (a, b) in enumerate(zip(word, other, strict=True)) if a != b]
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and word[diff[0]] == other[diff[1]]
        and (word[diff[1]] == other[diff[0]])
    )


# The discourse words people mistype as they lead a clause, none of whose swaps is a word
# ("quite" is not here: swapped, it is "quiet").
_LONG_STRIP = tuple(
    w
    for w in "also actually basically honestly literally obviously definitely really".split()
    if w in LEADING_STRIP
)


_KEEP_PRONOUN_AFTER = frozenset(
    "feel felt forget forgot know knew think hope wish notice remember realise realize like".split()
)
# An embedded clause keeps its subject: "choose how hard I work", not "choose how hard work".
_CLAUSE_OPENERS = frozenset("how what when where why whether if".split())
_NO_FEEL_PREFIX = frozenset("feel feels feeling felt not no don't less more".split())
_BEFORE_DETERMINER = frozenset(
    "be is was are am to of about with for like in on at into from by than".split()
)
# Verbs whose object is an if/whether clause: the label keeps it.
_CLAUSE_OBJECT = frozenset("care mind bothered worry worried".split())
_KEEP_BE_AFTER = frozenset("to can could should must would will might may".split())


_PERSONS = frozenset("i we you he she they it".split())
_OWNED = frozenset("mine ours yours theirs hers his".split())


def _drop_copula(words: list[str]) -> list[str]:
    """ "the sound is great" -> "sound"; "the price is too high" -> "price too high";
    "two days on a charge is still plenty" -> "two days on a charge"."""
    for i, word in enumerate(words[:6]):
        if i >= 1 and word.lower() == "be" and words[i - 1].lower() in _KEEP_BE_AFTER:
            return words  # "has to be sharp", "want to be the guy": the verb carries meaning
        if i >= 1 and word.lower() in COPULAS:
            rest = [
                w
                for w in words[i + 1 :]
                if w.lower() not in {"really", "very", "so", "just", "quite", "still"}
            ]
            if (
                len(rest) > 2
                and rest[0].lower() in EVALUATIVE
                and rest[1].lower() == "for"
                and rest[2].lower() not in ("a", "an")  # "decent for a plant one": a kind
            ):
                # "that 6am thing is good for my mental health": what it is good for is named
                named = [w for w in words[:i] if w.lower() not in NAMELESS | _DETERMINERS]
                return (words[:i] if named else []) + rest
            if not rest or rest[0].lower() in EVALUATIVE or rest[0].lower() in verdict_words():
                return words[:i]
            if rest[0].lower() in ("what", "why", "how") and i >= 2:
                return words[:i]  # "the ankle support is what I need" names the support
            if rest[0].lower().endswith("ing") and words[i - 1].lower() in _PERSONS:
                return words  # "I was failing her": the verb's own tense, not a rating
            if i > 3:
                return words  # a long subject and its predicate: the cut below names it
            if len(rest) == 1 and rest[0].lower() in _OWNED:
                return words  # "the bed is mine": whose it is, not a kind of bed
            if len(rest) == 1 and i <= 2:
                return rest + words[:i]  # "the fit is comfortable" -> "comfortable fit"
            return words[:i] + rest
    return words


_LIKE_VERBS = frozenset(
    "i you we they i'd you'd we'd they'd would feel feels felt feeling look looks looked "
    "sound sounds sounded seem seems seemed just don't didn't not really thing things stuff "
    "something anything bits ones more less nothing bit kind sort much exactly".split()
)
_DETERMINERS = frozenset("the a an my our your this that these those his her their".split())


def _filler_like(words: list[str], i: int) -> bool:
    """ "you notice like the brickwork": a "like" that only fills, between a word that cannot
    take it as a verb or a likeness and a determiner."""
    if words[i].lower() != "like" or i == 0 or i + 1 >= len(words):
        return False
    return words[i - 1].lower() not in _LIKE_VERBS and words[i + 1].lower() in _DETERMINERS


def _without_openers(text: str) -> str:
    """``text`` without what opens it and names nothing new: discourse words and a time, a
    condition of using it, which one it is."""
    # "but yeah since the outage I keep a backup sim": the time after the discourse words
    text = TIME_OPENER.sub("", _DISCOURSE_LEAD.sub("", text.strip())).strip(" ,")
    # "with them on I can have a doze": the condition of wearing them names nothing new
    text = re.sub(r"^with\s+(?:them|it|these|those)\s+(?:on|in)\s+", "", text, flags=re.IGNORECASE)
    text = _WHICH_ONE.sub("", text)
    text = re.sub(r"^(?:as long as|provided|assuming)\s+", "", text, flags=re.IGNORECASE)
    # "it gets me a little closer to talking properly with my grandson": where it takes them
    text = _CLOSER.sub("closer to ", text)
    return text


# "with this one I dont have to pull anything": which one it is, said before what it does
# (round 43 made nothing of it)
_WHICH_ONE = re.compile(
    r"^with\s+(?:this|that|the\s+new|this\s+new)\s+\w+\s*,?\s+(?=(?:i|you|we)\b)", re.IGNORECASE
)


def make_label(text: str, cue: Cue | None, category: str | None) -> str:
    """A short label in the respondent's words: 2-6 words, lower case (acronyms kept)."""
    head = _COMMA.split(text)[0]
    if len(content_words(head)) >= 2:
        text = head
    text = _without_openers(text)
    words = _without_fillers(WORD.findall(text))
    if len(words) > 1 and words[0].lower() in ("means", "meant") and words[1].lower() in _ME:
        words = words[1:]  # "Means I get in and sleep": "it means" with its subject unsaid
    prefix = cue.prefix if cue else ""
    words = _without_lead(words, prefix)
    words = [
        w
        for i, w in enumerate(words)
        if i == 0
        or w.lower().replace("\u2019", "'") not in INNER_PRONOUNS
        or words[i - 1].lower() in _KEEP_PRONOUN_AFTER  # "feel I deserve nice things"
        or any(p.lower() in _CLAUSE_OPENERS for p in words[max(0, i - 3) : i])
    ]
    words = _drop_copula(words)
    words = _before_relative(words)
    for i, word in enumerate(words):
        if (i >= 2 and word.lower() in CLAUSE_BREAKS) or (i >= 3 and word.lower() in LATE_BREAKS):
            if word.lower() == "that" and words[i - 1].lower() in _BEFORE_DETERMINER:
                continue  # "be that parent": a determiner, not a new clause
            if word.lower() in ("if", "whether") and words[i - 1].lower() in _CLAUSE_OBJECT:
                continue  # "don't care if they get wrecked": the clause is what is cared about
            if word.lower() in _TIME_PREPS and _time_phrase(words, i):
                continue  # "can sleep after a night shift": a time, not a new clause
            if word.lower() == "after" and words[i - 1].lower() in _LOOK:
                continue  # "look after my family": the verb's own particle
            if word.lower() == "and" and words[i - 1].lower() in _GO_AND:
                continue  # "don't have to go and fetch it": one doing
            if all(w.lower() in _TIMEISH for w in words[:i]):
                continue  # "one evening a week that's not laundry": the clause says which
            # a negation names nothing: "don't worry" is one word short of cutting at "when"
            kept = [
                w for w in content_words(" ".join(words[:i])) if w.replace("'", "") not in NEGATIONS
            ]
            if len(kept) >= 2 or (i >= 3 and kept):
                words = words[:i]  # not "stay" for "stay in while cycling"
                break
    if prefix and words and words[0].lower() == prefix.split()[0]:
        prefix = ""
    if prefix:
        words = prefix.split() + words
    words = _shorten(words)
    if is_empty_label(words):
        return ""
    # a quote mark is no part of a word: "it's 'pulling the cord', dear" -> "pulling the cord"
    words = [words[0].lstrip("'\u2018"), *words[1:]]
    words[-1] = words[-1].rstrip("'\u2019")
    label = " ".join(_case(w) for w in words if w)
    return label.replace("\u2019", "'")


_CLOSER = re.compile(
    r"^(?:it\s+|that\s+)?(?:gets|brings|takes|got|brought)\s+(?:me|us)\s+"
    r"(?:a\s+(?:little|bit|step|lot)\s+|one\s+step\s+|much\s+)?closer\s+to\s+",
    re.IGNORECASE,
)


def _without_fillers(words: list[str]) -> list[str]:
    """The words with their fillers out: "basically", a "like" that only fills, and the
    politeness of "I'd rather like to be more than ..." (round 23: "rather like")."""
    words = [w for w in words if w.lower() not in INNER_FILLERS]
    words = [w for i, w in enumerate(words) if not _filler_like(words, i)]
    return [
        w
        for i, w in enumerate(words)
        if not (w.lower() == "rather" and i + 1 < len(words) and words[i + 1].lower() == "like")
    ]


def _before_relative(words: list[str]) -> list[str]:
    """ "spin which I do with my friend": the thing, not "spin which do" (round 22)."""
    if len(words) > 2 and words[1].lower() in ("which", "who") and content_words(words[0]):
        return words[:1]
    return words


_TIMEISH = frozenset(
    "a an one two every each day days evening evenings night nights morning mornings week "
    "weeks weekend weekends month year afternoon time times".split()
)
_GO_AND = frozenset("go goes went come comes came try".split())
_VERBS_AFTER_TO = frozenset(
    "think like love enjoy prefer guess mean suppose do have be worry".split()
)
_DISCOURSE_LEAD = re.compile(
    r"^(?:(?:but|and|so|yeah|yes|well|oh|also|although|though)\b[\s,]*)+", re.IGNORECASE
)
_TIME_PREPS = frozenset("after before until".split())
_ME = frozenset("i i'm i'd i'll i've we we're we'd you you're".split())
_LOOK = frozenset("look looks looking looked take takes".split())
_TIME_STARTS = frozenset("a an every each work school lunch dinner breakfast dark".split())


def _without_lead(words: list[str], prefix: str) -> list[str]:
    """The words without what leads them and names nothing ("I", "well", "I like"), unless
    the cue's ``prefix`` needs the first one: after a frame ending in "to" it is its verb ("so
    I don't have to think about dinner" is "don't have to think about dinner", not "don't
    have to dinner"), after "feel" a "like" ("feel like a good parent")."""
    first = words[0].lower() if words else ""
    if (prefix.split()[-1:] == ["to"] and first in _VERBS_AFTER_TO) or (
        prefix == "feel" and first == "like"
    ):
        return words
    spoken = words
    words = _strip_leading(words)
    if words and words[0].lower() in OPINION_LEADS and not _WH_OBJECT.match(" ".join(words[1:2])):
        # ("using what you've got" keeps its verb: what it is used for is a clause)
        words = _strip_leading(words[1:])
    return _keep_possessive(spoken, _keep_do(spoken, words))


_WH_OBJECT = re.compile(r"(?:what|whatever|whoever|how)$", re.IGNORECASE)


def _time_phrase(words: list[str], at: int) -> bool:
    """ "after a night shift", "after fifteen years", "before work": a phrase with no subject,
    kept when the label still fits ("dinner on the table before seven" is cut as before)."""
    word = words[at + 1].lower() if at + 1 < len(words) else ""
    if not (word in _TIME_STARTS or word in _NUMBER_WORDS or word.isdigit()):
        return False
    breaks = CLAUSE_BREAKS | LATE_BREAKS
    end = next((j for j in range(at + 1, len(words)) if words[j].lower() in breaks), len(words))
    return end <= MAX_LABEL_WORDS


def _case(word: str) -> str:
    """Lower case, except acronyms ("ID") and the pronoun I ("feel I deserve nice things")."""
    if sum(ch.isupper() for ch in word) >= 2:
        return word
    lower = word.lower()
    if lower == "i" or lower.startswith(("i'", "i\u2019")):
        return "I" + lower[1:]
    return lower


def _keep_do(spoken: list[str], words: list[str]) -> list[str]:
    """ "They do the job" is "do the job", not "job": a lone noun after "do" keeps the verb."""
    if len(words) != 1 or len(spoken) < 3:
        return words
    at = len(spoken) - 1
    if spoken[at - 1].lower() in ("the", "a", "its", "their", "what") and at >= 2:
        if spoken[at - 2].lower() in ("do", "does", "did"):
            return spoken[at - 2 :]
    return words


_POSSESSIVES = frozenset("my our their his her your".split())
# Nouns that say little without whose they are ("time" of "it's my time"); "freedom" or
# "privacy" stand alone.
_WHOSE = frozenset("time day life way money space place".split())


def _keep_possessive(spoken: list[str], words: list[str]) -> list[str]:
    """ "It's my time" is "my time", not "time": a lone general noun keeps whose it is."""
    if len(words) != 1 or words[0].lower() not in _WHOSE or words[0] not in spoken:
        return words
    at = len(spoken) - 1 - spoken[::-1].index(words[0])
    if at >= 1 and spoken[at - 1].lower() in _POSSESSIVES:
        return spoken[at - 1 : at + 1]
    return words


def is_empty_label(words: list[str]) -> bool:
    """Nothing in these words names an element: pronouns, fillers, ratings, "again", "not"."""
    return naming_words(" ".join(words), NAMELESS | LABEL_NAMELESS) == 0


# Verbs that say nothing until what follows them: a label never ends on one ("bad extraction
# gets", cut from "what the bad extraction gets in the way of", round 23).
_LIGHT_ENDS = frozenset("get gets getting takes took makes gives".split())


def _shorten(words: list[str]) -> list[str]:
    """At most MAX_LABEL_WORDS words: drop pronouns and articles inside before cutting, and
    never end on a dangling word ("charge them every" -> "charge every day") or a number
    ("get there and back on one" -> "get there and back")."""
    said = [w.lower() for w in words]
    kept = list(range(len(words)))  # where each word left stood as said
    if len(words) > MAX_LABEL_WORDS:
        kept = [i for i, w in enumerate(words) if i == 0 or w.lower() not in DISPENSABLE]
        words = [words[i] for i in kept]
    if len(words) > MAX_LABEL_WORDS and [w.lower() for w in words[:2]] in _TRYING:
        words = words[2:]  # "trying to be good at my job": what they try for says it
    if len(words) > MAX_LABEL_WORDS:
        words = words[:MAX_LABEL_WORDS]
        after = kept[MAX_LABEL_WORDS - 1] + 1 if len(kept) >= MAX_LABEL_WORDS else len(said)
        cut = said[after] if after < len(said) else ""
        # nor on a number whose noun the limit cut: "back on one charge" -> "back"
        whole = False  # the limit fell between two phrases: the one before it is whole
        if words[-1].lower() in _PARTICLES and cut in _NOUN_OPENERS and len(words) > 2:
            # "getting to work on time up | the hills": the "up" led a place (round 57's
            # summary read back "getting to work on time up")
            words.pop()
            whole = True
        while len(words) > 1 and words[-1].lower() in DANGLING | _NUMBER_WORDS:
            if LOAD_OFF.search(" ".join(words)):
                break  # "one less thing to think about" ends where it should
            # ("in middle of call": an "of" hangs on the noun before it, nothing is whole)
            whole = whole or words[-1].lower() in _CUT_BEFORE - {"of"}
            words.pop()
        # Cut before a phrase the limit would break: "focus on their work", not "focus on
        # their work without office"; "something to do in garage" stays whole.
        at = max((i for i, w in enumerate(words) if _cut_before(words, i)), default=0)
        if at >= 3 and not whole:
            words = words[:at]
    if len(words) > 2 and [w.lower() for w in words[-2:]] == ["to", "be"]:
        words = words[:-2]  # "enough prot per pot to be (worth it)": what it is to be went
    while words and words[-1].lower() in TRAILING_STRIP:
        last, before = words[-1].lower(), words[-2].lower() if len(words) > 1 else ""
        if last in _OBJECTS and (
            len(words) == 2 or (len(words) >= 3 and before in _PREPS | _FOND_OF)
        ):
            break  # "don't have to think about it", "open it", "the kids love it"
        if last in _PARTICLES and before and before not in DANGLING:
            break  # "stay in", "put them on": the particle is part of the verb
        words.pop()
    if len(words) > 2 and words[-1].lower() in _LIGHT_ENDS:
        words = words[:-1]
    if len(words) > 2 and words[-1].lower() == "like" and words[-2].lower() in _PREPS:
        # "woke up at like 6:40" with the time gone: the "like" only filled (round 23)
        words = _shorten(words[:-1])
    return words


# "a bunch of coriander", "the tablespoon of gochujang": the "of" names what is measured
_MEASURES = frozenset(
    """bunch lot lots pile load loads bag bags pack packet tin jar bottle cup mug glass slice
    piece bit handful couple pinch spoon spoonful tablespoon teaspoon thumb clove head tub
    box carton portion""".split()
)


def _cut_before(words: list[str], i: int) -> bool:
    """A phrase the word-limit may cut before: a preposition, but not the "of" of a measure."""
    word = words[i].lower()
    if word == "of" and i and words[i - 1].lower() in _MEASURES:
        return False
    return word in _CUT_BEFORE


_TRYING = (["trying", "to"], ["try", "to"], ["just", "trying"])
_NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty"
    " fifty hundred".split()
)
_CUT_BEFORE = frozenset("at of in with without for from into by during after before".split())
_PARTICLES = frozenset("in on out up off down back away over".split())
_NOUN_OPENERS = frozenset("the a an my our his her their your this that these those".split())


_OBJECTS = frozenset("it them this that you".split())
_FOND_OF = frozenset(
    "love loves loved like likes liked hate hates enjoy enjoys adore adores".split()
)
_PREPS = frozenset("about of with for on at to without from into over in".split())


def normal(label: str) -> str:
    """A lookup key for labels: lower case words only."""
    return " ".join(WORD.findall(label.lower().replace("\u2019", "'")))


def quoted_at(answer: str, node: ExtractedNode) -> int:
    """Where ``node``'s quote stands in ``answer`` (its end when it is not there): the order
    the respondent said things in."""
    at = answer.find(node.quote)
    return at if at >= 0 else len(answer)
