"""What a label means, for grouping paraphrases into one canonical slot (the slot rules of
canonical state version 2).

Seed 001 "Dual-Graph Architecture": a slot is one underlying idea, however the respondents
word it ("fast car", "quick vehicle"). People put an idea in few words and many shapes: "the
battery", "decent battery", "battery that lasts the whole week"; "not stressed", "less
anxious", "calm"; "don't want an expensive one", "cheap ones". Without a model, three pieces of
everyday knowledge carry most of that (``config.meaning_words``, data files):

- light words decide a tenth of the score (``LIGHT_SHARE``): evaluations ("decent", "proper
  good"), degree and frequency ("only", "about every"), carrier words ("thing", "have",
  "feel"), units and times ("days", "morning") and numbers (all one token), so the words
  that name the idea decide; a label of light words only ("still plenty", "six hours") is
  the same as another only in the same words, numbers as said;
- senses: words one pole of an idea ("stressed", "anxious", "wound up") match each other at
  ``SENSE_CREDIT``; a negation or an inverter ("cancelling", "proof", "less") flips a label's
  pole, so "noise cancelling" is quiet and "not stressed" calm;
- opposite poles never share a slot ("cheap" / "expensive", "calm" / "stressed"), and a
  negation splits two labels unless a shared sense says they agree ("not expensive" is cheap,
  "no battery panic" is not the battery).

``meaning_similarity`` is the Dice overlap of two labels' idea words (an exact word, a
derivation of one stem or a typo count 1, the same sense and pole ``SENSE_CREDIT``; a word of a
sense without a pole fits either), nine tenths, plus the overlap of their light words, raised
to ``CONTAINED`` when every idea word (and unit) of one label is in the other and the other
names at most ``CONTAIN_EXTRA`` more ("battery" in "battery that lasts the whole week"):
people add to an idea as they talk about it. Containment is what a slot's wording may widen
by, never what chains two ideas through a bare word: see ``core.canonical.proposals`` for
where it counts. Irregular word forms ("seen") and set phrases ("in charge") are read first.

Calibration (``tests/core/data/slot_meaning.yaml``, checked by
``tests/core/test_canonical_meaning.py``): at the canonical tier's fuzzy threshold (0.75) every
case of one idea reaches it and every case of two stays below; the word-overlap calibration of
``core.canonical.slots`` holds too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from interview_cli.config.meaning_words import MEANING_WORDS, MeaningWords
from interview_cli.core.canonical.slots import STEM_MIN_PREFIX, STEM_SHARE, slot_text
from interview_cli.core.graph.dedup import ANTONYM_PREFIXES, same_word
from interview_cli.core.text import NEGATIONS, STOPWORDS, canonical_token, normalise

LIGHT_SHARE = 0.1
SENSE_CREDIT = 0.85
CONTAINED = 0.8
CONTAIN_EXTRA = 1
NUMBER = "#"
# What may follow a shared stem for two words to be one word's derivations ("cancel" /
# "cancellation", "productive" / "productivity"), so a compound is not taken for one
# ("break" / "breakfast", "light" / "lightweight").
ENDINGS = frozenset(
    """e s es ed er r ers ing ion ions ation ations ity ility ibility ive ness ment ments able
    ible le al ally ly ful ist ism y ance ence ant ent ize ization ic ical ous""".split()
) | {""}


@dataclass(frozen=True)
class _Tables:
    light: frozenset[str]
    numbers: frozenset[str]
    units: frozenset[str]
    inverters: frozenset[str]
    sense: Mapping[str, tuple[str, int]]  # word -> (sense, pole: +1, -1 or 0 without poles)
    phrases: tuple[tuple[re.Pattern[str], str], ...]


def _compile(words: MeaningWords) -> _Tables:
    def plain(word: str) -> str:
        return canonical_token(words.forms.get(word, word))

    sense: dict[str, tuple[str, int]] = {}
    for s in words.senses:
        for group, pole in ((s.words, 0), (s.plus, 1), (s.minus, -1)):
            for word in group:
                sense.setdefault(plain(word), (s.name, pole))
    return _Tables(
        light=frozenset(plain(w) for w in words.light) - sense.keys(),
        numbers=frozenset(words.numbers),
        units=frozenset(plain(w) for w in words.units) | {NUMBER},
        inverters=frozenset(plain(w) for w in words.inverters),
        sense=sense,
        phrases=tuple(
            (re.compile(rf"\b{re.escape(phrase)}\b"), word) for phrase, word in words.phrases
        ),
    )


_TABLES = _compile(MEANING_WORDS)
_DROPPED = STOPWORDS | NEGATIONS


@dataclass(frozen=True)
class Reading:
    """A label as the slot matcher reads it.

    ``words``: content words (lemmatised, synonyms mapped, numbers as ``#``), each once, in
    order, ``spelled`` the same with numbers as they were said, ``said``: word -> the word
    the label had for it ("charg" -> "charging"); ``heavy``: the words that
    name the idea, ``light`` the others (``only_light``: the label has no other kind);
    ``poles``: sense -> pole after negation and inverters (0: a sense without poles).
    """

    words: tuple[str, ...]
    spelled: tuple[str, ...]
    said: Mapping[str, str]
    heavy: frozenset[str]
    light: frozenset[str]
    poles: Mapping[str, int]
    negated: bool

    @property
    def only_light(self) -> bool:
        return not self.heavy


def _plain(word: str) -> str:
    return canonical_token(MEANING_WORDS.forms.get(word, word))


def _is_number(word: str) -> bool:
    return word.isdigit() or word in _TABLES.numbers


@lru_cache(maxsize=16384)
def read_label(label: str) -> Reading:
    text = normalise(slot_text(label))
    for pattern, word in _TABLES.phrases:
        text = pattern.sub(word, text)
    raw = text.split()
    negated = any(w in NEGATIONS for w in raw)
    kept = [w for w in raw if w not in _DROPPED] or [w for w in raw if w not in NEGATIONS] or raw
    said: dict[str, str] = {}
    for w in kept:
        said.setdefault(w if _is_number(w) else _plain(w), w)
    spelled = list(said)
    words = list(dict.fromkeys(NUMBER if _is_number(w) else w for w in spelled))
    light = frozenset(
        w
        for w in words
        if w == NUMBER or len(w) == 1 or w in _TABLES.light or w in _TABLES.inverters
    )
    flip = -1 if (negated + sum(w in _TABLES.inverters for w in words)) % 2 else 1
    poles: dict[str, int] = {}
    for word in words:
        if word in _TABLES.sense:
            sense, pole = _TABLES.sense[word]
            poles.setdefault(sense, pole * flip)
    return Reading(
        words=tuple(words),
        spelled=tuple(spelled),
        said=said,
        heavy=frozenset(w for w in words if w not in light),
        light=light,
        poles=poles,
        negated=negated,
    )


def meaning_block(a: Reading, b: Reading) -> str | None:
    """Why two labels never share a slot whatever their words, or None."""
    agree = False
    for sense, pole in a.poles.items():
        other = b.poles.get(sense)
        if other is None or not pole or not other:
            continue
        if pole != other:
            return f"opposite poles of {sense}"
        agree = True
    if a.negated != b.negated and not agree:
        return "negation differs"
    for mine, theirs in ((a.words, b.words), (b.words, a.words)):
        for word in mine:
            if any(prefix + word in theirs for prefix in ANTONYM_PREFIXES):
                return f"antonyms '{word}'"
    return None


@lru_cache(maxsize=65536)
def _one_stem(a: str, b: str) -> bool:
    """The same word (a typo forgiven), or two derivations of one stem: a shared prefix of
    5+ letters covering 3/4 of the shorter word, followed by endings (``ENDINGS``; a doubled
    last letter of the stem allowed, "cancel" / "cancellation")."""
    if same_word(a, b):
        return True
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    common = min(len(a), len(b)) if common is None else common
    if common < max(STEM_MIN_PREFIX, STEM_SHARE * min(len(a), len(b))):
        return False
    rests = [w[common:] for w in (a, b)]
    rests = [r[1:] if r[:1] == a[common - 1] else r for r in rests]
    return all(r in ENDINGS for r in rests)


def _match(word: str, reading: Reading, poles: Mapping[str, int]) -> float:
    """How well ``word`` (of a label with ``poles``) is matched by a word of ``reading``."""
    if word in reading.words or any(_one_stem(word, w) for w in reading.words if w != NUMBER):
        return 1.0
    found = _TABLES.sense.get(word)
    if found is not None and found[0] in reading.poles:
        mine, theirs = poles.get(found[0], 0), reading.poles[found[0]]
        if mine == theirs or not mine or not theirs:  # a word without a pole fits either
            return SENSE_CREDIT
    return 0.0


def _in(word: str, words: tuple[str, ...]) -> bool:
    return word in words or any(_one_stem(word, o) for o in words if o != NUMBER)


def contained(small: Reading, big: Reading) -> bool:
    """Every word naming ``small``'s idea, and every unit or number it gives, is in ``big`` as
    such (a shared stem or a typo counts, a sense does not), and ``big`` names at most
    ``CONTAIN_EXTRA`` more: "battery" in "battery that lasts the whole week", not "wear them
    all afternoon" in "wear them on the train", nor "tyres" in "flat tyre on the rear wheel"
    (a topic, not the same idea)."""
    if small.only_light:
        return False
    needed = small.heavy | (small.light & _TABLES.units)
    if not all(_in(w, big.words) for w in needed):
        return False
    return sum(not _in(w, small.words) for w in big.heavy) <= CONTAIN_EXTRA


def _dice(a: Reading, b: Reading, mine: frozenset[str], theirs: frozenset[str]) -> float:
    """Dice overlap of ``a``'s words in ``mine`` and ``b``'s in ``theirs`` (each matched
    against all of the other label's words); 1.0 when neither side has such words."""
    left = [w for w in a.words if w in mine]
    right = [w for w in b.words if w in theirs]
    if not left and not right:
        return 1.0
    hits = sum(_match(w, b, a.poles) for w in left) + sum(_match(w, a, b.poles) for w in right)
    return hits / (len(left) + len(right))


def meaning_similarity(a: str, b: str, *, containment: bool = True) -> float:
    """How much labels ``a`` and ``b`` say the same thing, in [0, 1] (module docstring).

    ``containment``: whether one label's words all being in the other lifts the score to
    ``CONTAINED`` (either way round).
    """
    ra, rb = read_label(a), read_label(b)
    if not ra.words or not rb.words or meaning_block(ra, rb) is not None:
        return 0.0
    if ra.only_light or rb.only_light:
        # Nothing names an idea ("six hours", "still plenty"): only the same words, numbers
        # as said, are the same thing.
        same = len(set(ra.spelled) & set(rb.spelled))
        return round(2 * same / (len(ra.spelled) + len(rb.spelled)), 6)
    score = _dice(ra, rb, ra.heavy, rb.heavy)
    if ra.light or rb.light:
        score = (1 - LIGHT_SHARE) * score + LIGHT_SHARE * _dice(ra, rb, ra.light, rb.light)
    if containment and (contained(ra, rb) or contained(rb, ra)):
        score = max(score, CONTAINED)
    return round(min(score, 1.0), 6)


def widens(label: str, text: str) -> bool:
    """``text``'s words all in ``label``: the label says more than ``text`` does."""
    return contained(read_label(text), read_label(label))


def sense_of(word: str) -> str | None:
    """The sense a word of a ``Reading`` belongs to, if any."""
    found = _TABLES.sense.get(word)
    return found[0] if found is not None else None


def key_words(label: str) -> list[str]:
    """The words that name a label's idea, in order."""
    reading = read_label(label)
    return [w for w in reading.words if w in reading.heavy]


def name_words(label: str) -> list[str]:
    """Words for a slot name that keep what the label says: ``not`` when it is negated, the
    words naming its idea, its inverters and units ("not_expensive", "noise_cancel",
    "charge_day"), so the name is no wider than the label; a label of light words only keeps
    them as said, numbers dropped ("still_plenty")."""
    reading = read_label(label)
    if reading.only_light:
        kept = [w for w in reading.spelled if not _is_number(w)] or list(reading.spelled)
    else:
        keep = reading.heavy | _TABLES.inverters | _TABLES.units
        kept = [w for w in reading.words if w in keep and w != NUMBER]
    return (["not"] if reading.negated else []) + [reading.said.get(w, w) for w in kept]


__all__ = [
    "CONTAINED",
    "LIGHT_SHARE",
    "SENSE_CREDIT",
    "Reading",
    "contained",
    "key_words",
    "meaning_block",
    "meaning_similarity",
    "name_words",
    "read_label",
    "sense_of",
    "widens",
]
