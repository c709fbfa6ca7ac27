"""Discourse hints for extraction: causal and temporal markers and simple predicate frames.

Implements stage 2.5 of seed 001 "The Turn Pipeline" (``SRLPreprocessingStage``) and seed 002
Path 15, without a required dependency: the seed runs spaCy, here a small rule set finds

- **discourse relations** at causal markers ("because", "so that", "which means", "therefore",
  "that's why", ...) and temporal markers ("when", "before", "after", "while", "since", ...),
  normalised so that the first clause leads to / is the situation of / happens before the
  second whatever order the respondent said them in ("X because Y" -> Y leads to X);
- **predicate frames**: subject + verb + object from a short pattern list ("I want coffee
  ready" -> want(subject=I, object=coffee ready)), copulas as be(subject, attribute).

The result is rendered as short hint strings for ``ExtractRequest.discourse_hints`` (the
extraction prompt quotes them as data). A ``FrameParser`` (e.g. the spaCy adapter in
``llm.embeddings``, used only when the user installed spaCy and a model) may replace the
pattern frames; markers always come from the rules, so the output does not depend on which
parser is installed for them. Pure and deterministic: same text, same hints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from interview_cli.core.text import STOPWORDS

RelationKind = Literal["causal", "temporal"]
Relation = Literal["leads_to", "reason_for", "context_of", "precedes"]
Direction = Literal["forward", "backward"]

MAX_HINTS = 8
MAX_FRAMES = 4
CLAUSE_WORDS = 10


@dataclass(frozen=True)
class Marker:
    """A cue phrase. ``forward``: the clause before it leads to / precedes the one after it
    ("X so that Y", "X before Y"); ``backward``: the clause after it comes first ("X because
    Y": Y is the reason given for X; "X after Y", "X when Y").

    "because" stays a *reason given*, not a cause: in laddering "I like X because Y" names Y
    as what X is for (X leads to Y), in a plain causal account Y causes X. Which edge it
    becomes is the extraction's call, by the methodology's ontology."""

    phrase: str
    kind: RelationKind
    relation: Relation
    direction: Direction


MARKERS: tuple[Marker, ...] = tuple(
    sorted(
        (
            Marker("so that", "causal", "leads_to", "forward"),
            Marker("in order to", "causal", "leads_to", "forward"),
            Marker("which means", "causal", "leads_to", "forward"),
            Marker("that means", "causal", "leads_to", "forward"),
            Marker("which makes", "causal", "leads_to", "forward"),
            Marker("which lets", "causal", "leads_to", "forward"),
            Marker("which helps", "causal", "leads_to", "forward"),
            Marker("thats why", "causal", "leads_to", "forward"),
            Marker("that is why", "causal", "leads_to", "forward"),
            Marker("therefore", "causal", "leads_to", "forward"),
            Marker("as a result", "causal", "leads_to", "forward"),
            Marker("thus", "causal", "leads_to", "forward"),
            Marker("hence", "causal", "leads_to", "forward"),
            Marker("so", "causal", "leads_to", "forward"),
            Marker("because of", "causal", "reason_for", "backward"),
            Marker("because", "causal", "reason_for", "backward"),
            Marker("cause", "causal", "reason_for", "backward"),
            Marker("due to", "causal", "reason_for", "backward"),
            Marker("since", "causal", "reason_for", "backward"),  # temporal when a time follows
            Marker("as soon as", "temporal", "context_of", "backward"),
            Marker("whenever", "temporal", "context_of", "backward"),
            Marker("when", "temporal", "context_of", "backward"),
            Marker("while", "temporal", "context_of", "backward"),
            Marker("once", "temporal", "context_of", "backward"),
            Marker("before", "temporal", "precedes", "forward"),
            Marker("until", "temporal", "precedes", "forward"),
            Marker("and then", "temporal", "precedes", "forward"),
            Marker("then", "temporal", "precedes", "forward"),
            Marker("after", "temporal", "precedes", "backward"),
        ),
        key=lambda m: -len(m.phrase),
    )
)
_MARKER_RE = re.compile(r"\b(" + "|".join(re.escape(m.phrase) for m in MARKERS) + r")\b")
_BY_PHRASE = {m.phrase: m for m in MARKERS}

# "so" is a connective only before a subject ("so I can"), not an intensifier ("so comfy").
_SUBJECT_WORDS = frozenset("i we you they he she it that this there my our your their".split())
# "since" is temporal before a point in time ("since 2019", "since last year").
_TIME_WORDS = frozenset(
    """last then childhood forever ages years months weeks days yesterday covid the
    pandemic january february march april may june july august september october
    november december school university""".split()
)
_SINCE_TEMPORAL = Marker("since", "temporal", "precedes", "backward")
_LEADING = re.compile(r"^(?:and|but|or|so|then|also|well|just|um|uh|like)\b[\s,]*")
_SENTENCES = re.compile(r"[.!?;\n]+")
_APOSTROPHES = re.compile(r"['\u2019\u2018`]")


@dataclass(frozen=True)
class DiscourseRelation:
    """``first`` leads to / is the reason given for / is the situation of / happens before
    ``second`` (``relation``)."""

    kind: RelationKind
    relation: Relation
    marker: str
    first: str
    second: str

    def hint(self) -> str:
        verb = {
            "leads_to": "leads to",
            "reason_for": "is the reason given for",
            "context_of": "is the situation of",
            "precedes": "happens before",
        }
        return f'{self.kind} ({self.marker}): "{self.first}" {verb[self.relation]} "{self.second}"'


@dataclass(frozen=True)
class PredicateFrame:
    """Who does what to what: ``predicate(subject=..., object=...)``, negation kept."""

    predicate: str
    subject: str
    object: str = ""
    negated: bool = False

    def hint(self) -> str:
        parts = [f'subject="{self.subject}"']
        if self.object:
            role = "attribute" if self.predicate == "be" else "object"
            parts.append(f'{role}="{self.object}"')
        neg = "not " if self.negated else ""
        return f"frame: {neg}{self.predicate}({', '.join(parts)})"


@runtime_checkable
class FrameParser(Protocol):
    """An optional syntactic parser (spaCy) that finds predicate frames in an answer."""

    def frames(self, text: str) -> Sequence[PredicateFrame]: ...


@dataclass(frozen=True)
class DiscourseAnalysis:
    relations: tuple[DiscourseRelation, ...] = ()
    frames: tuple[PredicateFrame, ...] = field(default_factory=tuple)

    def hints(self, limit: int = MAX_HINTS) -> list[str]:
        """Relations first (they carry the edges extraction most often misses), then frames."""
        out = [r.hint() for r in self.relations] + [f.hint() for f in self.frames]
        return list(dict.fromkeys(out))[:limit]


# --------------------------------------------------------------------------------------------


def _clean(text: str) -> str:
    text = _APOSTROPHES.sub("", text.casefold())
    return " ".join(re.sub(r"[^\w\s,]", " ", text).split())


def _clause(text: str) -> str:
    text = text.strip(" ,")
    while True:
        stripped = _LEADING.sub("", text).strip(" ,")
        if stripped == text:
            break
        text = stripped
    words = text.split()
    return " ".join(words[:CLAUSE_WORDS]) + (" …" if len(words) > CLAUSE_WORDS else "")


def _marker_at(sentence: str, match: re.Match[str]) -> Marker | None:
    marker = _BY_PHRASE[match.group(1)]
    after = sentence[match.end() :].split()
    nxt = after[0].strip(",") if after else ""
    if marker.phrase == "so" and nxt not in _SUBJECT_WORDS:
        return None
    if (
        marker.phrase == "then"
        and sentence[: match.start()].strip()
        and not sentence[: match.start()].rstrip().endswith(",")
    ):
        return None  # "then" mid-clause ("back then") is not a sequence marker
    if marker.phrase == "since" and (nxt in _TIME_WORDS or nxt[:1].isdigit()):
        return _SINCE_TEMPORAL
    if marker.phrase == "cause" and nxt not in _SUBJECT_WORDS:
        return None  # spoken "'cause I ..." only, never the noun ("the cause of")
    return marker


# Markers that open a subordinate clause when they start a sentence ("When X, Y").
_SUBORDINATORS = frozenset(
    (
        "because",
        "because of",
        "cause",
        "due to",
        "since",
        "as soon as",
        "whenever",
        "when",
        "while",
        "once",
        "before",
        "until",
        "after",
        "in order to",
        "so that",
    )
)
_MAIN_SUBJECT = re.compile(r"\s(?=(?:i|we|you|they|he|she|my|our)\s)")


def _split_main(text: str) -> tuple[str, str]:
    """(subordinate clause, main clause) of "X, Y" - or of "X Y" split before Y's subject."""
    if "," in text:
        sub, main = text.split(",", 1)
        return sub, main
    split = _MAIN_SUBJECT.search(text, 1)
    return (text[: split.start()], text[split.end() :]) if split else (text, "")


def _relations(sentence: str, previous: str) -> list[DiscourseRelation]:
    found = [(m, mk) for m in _MARKER_RE.finditer(sentence) if (mk := _marker_at(sentence, m))]
    out: list[DiscourseRelation] = []
    for i, (match, marker) in enumerate(found):
        start = found[i - 1][0].end() if i else 0
        end = found[i + 1][0].start() if i + 1 < len(found) else len(sentence)
        left, right = sentence[start : match.start()], sentence[match.end() : end]
        if not left.strip(" ,") and i == 0:
            if marker.phrase in _SUBORDINATORS:
                # "Because X, Y" says what "Y because X" says: Y is the main clause.
                right, left = _split_main(right)
            elif marker.direction == "forward":
                left = previous  # "So I ...": the previous sentence is what leads here
        first, second = _clause(left), _clause(right)
        if not first or not second:
            continue
        if marker.direction == "backward":
            first, second = second, first
        out.append(DiscourseRelation(marker.kind, marker.relation, marker.phrase, first, second))
    return out


_AUX = (
    r"(?:(?:really|just|always|usually|often|never|also|still|dont|do not|cant|cannot|can|"
    r"could|would|will|want to|need to|have to|like to|love to|try to|get to|wont|didnt|did "
    r"not|not)\s+)*"
)
_PRONOUN_FRAME_RE = re.compile(rf"\b(i|we|you|they|he|she|it)\s+({_AUX})(\w+)\s*([^,]*)")
# A noun-phrase subject: a determiner and one to three words ("my old pair broke"). Which word
# is the verb is not written down, so the shortest subject whose next word looks like a verb
# wins ("the sound quality matters", not "the sound" doing "quality").
_DETERMINERS = "the|my|our|this|that|these|those|their|your|his|her"
_NP_START = re.compile(rf"\b(?:{_DETERMINERS})\b")
_AFTER_SUBJECT = re.compile(rf"({_AUX})(\w+)\s*([^,]*)")
_IRREGULAR_PAST = frozenset(
    "broke made kept got gave felt took went came fell ran lost left sold won wore tore held "
    "brought bought thought told found sent spent stood paid heard saw".split()
)
_COPULAS = frozenset("am is are was were im its theyre be".split())
_CLAUSE_BREAK = re.compile(
    r"\s*,\s*|\b(?:" + "|".join(re.escape(m.phrase) for m in MARKERS) + r"|which|and)\b"
)
_NEGATORS = ("dont", "do not", "cant", "cannot", "never", "wont", "didnt", "did not", "not")
# Function words are not predicates, except the light verbs respondents use all the time.
_LIGHT_VERBS = frozenset("get got getting do does did have has had".split())
_CONTRACTIONS = (
    (re.compile(r"\bim\b"), "i am"),
    (re.compile(r"\bive\b"), "i have"),
    (re.compile(r"\bits\b"), "it is"),
    (re.compile(r"\btheyre\b"), "they are"),
)


def _verb_like(word: str, aux: str) -> bool:
    """Whether ``word`` after a noun phrase can be its verb (no part-of-speech tagger here)."""
    return bool(
        aux
        or word in _COPULAS
        or word in _LIGHT_VERBS
        or word in _IRREGULAR_PAST
        or word.endswith("ed")
        or (word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3)
    )


def _frame_match(clause: str) -> tuple[str, str, str, str] | None:
    """(subject, auxiliaries, verb, rest) of the first frame in ``clause``."""
    found: list[tuple[int, tuple[str, str, str, str]]] = []
    pronoun = _PRONOUN_FRAME_RE.search(clause)
    if pronoun is not None:
        subject, aux, verb, rest = pronoun.groups()
        found.append((pronoun.start(), (subject, aux, verb, rest)))
    for det in _NP_START.finditer(clause):
        if found and det.start() > found[0][0]:
            break  # a frame starts earlier
        words = clause[det.end() :].split()
        for size in (1, 2, 3):  # the shortest subject whose next word is verb-like
            after = _AFTER_SUBJECT.match(" ".join(words[size:])) if len(words) > size else None
            if after is None:
                break
            aux, verb, rest = after.groups()
            if _verb_like(verb, aux):
                subject = " ".join([det.group(0), *words[:size]])
                found.append((det.start(), (subject, aux, verb, rest)))
                break
        if len(found) > (pronoun is not None):
            break
    return min(found)[1] if found else None


def _frames(sentence: str) -> list[PredicateFrame]:
    out: list[PredicateFrame] = []
    for pattern, expanded in _CONTRACTIONS:
        sentence = pattern.sub(expanded, sentence)
    for clause in _CLAUSE_BREAK.split(sentence):
        match = _frame_match(clause)
        if match is None:
            continue
        subject, aux, verb, rest = match
        if verb not in _COPULAS and verb in STOPWORDS and verb not in _LIGHT_VERBS:
            continue
        negated = any(re.search(rf"\b{n}\b", aux) for n in _NEGATORS)
        obj = " ".join(rest.split()[:6])
        predicate = "be" if verb in _COPULAS else verb
        out.append(PredicateFrame(predicate, subject, obj, negated))
    return out


def analyse_discourse(text: str, *, parser: FrameParser | None = None) -> DiscourseAnalysis:
    """Relations and frames of one answer (see the module docstring)."""
    relations: list[DiscourseRelation] = []
    frames: list[PredicateFrame] = []
    previous = ""
    for raw in _SENTENCES.split(text):
        sentence = _clean(raw)
        if not sentence:
            continue
        relations += _relations(sentence, previous)
        if parser is None:
            frames += _frames(sentence)
        previous = sentence
    if parser is not None:
        frames = list(parser.frames(text))
    unique = tuple(dict.fromkeys(frames))[:MAX_FRAMES]
    return DiscourseAnalysis(tuple(dict.fromkeys(relations)), unique)


def discourse_hints(
    text: str, *, parser: FrameParser | None = None, limit: int = MAX_HINTS
) -> list[str]:
    """Short hint strings for ``ExtractRequest.discourse_hints`` (empty for plain answers)."""
    return analyse_discourse(text, parser=parser).hints(limit)


__all__ = [
    "MARKERS",
    "DiscourseAnalysis",
    "DiscourseRelation",
    "FrameParser",
    "Marker",
    "PredicateFrame",
    "analyse_discourse",
    "discourse_hints",
]
