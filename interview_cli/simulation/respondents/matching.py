"""Matching what was said (graph labels, interviewer focus labels) to a persona's hidden rungs.

Two places need to know which rung of which ladder a label stands for: the offline respondent
(the interviewer asks about "the ANC": which rung is that, so which rung comes next?) and the
ground-truth evaluation (which of the persona's rungs ended up in the graph?). Both use
:func:`label_score` so they agree.

A label matches a rung when it names the rung or one of its aliases:

1. the same words after normalisation (case, punctuation, apostrophes) - score 1.0;
2. a contiguous part of the other that keeps at least half of the longer one's content words
   (a third when it is the start, after a leading "the", "my"...: the offline extractor cuts
   labels at clause breaks, "not stressed before trips" becomes "not stressed", "the high
   ankle that laces up tight" becomes "high ankle"; it adds frame words: "feel peace of mind")
   - score 0.8 .. 1.0 by coverage;
3. otherwise rapidfuzz: the better of the plain and token-sorted ratio of the normalised
   strings ("feel deserve nice things" vs "feel I deserve nice things").

Negation must agree ("stressed" is not "not stressed"), unless the longer one's negation lies
in a tail the shorter one left out ("spins fourteen hundred" names "it spins fourteen hundred
without walking across the floor"). ``MATCH_THRESHOLD`` is the bar for
all of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from interview_cli.config.schemas import Methodology, Persona, Rung
from interview_cli.core.text import NEGATIONS, LabelProfile, label_profile, normalise

MATCH_THRESHOLD = 0.8
# A part of a label counts only if it keeps this share of the rung's content words.
MIN_PART_COVERAGE = 0.5
MIN_PREFIX_COVERAGE = 0.33


@dataclass(frozen=True)
class RungRef:
    """Where a rung sits: ladder index, rung index (0 = most concrete) and its typed rung."""

    ladder: int
    index: int
    rung: Rung

    @property
    def label(self) -> str:
        return self.rung.label


# Words a rung may open with that a label drops ("the high ankle ..." said as "high ankle",
# "I can sleep ..." as "can sleep", "it's still going ..." as "still going"), as normalised.
_DETERMINER = re.compile(
    r"^(?:(?:the|a|an|my|our|his|her|their|your|this|that|these|those|i|im|ive|id|it|its|"
    r"we|weve|they|theyre|you|youre|he|hes|she|shes)\s+)+"
)


def _contiguous(part: str, whole: str) -> bool:
    return f" {part} " in f" {whole} "


def label_score(a: str, b: str) -> float:
    """How well label ``a`` names the same thing as label ``b`` (0..1, symmetric enough)."""
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
    elif sp.content and set(sp.content) <= lp.token_set:
        # the same content words in another order or with other stop words between them
        coverage = len(sp.token_set) / len(lp.token_set)
        if coverage >= MIN_PART_COVERAGE:
            best = max(best, 0.75 + 0.2 * coverage)
    return min(best, 1.0)


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


class PersonaLadders:
    """A persona's ladders for one methodology, typed, with alias-aware lookup."""

    def __init__(self, persona: Persona, methodology: Methodology | None) -> None:
        self.persona = persona
        if methodology is not None:
            self.ladders: list[list[Rung]] = persona.typed_ladders(methodology)
            self.terminal_types = frozenset(methodology.ontology.terminal_types)
        else:  # no methodology named: every ladder the persona has, untyped
            self.ladders = [ladder for group in persona.ladders.values() for ladder in group]
            self.terminal_types = frozenset()

    def __bool__(self) -> bool:
        return bool(self.ladders)

    def refs(self) -> list[RungRef]:
        return [
            RungRef(li, ri, rung)
            for li, ladder in enumerate(self.ladders)
            for ri, rung in enumerate(ladder)
        ]

    def names(self, rung: Rung) -> list[str]:
        """The rung's label and the persona's aliases for it."""
        return [rung.label, *self.persona.aliases.get(rung.label, [])]

    def score(self, label: str, ref: RungRef) -> float:
        return max(label_score(label, name) for name in self.names(ref.rung))

    def locate(
        self, label: str | None, among: Iterable[RungRef] | None = None
    ) -> tuple[RungRef, float] | None:
        """The best-matching rung for ``label`` (at or above the threshold), or None.

        Ties go to the earlier ladder and rung, so the answer never depends on set order.
        """
        if not label:
            return None
        best: tuple[RungRef, float] | None = None
        for ref in among if among is not None else self.refs():
            score = self.score(label, ref)
            if score >= MATCH_THRESHOLD and (best is None or score > best[1]):
                best = (ref, score)
        return best

    def is_full(self, ladder: Sequence[Rung]) -> bool:
        """A ladder that reaches an end state of the methodology (a terminal node type)."""
        return bool(ladder) and ladder[-1].type in self.terminal_types

    @property
    def has_full_ladder(self) -> bool:
        return any(self.is_full(ladder) for ladder in self.ladders)
