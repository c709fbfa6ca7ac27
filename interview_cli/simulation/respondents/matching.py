"""Matching what was said (graph labels, interviewer focus labels) to a persona's meanings.

Two places need to know which rung of which ladder a label stands for: the offline respondent
(the interviewer asks about "the ANC": which rung is that, so which rung comes next?) and the
ground-truth evaluation (which of the persona's rungs ended up in the graph?). Both use
:func:`label_score` so they agree.

A label names a rung when it matches the rung's code or one of its sayings (``Rung.says``, the
person's own words; the respondent also knows what it misspoke, ``Rung.misspoken``, which the
evaluation never counts):

1. the same words after normalisation (case, punctuation, apostrophes) - score 1.0;
2. a contiguous part of the other that keeps at least half of the longer one's content words
   (a third when it is the start, after a leading "the", "my"...: the offline extractor cuts
   labels at clause breaks, "not stressed before trips" becomes "not stressed", "the high
   ankle that laces up tight" becomes "high ankle"; it adds frame words: "feel peace of mind")
   - score 0.8 .. 1.0 by coverage;
3. the same content words in another order or with other words between them ("motor does
   donkey work" names "the motor does the donkey work up Bank Road"), each word allowed a
   slip of the keys ("definately", "batery"), as long as they keep half of the longer's
   content words - score 0.75 .. 0.95 by coverage;
4. otherwise rapidfuzz: the better of the plain and token-sorted ratio of the normalised
   strings ("feel deserve nice things" vs "feel I deserve nice things").

So a typo'd or reworded label counts, and a fragment of backstory ("nine years", "my knee
op") does not: it shares too few content words with any saying.

Negation must agree ("stressed" is not "not stressed"), unless the longer one's negation lies
in a tail the shorter one left out ("spins fourteen hundred" names "it spins fourteen hundred
without walking across the floor"). ``MATCH_THRESHOLD`` is the bar for
all of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA, Levenshtein

from interview_cli.config.schemas import Methodology, Persona, Rung
from interview_cli.core.text import NEGATIONS, LabelProfile, label_profile, normalise

MATCH_THRESHOLD = 0.8
# A part of a label counts only if it keeps this share of the rung's content words.
MIN_PART_COVERAGE = 0.5
MIN_PREFIX_COVERAGE = 0.33
# A person knows their own words asked back, one after another, when they name this share of
# what the saying names (its content words, the pointing ones aside: ``_POINTING``).
OWN_WORDS_SHARE = 0.2
# Two content words are one with a slip of the keys: at least this long, and at least this
# rapidfuzz ratio apart ("batery" / "battery" 92, "motr" / "motor" 89, "definately" /
# "definitely" 90; "cheap" / "cheat" is 80 and "want" / "went" 75: they stay two words).
SLIP_MIN_LENGTH = 4
SLIP_RATIO = 85.0


@dataclass(frozen=True)
class RungRef:
    """Where a rung sits: ladder index, rung index (0 = most concrete) and its typed rung."""

    ladder: int
    index: int
    rung: Rung

    @property
    def code(self) -> str:
        return self.rung.code


# Words a rung may open with that a label drops ("the high ankle ..." said as "high ankle",
# "I can sleep ..." as "can sleep", "it's still going ..." as "still going"), as normalised.
_DETERMINER = re.compile(
    r"^(?:(?:the|a|an|my|our|his|her|their|your|this|that|these|those|i|im|ive|id|it|its|"
    r"we|weve|they|theyre|you|youre|he|hes|she|shes)\s+)+"
)


def _contiguous(part: str, whole: str) -> bool:
    return f" {part} " in f" {whole} "


@lru_cache(maxsize=65536)
def label_score(a: str, b: str) -> float:
    """How well label ``a`` names the same thing as label ``b`` (0..1, symmetric enough).
    Cached: the same focus labels meet the same sayings turn after turn."""
    na, nb = normalise(a), normalise(b)
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    pa, pb = label_profile(a), label_profile(b)
    short, long_, sp, lp = (na, nb, pa, pb) if len(na) <= len(nb) else (nb, na, pb, pa)
    if pa.negated != pb.negated and not _negation_cut_off(short, long_, sp):
        return 0.0
    best = max(fuzz.ratio(na, nb), fuzz.token_sort_ratio(na, nb)) / 100.0
    if _contiguous(short, long_) and lp.content:
        coverage = len(sp.token_set & lp.token_set) / len(lp.token_set)
        # The extractor cuts a label at a clause break and keeps its start ("stay" for "stay
        # in while cycling"): a prefix is good evidence even when it keeps less.
        opening = _DETERMINER.sub("", long_)
        needed = MIN_PREFIX_COVERAGE if opening.startswith(short + " ") else MIN_PART_COVERAGE
        if coverage >= needed:
            best = max(best, 0.8 + 0.2 * coverage)
    else:
        best = max(best, _shared_words_score(pa, pb))
    return min(best, 1.0)


def _same_word(a: str, b: str) -> bool:
    """The same content word, or the same with a slip of the keys."""
    if a == b:
        return True
    if min(len(a), len(b)) < SLIP_MIN_LENGTH:
        return False
    return fuzz.ratio(a, b) >= SLIP_RATIO or _swapped(a, b)


def _swapped(a: str, b: str) -> bool:
    """Two neighbouring letters typed the wrong way round ("puprle" for "purple"): one edit
    where a transposition counts as one (OSA), two where it does not (Levenshtein)."""
    return OSA.distance(a, b, score_cutoff=1) == 1 and Levenshtein.distance(a, b) == 2


def _shared_words_score(pa: LabelProfile, pb: LabelProfile) -> float:
    """Every content word of the one with fewer of them is in the other (in any order, a slip
    allowed), and they keep at least half of the other's: 0.75 .. 0.95 by that share."""
    few, many = (pa, pb) if len(pa.token_set) <= len(pb.token_set) else (pb, pa)
    if not few.content or not many.token_set:
        return 0.0
    if not all(any(_same_word(w, v) for v in many.token_set) for w in few.token_set):
        return 0.0
    coverage = len(few.token_set) / len(many.token_set)
    return 0.75 + 0.2 * coverage if coverage >= MIN_PART_COVERAGE else 0.0


