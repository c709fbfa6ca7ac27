"""Phrase lists as data: what people say, one YAML file per phenomenon and language.

The offline reader recognises what is not content (a don't-know, a hedge, a time, a form of
address, a correction's frame, talk about the interview...) by phrases. Each phenomenon's
phrases live in ``lexicon/<language>/<phenomenon>.yaml`` beside this module (the remarks
about the interview in ``meta/``), shipped in the wheel, so a researcher can read and extend
them without reading the reader::

    about: >-
      What the phenomenon is and what the reader does with it.
    phrases:             # literal phrases: whole words, any case
      - i don't know     # a space matches any run of spaces; an apostrophe, ' or ’ or none
    patterns:            # regular expressions, for what a list cannot say (optional)
      - '\\bno\\s+(?:idea|clue)\\b'

A phenomenon is compiled once into one alternation over every language that has a file for it
(``phrase_pattern``); a respondent may answer in another language than the study's, and the
phrases do not collide across the languages listed. A file that breaks the format raises
``LexiconError`` naming the file and the entry: these files ship with the tool, so that is a
programming error caught by the tests, never a respondent's problem.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from interview_cli.config.yamlio import SafeLoader

HERE = Path(__file__).resolve().parent
# Languages whose phrases every reading tries, the study's first.
LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es")


class LexiconError(Exception):
    """A shipped phrase file that breaks the format (the message names file and entry)."""


class PhraseFile(BaseModel):
    """One phenomenon's phrases in one language."""

    model_config = ConfigDict(extra="forbid")

    about: str = Field(min_length=1)
    # the non-answer a reply of nothing but this phenomenon is (``Assessment.answer_kind``)
    answer_kind: Literal["dont_know", "already_said", "move_on", "about_interview"] | None = None
    phrases: list[str] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    # pieces several patterns share, written once: ``{{name}}`` in a pattern stands for it
    parts: dict[str, str] = Field(default_factory=dict)


def _word_regex(word: str) -> str:
    """One word of a phrase: an apostrophe in it matches ', ’ or nothing."""
    return re.escape(word.lower().replace("\u2019", "'")).replace("'", "['\u2019]?")


def phrase_regex(phrase: str) -> str:
    """A literal phrase as a whole-word regular expression: spaces match any whitespace, an
    apostrophe matches ', ’ or nothing ("dont", typed on a phone), a trailing "." optional."""
    parts = []
    for word in phrase.strip().split():
        parts.append(_word_regex(word))
    body = r"\s+".join(parts)
    lead = r"(?<![\w'\u2019])" if phrase[:1].isalnum() else ""
    tail = r"(?![\w'\u2019])" if phrase.rstrip()[-1:].isalnum() else ""
    return lead + body + tail


def _trie_regex(node: dict[str, dict]) -> str:  # type: ignore[type-arg]
    """The alternatives below a node of the word trie, longest first: a phrase that ends here
    (key "") makes what follows optional."""
    branches = []
    for word in sorted((w for w in node if w), key=lambda w: (-len(w), w)):
        child = node[word]
        rest = _trie_regex(child) if any(k for k in child) else ""
        tail = r"(?![\w'\u2019])" if word[-1:].isalnum() else ""
        if rest:
            optional = "?" if "" in child else ""
            branches.append(
                f"{_word_regex(word)}(?:\\s+{rest}){optional}{tail if optional else ''}"
            )
        else:
            branches.append(_word_regex(word) + tail)
    return "(?:" + "|".join(branches) + ")"


def literal_regex(phrases: list[str]) -> str:
    """Literal phrases as one regular expression, compiled as a trie of words so that a long
    list costs little to search: whole words, any whitespace between them, an apostrophe ', ’
    or none, the longest phrase first (``phrase_regex`` for one phrase)."""
    root: dict[str, dict] = {}  # type: ignore[type-arg]
    for phrase in phrases:
        node = root
        for word in phrase.strip().lower().split():
            node = node.setdefault(word, {})
        node[""] = {}
    if not any(root):
        return ""
    return r"(?<![\w'\u2019])" + _trie_regex(root)


def _path(kind: str, language: str) -> Path:
    return HERE / language / f"{kind}.yaml"


class _UniqueKeys(SafeLoader):  # type: ignore[misc]
    """YAML that refuses a key said twice (the second ``patterns:`` would hide the first);
    libyaml's parser where it is installed (every offline process reads some forty of these
    files before its first reading)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[object, object]:
        keys = [self.construct_object(k, deep=deep) for k, _ in node.value]
        twice = sorted({str(k) for k in keys if keys.count(k) > 1})
        if twice:
            raise yaml.constructor.ConstructorError(
                None, None, f"key said twice: {twice}", node.start_mark
            )
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]


def load_file(path: Path) -> PhraseFile:
    """A phrase file, validated; every pattern compiles. Read once per process while the file
    is unchanged: every phenomenon and answer kind goes through the same forty-odd files, and
    reading them for each (225 reads) cost a second before the first answer was read."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise LexiconError(f"{path}: {exc}") from None
    return _load_file(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _load_file(path: Path, mtime_ns: int, size: int) -> PhraseFile:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeys)  # noqa: S506
        spec = PhraseFile.model_validate(data)
    except (OSError, yaml.YAMLError, ValidationError) as exc:
        raise LexiconError(f"{path}: {exc}") from None
    spec = spec.model_copy(
        update={
            "patterns": [_with_parts(path, i, p, spec.parts) for i, p in enumerate(spec.patterns)]
        }
    )
    for i, pattern in enumerate(spec.patterns):
        try:
            _one(pattern)
        except re.error as exc:
            raise LexiconError(f"{path}: patterns[{i}]: {exc}") from None
    return spec


