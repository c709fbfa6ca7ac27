"""Mend the typos of small words before the reader reads (``reading/lexicon/en/typo.yaml``).

People type fast, and a mistyped filler, hedge or link word is no word the reader knows, so
it reads as content: "Weell, no sandwiches" became the node "weell", "Let me tink" the node
"tink", "I'm not sue" a consequence asked about next ("How does not sue help you?"). Only the
small words listed in the file are mended, where the typo is no word of its own: one letter
doubled ("weell", "thaat"), two neighbouring letters swapped ("alos", "olny"), one of a double
letter dropped ("realy"), and a few mistypings where they stand ("let me tink"). A typo in a
content word is the respondent's own word and stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from functools import cache, partial
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

HERE = Path(__file__).parent / "lexicon"


class _Fix(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pattern: str
    word: str


class _CauseForBecause(BaseModel):
    model_config = ConfigDict(extra="forbid")

    before: list[str]
    noun_company: list[str]
    verb_company: list[str]
    persons: list[str]
    opening_a_clause: list[str]
    clause_ends_in_s: list[str]
    clause_ends: list[str]
    noun_phrase_openers: list[str]
    determiners: list[str]


class _TypoFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    about: str = Field(min_length=1)
    words: list[str]
    words_of_their_own: list[str] = Field(default_factory=list)
    fixes: list[_Fix] = Field(default_factory=list)
    cause_for_because: _CauseForBecause


_Fixer = tuple[re.Pattern[str], str]


@cache
def _file(language: str = "en") -> _TypoFile:
    return _TypoFile.model_validate(yaml.safe_load((HERE / language / "typo.yaml").read_text()))


@cache
def _lexicon(language: str = "en") -> tuple[dict[str, str], tuple[_Fixer, ...]]:
    data = _file(language)
    words = {w.lower() for w in data.words} | {w.lower() for w in data.words_of_their_own}
    typos: dict[str, str] = {}
    for word in sorted(w.lower() for w in data.words):
        for typo in _misspellings(word):
            if typo not in words:
                typos.setdefault(typo, word)
    fixes = tuple((re.compile(f.pattern, re.IGNORECASE), f.word) for f in data.fixes)
    return typos, fixes


def _misspellings(word: str) -> set[str]:
    """``word`` with one letter doubled, two neighbouring letters swapped, one of a double
    letter dropped, or (six letters or more) a letter inside it dropped."""
    out = {word[: i + 1] + word[i] + word[i + 1 :] for i in range(len(word))}
    out |= {
        word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        for i in range(len(word) - 1)
        if word[i] != word[i + 1]
    }
    out |= {word[:i] + word[i + 1 :] for i in range(len(word) - 1) if word[i] == word[i + 1]}
    if len(word) >= 6:  # a letter inside a long word dropped ("becase", "probaly")
        out |= {word[:i] + word[i + 1 :] for i in range(1, len(word) - 1)}
    out.discard(word)
    return out


_WORD = re.compile(r"[A-Za-z]+")


def _cased(typed: str, word: str) -> str:
    return word.capitalize() if typed[:1].isupper() else word


def _fixed(match: re.Match[str], word: str) -> str:
    """The match with its group ``typo`` replaced by ``word``."""
    start, end = match.span("typo")
    whole = match.group(0)
    at = match.start()
    return whole[: start - at] + _cased(match.group("typo"), word) + whole[end - at :]


def mend_typos(answer: str) -> str:
    """``answer`` with the typos of its small words mended (the same text when there are
    none)."""
    typos, fixes = _lexicon()

    def mended(match: re.Match[str]) -> str:
        typed = match.group(0)
        word = typos.get(typed.lower())
        return _cased(typed, word) if word else typed

    text = _WORD.sub(mended, answer)
    for pattern, word in fixes:
        text = pattern.sub(partial(_fixed, word=word), text)
    return _cause_mended(text)


_CAUSE = re.compile(r"(?<![\w'\u2019-])cause(?=\s+([\w'\u2019]+))", re.IGNORECASE)


def _cause_mended(text: str) -> str:
    """``text`` with "cause" typed for "because" mended where it opens a clause: after a word
    that ends one ("matters cause it lets me"), at a clause's start before a word that opens
    one ("Cause the job is heavy"), before a person ("starts cause i cant"), or before a word
    that opens one after a word that is no company of the noun or the verb (the word lists
    of ``cause_for_because``)."""
    rule = _file().cause_for_because

    def mended(match: re.Match[str]) -> str:
        before = re.findall(r"[\w'\u2019]+", text[: match.start()])[-2:]
        joined = bool(before) and bool(re.search(r"\w\s*$", text[: match.start()]))
        word = before[-1].lower().replace("\u2019", "'") if joined else ""
        noun_phrase = len(before) == 2 and before[0].lower() in rule.noun_phrase_openers
        after = match.group(1).lower().replace("\u2019", "'")
        if word in rule.clause_ends and not noun_phrase:
            return _cased(match.group(0), "because")  # "matters cause it lets me"
        if not word and after in rule.opening_a_clause:
            return _cased(match.group(0), "because")  # "Cause the job is heavy enough"
        company = {*rule.noun_company, *rule.noun_phrase_openers}
        # (a determiner two words back makes it a noun: "no obvious cause they could find")
        nouned = word in company or (len(before) == 2 and before[0].lower() in rule.determiners)
        if after in rule.persons and not nouned:
            return _cased(match.group(0), "because")  # "a car that starts cause i cant"
        if after not in rule.before:
            return match.group(0)
        if word in rule.noun_company or word in rule.verb_company or word.endswith(("'ll", "'d")):
            return match.group(0)  # "a worthy cause", "the rain'll cause it"
        if word.endswith("s") and word not in rule.clause_ends_in_s:
            return match.group(0)  # "kids cause it", "pets cause my allergies"
        if noun_phrase:
            return match.group(0)  # "the heat is another cause", "a lost cause"
        return _cased(match.group(0), "because")

    return _CAUSE.sub(mended, text)


Opcodes = Sequence[tuple[str, int, int, int, int]]


def retyped(typed: str, mended: str) -> Callable[[str], str]:
    """A quote of the ``mended`` answer as the respondent typed it (``typed``): the quote a
    reader keeps must be their words ("pea protein tho", not "pea protein though", which the
    model path's check rejects as not in the answer: round 27 lost a node so). The two texts
    are aligned once, for every quote of the answer."""
    opcodes: Opcodes = SequenceMatcher(None, typed, mended, autojunk=False).get_opcodes()

    def as_typed(quote: str) -> str:
        at = mended.find(quote)
        if at < 0 or quote in typed:
            return quote
        start = _typed_at(at, opcodes, len(typed))
        end = _typed_at(at + len(quote), opcodes, len(typed), end=True)
        return typed[start:end].strip() or quote

    return as_typed


def _typed_at(position: int, opcodes: Opcodes, typed_length: int, end: bool = False) -> int:
    """Where ``position`` of the mended text falls in the typed one (a mended word maps to
    all of the word it mends)."""
    for tag, i1, i2, j1, j2 in opcodes:
        if j1 <= position < j2 or (end and position == j2):
            if tag == "equal":
                return i1 + (position - j1)
            return i2 if end else i1
    return typed_length if end else 0


__all__ = ["mend_typos", "retyped"]
