"""Small, dependency-free text normalisation for labels and questions.

Serves seed 000 "Node De-duplication" (Complexity Hotspots 4: lemmatisation and synonym
expansion before Jaccard matching) and "Question Deduplication" (Complexity Hotspots 6), and the
label lookups of seed 002 Path 13 (cross-turn edge resolution by normalised label).

Deliberately tiny and rule-based: no NLTK/spaCy download, deterministic, English-centred.
The lemmatiser only has to map variants of the *same* word onto the same string (both sides of
a comparison go through it), so an odd stem ("morn" for "morning") is harmless as long as it is
consistent. Everything is pure; ``label_profile`` is memoised because labels repeat every turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_APOSTROPHES = re.compile(r"['\u2019\u2018`]")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)

STOPWORDS: frozenset[str] = frozenset(
    """a an the of to for in on at by with from into onto about as and or but so than then
    my your our their his her its it this that these those i me we you they he she them us
    is are was were be been being am do does did have has had will would can could should
    shall may might must just also really very quite pretty rather too more most much many
    some any all each every own such being get got getting either""".split()
)
# Words that flip a label's meaning. Apostrophes are removed before this lookup, so "don't"
# arrives as "dont".
NEGATIONS: frozenset[str] = frozenset(
    """not no never without none nothing neither nor cannot non lack lacks lacking lacked
    hardly barely dont doesnt didnt isnt arent wasnt werent wont cant couldnt shouldnt
    wouldnt hasnt havent hadnt mustnt neednt aint""".split()
)

_IRREGULAR: dict[str, str] = {
    "children": "child",
    "people": "person",
    "men": "man",
    "women": "woman",
    "feet": "foot",
    "teeth": "tooth",
    "mice": "mouse",
    "lives": "life",
    "knives": "knife",
    "wives": "wife",
    "leaves": "leaf",
    "halves": "half",
    "shelves": "shelf",
    "data": "datum",
    "went": "go",
    "gone": "go",
    "made": "make",
    "bought": "buy",
    "felt": "feel",
    "kept": "keep",
    "paid": "pay",
    "spent": "spend",
    "thought": "think",
}
# Endings that look like a plural "s" but are not.
_KEEP_S = ("ss", "us", "is", "ous", "ics", "ness", "less")
_VOWELS = frozenset("aeiouy")

# Synonym groups: every word of a group maps to the group's first word (after lemmatising).
# Kept small and generic; seed 000 names foam/froth and thick/heavy as the kind of domain
# equivalents it is for. Antonyms and degree words are never grouped.
_SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    ("foam", "froth"),
    ("thick", "heavy"),
    ("safety", "security", "safe", "secure"),
    ("fast", "quick", "rapid", "speedy"),
    ("car", "vehicle", "automobile"),
    ("cheap", "inexpensive", "affordable"),
    ("expensive", "pricey", "costly"),
    ("price", "cost"),
    ("easy", "simple", "effortless"),
    ("comfortable", "comfy"),
    ("relax", "unwind"),
    ("tired", "exhausted", "fatigued", "drained"),
    ("happy", "glad", "cheerful"),
    ("calm", "peaceful", "tranquil"),
    ("quiet", "silent"),
    ("buy", "purchase"),
    ("use", "utilize", "utilise"),
    ("help", "assist"),
    ("money", "cash"),
    ("health", "wellbeing", "wellness"),
    ("convenient", "handy"),
    ("durable", "sturdy", "robust"),
    ("reliable", "dependable"),
    ("taste", "flavour", "flavor"),
    ("smell", "scent", "aroma"),
    ("big", "large"),
    ("small", "little"),
    ("start", "begin"),
    ("fix", "repair"),
)


@lru_cache(maxsize=16384)
def normalise(text: str) -> str:
    """Casefold, drop apostrophes, turn other punctuation into spaces, collapse whitespace."""
    folded = _APOSTROPHES.sub("", text.casefold())
    return " ".join(_NON_WORD.sub(" ", folded).split())


def tokens(text: str) -> list[str]:
    return normalise(text).split()


def _is_cvc(stem: str) -> bool:
    """consonant-vowel-consonant ending, the shape of stems that lost an "e" ("sav", "mak")."""
    if len(stem) < 2:
        return False
    if len(stem) == 2:
        return stem[0] in _VOWELS and stem[1] not in _VOWELS
    a, b, c = stem[-3], stem[-2], stem[-1]
    return a not in _VOWELS and b in _VOWELS and c not in _VOWELS and c not in "wxy"


def _restore_stem(stem: str) -> str:
    """Undo the spelling changes of -ing/-ed: doubled consonants and a dropped final "e"."""
    if (
        len(stem) >= 3
        and stem[-1] == stem[-2]
        and stem[-1] not in _VOWELS
        and stem[-1] not in "lsz"
    ):
        return stem[:-1]  # running -> run, planned -> plan
    if len(stem) >= 4 and stem.endswith("ll"):
        return stem[:-1]  # cancelling -> cancel (British doubling)
    if len(stem) <= 4 and _is_cvc(stem):
        return stem + "e"  # saving -> save, using -> use
    return stem


_BRITISH_ENDINGS = (
    ("isation", "ization"),
    ("ising", "izing"),
    ("ised", "ized"),
    ("ises", "izes"),
    ("ise", "ize"),
)


def _british_to_american(token: str) -> str:
    # -ise/-isation spellings become -ize so "energised" and "energized" share a stem.
    for british, american in _BRITISH_ENDINGS:
        if token.endswith(british) and len(token) > len(british) + 3:
            return token[: -len(british)] + american
    return token


@lru_cache(maxsize=8192)
def lemmatise(token: str) -> str:
    """A small rule-based lemmatiser: irregular forms, plurals, -ing, -ed (English)."""
    if token in _IRREGULAR:
        return _IRREGULAR[token]
    if len(token) <= 3 or any(ch.isdigit() for ch in token):
        return token
    word = _british_to_american(token)
    # plurals
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "xes", "ches", "shes", "zzes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(_KEEP_S):
        word = word[:-1]
    # verb forms; a stem without a vowel means the ending was part of the word ("thing", "shed")
    if word.endswith("ing") and len(word) >= 5 and _has_vowel(word[:-3]):
        word = _restore_stem(word[:-3])
    elif word.endswith("ied") and len(word) >= 5:
        word = word[:-3] + "y"
    elif (
        word.endswith("ed")
        and len(word) >= 4
        and not word.endswith("eed")
        and _has_vowel(word[:-2])
    ):
        word = _restore_stem(word[:-2])
    return word


def _has_vowel(stem: str) -> bool:
    return any(ch in _VOWELS for ch in stem)


def _build_synonyms() -> dict[str, str]:
    table: dict[str, str] = {}
    for group in _SYNONYM_GROUPS:
        canonical = lemmatise(group[0])
        for word in group:
            table[lemmatise(word)] = canonical
    return table


SYNONYMS: dict[str, str] = _build_synonyms()


def canonical_token(token: str) -> str:
    """Lemmatise, then map onto the synonym group's representative."""
    lemma = lemmatise(token)
    return SYNONYMS.get(lemma, lemma)


