"""The word lists the offline interviewer reads respondents' phrases with, loaded once.

The lists are data (``lexicon/en/*.yaml``, one file per phenomenon) so that a researcher can
extend them without reading the code that uses them (``phrases``): function words, words that
name nothing (interjections, address, time, verdicts, hedges, talk about the interview,
numbers), the first person as it is said back, and common verb forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

LEXICON = Path(__file__).parent / "lexicon" / "en"


@dataclass(frozen=True)
class Vocabulary:
    determiners: frozenset[str]
    subjects: frozenset[str]
    auxiliaries: frozenset[str]
    enablers: frozenset[str]
    prepositions: frozenset[str]
    conjunctions: frozenset[str]
    clause_breaks: frozenset[str]
    relatives: frozenset[str]
    dangling_end: frozenset[str]
    dangling_start: frozenset[str]
    # single words that name nothing, and the phrases of several words that name nothing
    not_content: frozenset[str]
    not_content_phrases: tuple[tuple[str, ...], ...]
    # of those: words standing in for a thing ("something", "stuff") and verbs too general to
    # be the point of a phrase ("get", "make")
    stand_ins: frozenset[str]
    light_verbs: frozenset[str]
    # interjections, hedges and forms of address: a phrase never starts or ends on one
    fillers: frozenset[str]
    address: frozenset[str]  # what people call each other: "lad", "mate", "hen"
    verbs: frozenset[str]
    past: frozenset[str]  # irregular past forms
    shift: dict[str, str]
    after_i: dict[str, str]

    @property
    def function_words(self) -> frozenset[str]:
        return (
            self.determiners
            | self.subjects
            | self.auxiliaries
            | self.prepositions
            | self.conjunctions
            | self.relatives
            | self.dangling_end
        )


def _load(name: str) -> dict[str, object]:
    data = yaml.safe_load((LEXICON / f"{name}.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{name}.yaml: a mapping of lists"
    return data


def _words(data: dict[str, object], key: str) -> frozenset[str]:
    values = data[key]
    assert isinstance(values, list), key
    return frozenset(str(v).lower() for v in values)


@cache
def vocabulary() -> Vocabulary:
    """The English lists (the offline interviewer's questions are English)."""
    fw, nc, person, verbs = (_load(n) for n in ("function_words", "not_content", "person", "verbs"))
    empty = frozenset().union(*(_words(nc, key) for key in nc))
    shift, after_i = person["shift"], person["after_i"]
    assert isinstance(shift, dict) and isinstance(after_i, dict)
    return Vocabulary(
        determiners=_words(fw, "determiners"),
        subjects=_words(fw, "subjects"),
        auxiliaries=_words(fw, "auxiliaries"),
        enablers=_words(fw, "enablers"),
        prepositions=_words(fw, "prepositions"),
        conjunctions=_words(fw, "conjunctions"),
        clause_breaks=_words(fw, "clause_breaks"),
        relatives=_words(fw, "relatives"),
        dangling_end=_words(fw, "dangling_end"),
        dangling_start=_words(fw, "dangling_start"),
        not_content=frozenset(w for w in empty if " " not in w),
        not_content_phrases=tuple(tuple(w.split()) for w in sorted(empty) if " " in w),
        stand_ins=_words(nc, "stand_ins"),
        light_verbs=_words(nc, "light_verbs"),
        fillers=frozenset().union(*(_words(nc, k) for k in ("interjections", "hedges", "address"))),
        address=_words(nc, "address"),
        verbs=_words(verbs, "forms") | _words(verbs, "past"),
        past=_words(verbs, "past"),
        shift={str(k).lower(): str(v) for k, v in shift.items()},
        after_i={str(k).lower(): str(v) for k, v in after_i.items()},
    )