_PART = re.compile(r"\{\{(\w+)\}\}")


def _with_parts(path: Path, index: int, pattern: str, parts: dict[str, str]) -> str:
    """``pattern`` with each ``{{name}}`` replaced by the file's part of that name."""

    def part(found: re.Match[str]) -> str:
        if found[1] not in parts:
            raise LexiconError(f"{path}: patterns[{index}]: no part named {found[1]!r}")
        return parts[found[1]]

    return _PART.sub(part, pattern)


@cache
def _one(regex: str) -> re.Pattern[str]:
    """One phrase's or pattern's regex, compiled case-insensitive once per process: a file's
    check that its patterns compile and the per-phrase search compile the same thing."""
    return re.compile(regex, re.IGNORECASE)


def _specs(kind: str, languages: tuple[str, ...]) -> list[PhraseFile]:
    specs = [load_file(_path(kind, lang)) for lang in languages if _path(kind, lang).is_file()]
    if not specs:
        raise LexiconError(f"no phrase file for {kind!r} in {', '.join(languages)} under {HERE}")
    return specs


def alternatives(kind: str, languages: tuple[str, ...] = LANGUAGES) -> list[str]:
    """Every regular expression of a phenomenon, one per phrase or pattern, over the
    languages that have a file for it."""
    return [
        regex
        for spec in _specs(kind, languages)
        for regex in [*(phrase_regex(p) for p in spec.phrases), *spec.patterns]
    ]


_GROUP_NAME = re.compile(r"\(\?P(<|=)(\w+)(>|\))")


def _own_groups(pattern: str, index: int) -> str:
    """``pattern`` with its named groups (and references to them) renamed for one place in
    an alternation, where several patterns may name the same group. A pattern that refers
    back to a group names it (``(?P<w>\\w+) (?P=w)``): a numbered reference would point at
    another pattern's group."""
    return _GROUP_NAME.sub(lambda m: f"(?P{m[1]}{m[2]}_{index}{m[3]}", pattern)


def _compiled(specs: list[PhraseFile]) -> re.Pattern[str]:
    """The phrases of ``specs`` as one word trie, then their patterns, longest first, as one
    case-insensitive pattern (group names get a suffix: ``phrase_patterns`` keeps them)."""
    patterns = sorted({p for spec in specs for p in spec.patterns}, key=lambda p: (-len(p), p))
    literal = literal_regex([p for spec in specs for p in spec.phrases])
    parts = [*([literal] if literal else []), *patterns]
    joined = "|".join(f"(?:{_own_groups(p, i)})" for i, p in enumerate(parts))
    return re.compile(joined, re.IGNORECASE)


@cache
def phrase_pattern(kind: str, languages: tuple[str, ...] = LANGUAGES) -> re.Pattern[str]:
    """One phenomenon's phrases and patterns compiled once, case-insensitive; a longer phrase
    wins over its start ("i don't know why" over "i don't know")."""
    return _compiled(_specs(kind, languages))


@cache
def phrase_patterns(
    kind: str, languages: tuple[str, ...] = LANGUAGES
) -> tuple[re.Pattern[str], ...]:
    """Each phrase and pattern of a phenomenon compiled on its own, named groups kept (what a
    correction says was said before, for one)."""
    return tuple(_one(p) for p in alternatives(kind, languages))


@cache
def phrase_union(kinds: tuple[str, ...], languages: tuple[str, ...] = LANGUAGES) -> re.Pattern[str]:
    """Several phenomena's phrases as one pattern ("a don't-know or a deferral")."""
    return _compiled([spec for kind in kinds for spec in _specs(kind, languages)])


@cache
def answer_kind_pattern(
    answer_kind: str, languages: tuple[str, ...] = LANGUAGES
) -> re.Pattern[str]:
    """Every phenomenon that makes a reply of nothing else this kind of non-answer (its files
    say ``answer_kind: ...``), over every language, compiled once: "I don't know", a
    ceiling and a deferral are all a ``dont_know``."""
    specs = [
        spec
        for language in languages
        for path in sorted((HERE / language).glob("*.yaml"))
        if (spec := load_file(path)).answer_kind == answer_kind
    ]
    if not specs:
        raise LexiconError(f"no phrase file says answer_kind: {answer_kind} under {HERE}")
    return _compiled(specs)


def kinds(language: str = "en") -> list[str]:
    """The phenomena with a phrase file in ``language`` (a file in a folder, such as
    ``meta/opener.yaml``, is the phenomenon ``meta/opener``)."""
    root = HERE / language
    return sorted(p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.yaml"))


__all__ = [
    "LANGUAGES",
    "LexiconError",
    "PhraseFile",
    "alternatives",
    "answer_kind_pattern",
    "kinds",
    "literal_regex",
    "load_file",
    "phrase_pattern",
    "phrase_patterns",
    "phrase_regex",
    "phrase_union",
]