@dataclass(frozen=True)
class LabelProfile:
    """A label reduced for comparison.

    ``content`` keeps the order of the meaningful words (lemmatised, synonyms mapped, stop
    words and negation words removed, repeats dropped); ``negated`` records whether any
    negation word was present, since dropping "not" must not make "not expensive" look like
    "expensive".
    """

    normalised: str
    content: tuple[str, ...]
    negated: bool

    @property
    def key(self) -> str:
        return " ".join(self.content)

    @property
    def token_set(self) -> frozenset[str]:
        return frozenset(self.content)


@lru_cache(maxsize=16384)
def label_profile(label: str) -> LabelProfile:
    normalised = normalise(label)
    words = normalised.split()
    negated = any(w in NEGATIONS for w in words)
    content = [canonical_token(w) for w in words if w not in STOPWORDS and w not in NEGATIONS]
    if not content:
        # A label made only of stop words ("it", "the one"): compare it as it is.
        content = [w for w in words if w not in NEGATIONS] or words
    return LabelProfile(normalised, tuple(dict.fromkeys(content)), negated)


def lemma_key(label: str) -> str:
    """A looser lookup key than ``normalise``: content words, lemmatised, synonyms mapped."""
    profile = label_profile(label)
    return ("not " if profile.negated else "") + profile.key