def _negation_cut_off(short: str, long_: str, profile: LabelProfile) -> bool:
    """The longer label's only negation lies after the part the shorter one keeps: the
    extractor cut the tail ("spins fourteen hundred" of "... without walking across the
    floor"), so the negation is not the label's. "stressed" stays apart from "not stressed"."""
    if profile.negated or not _contiguous(short, long_):
        return False
    if len(set(profile.content) - {"feel"}) < 2:
        return False  # "money" of "money I don't have to spend": too little kept to tell
    before = f" {long_} ".split(f" {short} ", 1)[0].split()
    return not any(word in NEGATIONS for word in before)


def said_within(part: str, whole: str) -> int | None:
    """Where the words of ``part`` stand one after another in ``whole`` (both normalised by
    :func:`normalise`, a slip of the keys allowed in a word), or None."""
    words, within = normalise(part).split(), normalise(whole).split()
    if not words:
        return None
    for start in range(len(within) - len(words) + 1):
        if all(_same_word(a, b) for a, b in zip(words, within[start:], strict=False)):
            return start
    return None


def _said_whole(label: str, saying: str, profile: LabelProfile, other: LabelProfile) -> bool:
    """``label`` is the saying's own words, one after another, naming a share of what it names
    (``OWN_WORDS_SHARE``), with no negation just before them: a person knows "family" of
    "family, that's what it comes down to" and "fuel in it" of "there's a bit of fuel in it,
    carbs" (dev 8 asked back "what do you mean by 'family'? I'm not sure I said that"), not
    "the bank" of "doesn't break the bank" (its negation left out), "every one" of "I'm kinda
    proud of every one that goes out" (too little of it) nor "that's what" (naming nothing)."""
    naming = profile.token_set - _POINTING
    named = other.token_set - _POINTING
    if not naming or not named:
        return False
    shared = sum(1 for w in naming if any(_same_word(w, v) for v in named))
    start = said_within(label, saying) if shared >= OWN_WORDS_SHARE * len(named) else None
    if start is None:
        return False
    before = normalise(saying).split()[max(0, start - _NEGATION_REACH) : start]
    return not any(word in NEGATIONS for word in before)


