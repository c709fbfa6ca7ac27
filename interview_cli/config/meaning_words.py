"""The word lists of the canonical slot matcher, read once from the package.

Grouping paraphrases into canonical slots (``core.canonical.meaning``, seed 001 "Dual-Graph
Architecture") needs a little knowledge of everyday English that is data, not code (STYLE
habit 20), so a researcher can extend it without reading the matcher:

- ``words/en/light_words.yaml``: words that say little about what a label is about
  ("decent", "proper", "about", "thing", numbers), weighed lightly;
- ``words/en/senses.yaml``: senses, words that name one idea, split into two opposite poles
  where the idea has them ("calm" / "stressed"), the inverters that flip a pole ("noise
  cancelling" is quiet), irregular word forms ("seen" is see) and set phrases read as one
  word ("in charge" is control).

The files are checked as they are read: a word in two senses, or both light and in a sense,
is a ``ConfigError`` naming the file and the word. The core reads ``MEANING_WORDS``, parsed at
import, and lemmatises the words the way it lemmatises labels.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from interview_cli.config.yamlio import load_yaml
from interview_cli.errors import ConfigError

LIGHT_FILE = "words/en/light_words.yaml"
SENSES_FILE = "words/en/senses.yaml"
NUMBER_KIND = "numbers"
UNIT_KIND = "time_units"  # light words that still say which: "all afternoon", "two days"
_ONE_WORD = re.compile(r"[a-z]+")
_PHRASE = re.compile(
    r"[a-z]+( [a-z]+)+"
)  # the light-word kind whose words all read as one number token


@dataclass(frozen=True)
class SenseWords:
    """One sense: ``words`` without poles, or ``plus`` and ``minus`` opposite poles."""

    name: str
    words: tuple[str, ...] = ()
    plus: tuple[str, ...] = ()
    minus: tuple[str, ...] = ()


@dataclass(frozen=True)
class MeaningWords:
    light: frozenset[str]
    numbers: frozenset[str]
    units: frozenset[str]
    senses: tuple[SenseWords, ...]
    inverters: frozenset[str]
    phrases: tuple[tuple[str, str], ...] = ()  # (phrase, the word it reads as)
    forms: Mapping[str, str] = field(default_factory=dict)  # irregular form -> plain form


def _words(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise ConfigError(f"{where}: expected a list of words")
    for word in value:
        if not _ONE_WORD.fullmatch(word):
            raise ConfigError(f"{where}: {word!r} is not one lower-case word")
    return tuple(value)


def _senses(data: Any, source: str) -> tuple[SenseWords, ...]:
    raw = data.get("senses") if isinstance(data, Mapping) else None
    if not isinstance(raw, Mapping) or not raw:
        raise ConfigError(f"{source}: senses: expected a mapping 'name: {{words|plus|minus}}'")
    senses = []
    for name, body in raw.items():
        where = f"{source}: senses.{name}"
        if not isinstance(body, Mapping) or not set(body) <= {"words", "plus", "minus"} or not body:
            raise ConfigError(f"{where}: expected 'words:', or 'plus:' and 'minus:' lists")
        senses.append(
            SenseWords(
                name=str(name),
                words=_words(body.get("words", []), f"{where}.words"),
                plus=_words(body.get("plus", []), f"{where}.plus"),
                minus=_words(body.get("minus", []), f"{where}.minus"),
            )
        )
    return tuple(senses)


def parse_meaning_words(
    light: Any, senses: Any, *, light_source: str, senses_source: str
) -> MeaningWords:
    """The two files' parsed YAML, checked (see the module docstring)."""
    if not isinstance(light, Mapping) or not light:
        raise ConfigError(f"{light_source}: expected a mapping 'kind: [words]'")
    kinds = {str(k): _words(v, f"{light_source}: {k}") for k, v in light.items()}
    parsed = _senses(senses, senses_source)
    owner: dict[str, str] = {}
    for sense in parsed:
        for word in (*sense.words, *sense.plus, *sense.minus):
            if word in owner:
                raise ConfigError(
                    f"{senses_source}: '{word}' is in both {owner[word]} and {sense.name}"
                )
            owner[word] = sense.name
    light_words = frozenset(w for k, ws in kinds.items() if k != NUMBER_KIND for w in ws)
    for word in sorted(light_words & owner.keys()):
        raise ConfigError(f"{light_source}: '{word}' is light but names {owner[word]}")
    inverters = _words(senses.get("inverters", []), f"{senses_source}: inverters")
    return MeaningWords(
        light=light_words,
        numbers=frozenset(kinds.get(NUMBER_KIND, ())),
        units=frozenset(kinds.get(UNIT_KIND, ())),
        senses=parsed,
        inverters=frozenset(inverters),
        phrases=_phrases(senses.get("phrases", {}), f"{senses_source}: phrases"),
        forms=_forms(senses.get("forms", {}), f"{senses_source}: forms"),
    )


def _forms(raw: Any, where: str) -> dict[str, str]:
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: expected a mapping 'form: plain form'")
    for form, plain in raw.items():
        if not all(isinstance(w, str) and _ONE_WORD.fullmatch(w) for w in (form, plain)):
            raise ConfigError(f"{where}: {form!r}: {plain!r}: expected one lower-case word each")
    return dict(raw)


def _phrases(raw: Any, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: expected a mapping 'set phrase: word'")
    out = []
    for phrase, word in raw.items():
        if not isinstance(phrase, str) or not _PHRASE.fullmatch(phrase):
            raise ConfigError(f"{where}: {phrase!r} is not two or more lower-case words")
        if not isinstance(word, str) or not _ONE_WORD.fullmatch(word):
            raise ConfigError(f"{where}.{phrase}: {word!r} is not one lower-case word")
        out.append((phrase, word))
    return tuple(out)


def load_meaning_words() -> MeaningWords:
    """The shipped word lists."""
    package = resources.files("interview_cli.config")
    return parse_meaning_words(
        load_yaml(package.joinpath(LIGHT_FILE).read_text("utf-8")),
        load_yaml(package.joinpath(SENSES_FILE).read_text("utf-8")),
        light_source=f"interview_cli/config/{LIGHT_FILE}",
        senses_source=f"interview_cli/config/{SENSES_FILE}",
    )


MEANING_WORDS = load_meaning_words()
