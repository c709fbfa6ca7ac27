"""Cutting an answer into clauses and naming each one (offline extraction, step 1).

An answer is split into sentences, each sentence at the cue phrases of ``lexicon.CUES``.
Hedges, fillers and "don't know" phrases are first blanked out (replaced by spaces, so
every offset still points into the original answer and quotes stay verbatim). Each clause
keeps the cue that opened it (how it links to the clause before) and a semantic category
from its words; ``labels`` names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from interview_cli.llm.offline.lexicon import (
    BARE_MEANS,
    BARE_SO,
    CONFIRMATIONS,
    CUES,
    DEFERRAL,
    DISLIKE_VERBS,
    DONT_KNOW,
    IMPORTANCE,
    LEADING_STRIP,
    MEANS_IDIOMS,
    MEANS_NOUN_AFTER,
    MEANS_NOUN_BEFORE,
    SO_AFTER_VERB,
    SO_BOUNDARY,
    SO_PERSONAL,
    SO_SUBJECTS,
    TERMINAL_CEILING,
    TRAILING_STRIP,
    Cue,
)
from interview_cli.llm.offline.reading.categories import lexical_category
from interview_cli.llm.offline.reading.meta import VERDICT, blank_meta

MAX_LABEL_WORDS = 6
WORD = re.compile(r"\d+(?:\.\d+)+|[\w][\w'\u2019\-]*")
_STRENGTH = {"up": 5, "down": 5, "sequence": 4, "assoc": 3, "sibling": 2, "none": 1}
_NOISE = re.compile(
    r"\b(?:you know|i mean|to be honest|honestly|(?:kind|sort) of(?! (?:person|people|thing))|"
    r"kinda|maybe|perhaps|i guess|i suppose|i think(?! it'?s because| it was because)|probably|"
    r"possibly|um+|uh+|erm|hmm+)\b",
    re.IGNORECASE,
)
# A question back ("Why does anyone do anything?", "What do you want me to say?") and a
# tautology ("Boots are boots.", "it is what it is") say nothing about the topic.
# (A sentence that opens like a question; "maybe the face ID login?" is a tentative answer.)
_QUESTION_BACK = re.compile(
    r"(?:^|(?<=[.!?] ))(?:why|what|how|who|where|when|do|does|did|is|are|isn'?t|aren'?t|can|"
    r"could|would|should|will)\b[^.!?]*\?",
    re.IGNORECASE,
)
_TAUTOLOGY = re.compile(r"\b(\w+) (?:is|are) (?:what \w+ (?:is|are)|\1)\b", re.IGNORECASE)
# "the main thing is the fit": the frame says which one counts, the node is "fit". ("They
# do the job" stays: for a respondent who cares little, that it works is the attribute.)
_RATING_IDIOMS = re.compile(
    r"\b(?:the\s+)?(?:main|big|biggest|most important|only|key|whole)\s+(?:thing|point|reason)"
    r"(?:\s+for\s+me)?(?:\s+(?:is|was|'s))?\b|\b(?:which|that)\s+is\s+the\s+whole\s+point\b|"
    r"\bthe\s+point\s+(?:is|was)\b|"
    # what a correction says they meant: "it's more that the foam ...", "I was saying ..."
    r"\b(?:it'?s|it\s+is)\s+more\s+that\b|\bwhat\s+i\s+meant\s+(?:is|was)\b|"
    r"\bi\s+was\s+saying(?:\s+that)?\b|"
    # a rating, not an element: "the price was fine, nothing special"
    r"\bnothing\s+(?:special|fancy|amazing|to\s+write\s+home\s+about)\b|" + VERDICT,
    # a verdict with no reason in it: "it was the sensible choice", "it just made sense"
    re.IGNORECASE,
)
# Frames of a third-person or an absence answer: "someone like me cares because ...",
# "without it I'd have to ...": the frame is the question's, what follows is the answer.
_FRAMES = re.compile(
    # "it's not the fees so much, it's that ...": what it is not is no element
    r"\b(?:it'?s|that'?s|it\s+is)\s+not\s+(?:really\s+)?(?:about\s+)?[^,.;!?]{1,40}?"
    r"(?:\s+so\s+much|\s+really)?\s*,\s*(?:(?:it'?s|but)\s+)?(?:more\s+|rather\s+)?"
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
_SENTENCE_END = re.compile(r"(?:(?<!\d)\.|\.(?!\d)|[!?;\n])+")
_EDGE_WORDS = re.compile(
    r"^(?:(?:and|but|or|so|then|because)\b[\s,]*)+|(?:[\s,]*\b(?:and|but|or|so|then))+$",
    re.IGNORECASE,
)


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
    r",\s+(?=(?:i|we)\s+(?!mean\b|guess\b|think\b|suppose\b|know\b|said\b|say\b)\w)",
    re.IGNORECASE,
)
_COMMA_CUE = Cue(",", "sibling")


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


def _cue_pattern() -> re.Pattern[str]:
    phrases = sorted({c.phrase for c in CUES}, key=len, reverse=True)
    parts = []
    for phrase in phrases:
        body = re.escape(phrase).replace(r"\ ", r"\s+").replace("'", "['\u2019]")
        lead = "" if phrase.startswith(",") else r"(?<![\w'\u2019])"
        # "it lets me relax" opens a reason; "it won't let me down" is the phrasal verb
        down = r"(?!\s+down\b)" if re.search(r"\blets?\s+me$", phrase) else ""
        parts.append(lead + body + r"(?![\w'\u2019])" + down)
    return re.compile("|".join(parts), re.IGNORECASE)


_CUE_RE = _cue_pattern()
_CUES_BY_PHRASE = {c.phrase: c for c in CUES}


def _cue_for(matched: str) -> Cue:
    key = " ".join(matched.lower().replace("\u2019", "'").split())
    if key.startswith(","):
        key = ", " + key[1:].strip()
    return _CUES_BY_PHRASE[key]


def blank(answer: str) -> str:
    """The answer with hedges, fillers, importance and don't-know phrases, and remarks about
    the interview ("like I said", "can we move on?"), replaced by spaces."""
    working = list(blank_meta(answer))
    for pattern in (
        _NOISE, _RATING_IDIOMS, _FRAMES, IMPORTANCE, DONT_KNOW, TERMINAL_CEILING, CONFIRMATIONS,
        DEFERRAL, _QUESTION_BACK, _TAUTOLOGY,
    ):  # fmt: skip
        for match in pattern.finditer(answer):
            for i in range(match.start(), match.end()):
                working[i] = " "
    return "".join(working)


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
        if previous in _NEGATORS and not cue.phrase.startswith(_CONNECTIVES):
            # "not feel like a dinosaur": the negation belongs to what the cue introduces,
            # and cutting there would leave a node "not" and lose the negation.
            continue
        if cue.phrase in BARE_SO:
            after = sentence[match.end() :].split()
            pronoun = (
                cue.phrase.split()[1]
                if cue.phrase != "so"
                else (after[0].lower().strip(",") if after else "")
            )
            subject = cue.phrase != "so" or pronoun in SO_SUBJECTS
            personal = pronoun in SO_PERSONAL and previous not in SO_AFTER_VERB
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
        # "it just works, I don't have to fiddle with it": a second statement after a comma
        # is an element of its own, like the first, not the tail of one long label.
        at = offset + match.end()
        if not any(abs(start - at) <= 12 for start, _, _ in cuts):
            cuts.append((at, at, _COMMA_CUE))
    cuts.sort(key=lambda cut: cut[0])
    return cuts


def split_clauses(answer: str, active: Callable[[Cue], bool] = lambda cue: True) -> list[Clause]:
    """Clauses of the answer, cut at the cue phrases ``active`` accepts (all by default)."""
    working = blank(answer)
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
                )
            )
            carried, carried_quote = None, None
    return clauses


def list_parts(clause: Clause) -> list[Clause]:
    """A plain list of short noun phrases ("light and comfortable", "the sound, the fit")
    as sibling clauses; [] when the clause is not such a list."""
    if lexical_category(clause.text) is not None:
        return []
    chunks: list[str] = []
    for segment in clause.text.split(","):
        pieces = [p for p in re.split(r"\s*\b(?:and|or)\b\s*", segment) if p.strip()]
        if len(pieces) == 2 and len(content_words(pieces[0])) == 1 < len(content_words(pieces[1])):
            pieces = [segment.strip()]  # "a full and rich life": two words for one noun
        elif len(pieces) == 2 and _SHARED_PREPOSITION.search(pieces[0]):
            pieces = [segment.strip()]  # "data for the satnav and the app": one "for"
        chunks.extend(p.strip() for p in pieces if p.strip())
    if len(chunks) < 2 or any(not 0 < len(content_words(c)) <= 3 for c in chunks):
        return []
    parts: list[Clause] = []
    cursor = 0
    for chunk in chunks:
        at = clause.text.find(chunk, cursor)
        cursor = at + len(chunk)
        start = clause.start + at
        parts.append(Clause(chunk, start, start + len(chunk), start, clause.cue, clause.sentence))
    parts[0].quote_start = clause.quote_start
    return parts


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