# Words that point or link and name nothing, beyond the stop words: "that's what it comes down
# to" names only "family" beside them.
_POINTING = frozenset(
    "that thats what whats there theres when where which who how come comes down up out thing "
    "things one ones way bit".split()
)
# How far back a negation still governs the words said: "doesn't break | the bank".
_NEGATION_REACH = 3


class PersonaBeliefs:
    """A persona's ladders about one topic (a concept id), typed by the study's methodology,
    with lookup by code and sayings."""

    def __init__(
        self, persona: Persona, concept_id: str | None, methodology: Methodology | None
    ) -> None:
        self.persona = persona
        topic = concept_id or ""
        if methodology is not None:
            self.ladders: list[list[Rung]] = persona.typed_ladders(topic, methodology)
            self.terminal_types = frozenset(methodology.ontology.terminal_types)
        else:  # no methodology named: the topic's ladders, untyped
            self.ladders = [list(ladder) for ladder in persona.beliefs.get(topic, [])]
            self.terminal_types = frozenset()

    def __bool__(self) -> bool:
        return bool(self.ladders)

    def refs(self) -> list[RungRef]:
        return [
            RungRef(li, ri, rung)
            for li, ladder in enumerate(self.ladders)
            for ri, rung in enumerate(ladder)
        ]

    @staticmethod
    def names(rung: Rung, *, misspoken: bool = False) -> list[str]:
        """The rung's code and sayings; with ``misspoken``, also what the person may say
        wrongly (the respondent knows its slips; the evaluation never counts them)."""
        extra = [rung.misspoken] if misspoken and rung.misspoken else []
        return [*rung.names, *extra]

    def score(self, label: str, ref: RungRef, *, misspoken: bool = False) -> float:
        return max(label_score(label, name) for name in self.names(ref.rung, misspoken=misspoken))

    def locate(
        self,
        label: str | None,
        among: Iterable[RungRef] | None = None,
        *,
        misspoken: bool = False,
    ) -> tuple[RungRef, float] | None:
        """The best-matching rung for ``label`` (at or above the threshold), or None.

        Ties go to the earlier ladder and rung, so the answer never depends on set order.
        """
        if not label:
            return None
        best: tuple[RungRef, float] | None = None
        for ref in among if among is not None else self.refs():
            score = self.score(label, ref, misspoken=misspoken)
            if score >= MATCH_THRESHOLD and (best is None or score > best[1]):
                best = (ref, score)
        return best

    def in_own_words(
        self, label: str | None, said: Iterable[tuple[tuple[int, int], str]]
    ) -> RungRef | None:
        """The rung of a saying the person used (``said``: rung and saying) that holds every
        content word of ``label``, two at least (or one and a negation: "no cow"), a slip
        allowed: a person knows a piece of what they said ("proud of every one" of "I'm kinda
        proud of every one that goes out", "smaller impact" of "the impact is smaller") and
        asks what is meant only by a scrap ("the bank" of "doesn't break the bank") or by
        words never said together; its own words one after another are no scrap
        (:func:`_said_whole`: "family" of "family, that's what it comes down to")."""
        profile = label_profile(label or "")
        if not profile.token_set:
            return None
        enough = len(profile.token_set) >= (1 if profile.negated else 2)
        for (li, ri), saying in said:
            other = label_profile(saying)
            if (
                enough
                and other.negated == profile.negated
                and all(any(_same_word(w, v) for v in other.token_set) for w in profile.token_set)
            ):
                return RungRef(li, ri, self.ladders[li][ri])
            if _said_whole(label or "", saying, profile, other):
                return RungRef(li, ri, self.ladders[li][ri])
        return None

    def is_full(self, ladder: Sequence[Rung]) -> bool:
        """A ladder that reaches an end state of the methodology (a terminal node type)."""
        return bool(ladder) and ladder[-1].type in self.terminal_types

    @property
    def has_full_ladder(self) -> bool:
        return any(self.is_full(ladder) for ladder in self.ladders)
