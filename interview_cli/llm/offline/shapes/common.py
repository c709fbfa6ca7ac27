"""Small text helpers shared by the offline journey and grid heuristics."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from interview_cli.config.schemas import ConceptElement
from interview_cli.llm.offline.reading.nonanswers import answer_kind

WORD = re.compile(r"[a-z0-9']+")
_LEAD = re.compile(
    r"^(?:(?:and|but|so|then|first|firstly|next|after that|afterwards|finally|well|um|erm|"
    r"oh|okay|ok|yeah|yes|i think|i guess|honestly|basically|at first|in the end)\b[\s,]*)+",
    re.IGNORECASE,
)


_TRAILING = frozenset(
    "the a an in on at of to and or but with my our their for from in the end".split()
)


def says_nothing(answer: str) -> bool:
    """An answer with nothing to extract: empty, numbers alone, or a don't-know (the reading's
    one classifier of non-answers, ``reading.nonanswers.answer_kind``)."""
    ws = words(answer)
    return not ws or all(w.isdigit() for w in ws) or answer_kind(answer) == "dont_know"


def words(text: str) -> list[str]:
    return WORD.findall(text.lower().replace("\u2019", "'"))


def phrase_in(phrase: str, text: str) -> int:
    """Where ``phrase`` occurs in ``text`` as whole words (-1: nowhere)."""
    found = re.search(r"\b" + re.escape(phrase.lower()) + r"\b", text.lower())
    return found.start() if found else -1


def element_names(element: ConceptElement) -> list[str]:
    """An element's label and aliases, longest first (so "delivery slot" beats "slot"), each
    hyphenated one typed without its hyphen too ("escooter", "e scooter": round 253's rating
    "escooter 2" was asked for twice more, and a triad naming "Escooter" made no construct)."""
    names = {element.label, *element.aliases}
    names |= {n.replace("-", joint) for n in names if "-" in n for joint in ("", " ")}
    return sorted(names, key=len, reverse=True)


def elements_named(
    elements: Sequence[ConceptElement], text: str
) -> list[tuple[int, ConceptElement]]:
    """The elements ``text`` names, with where, in the order they appear. Overlapping
    mentions go to the longest name: "delivery slot" names the slot, not the delivery."""
    spans: list[tuple[int, int, ConceptElement]] = []
    for element in elements:
        for name in element_names(element):
            for found in re.finditer(r"\b" + re.escape(name.lower()) + r"\b", text.lower()):
                spans.append((found.start(), found.end(), element))
    spans.sort(key=lambda s: (-(s[1] - s[0]), s[0]))
    taken: list[tuple[int, int]] = []
    first: dict[str, tuple[int, ConceptElement]] = {}
    for start, end, element in spans:
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        if element.id not in first or start < first[element.id][0]:
            first[element.id] = (start, element)
    return sorted(first.values(), key=lambda pair: pair[0])


def without_elements(text: str, elements: Sequence[ConceptElement]) -> str:
    """``text`` with a leading "at/during/when <element>" mention removed."""
    for _, element in elements_named(elements, text):
        for name in element_names(element):
            pattern = (
                r"^\s*(?:(?:and|then|so|but|first|next)\s+)*"
                r"(?:at|during|when|with|for|on|in)?\s*(?:the\s+)?" + re.escape(name) + r"\b[\s,]*"
            )
            stripped = re.sub(pattern, "", text, flags=re.IGNORECASE)
            if stripped != text:
                return stripped
    return text


def clean_label(text: str, limit: int = 8) -> str:
    """A short lower-case label from a clause: connectives and end punctuation stripped."""
    text = _LEAD.sub("", text.strip(" \t\n,;:.!?-\"'")).strip(" \t\n,;:.!?-\"'")
    kept = text.lower().replace("\u2019", "'").split()[:limit]
    while kept and kept[-1].strip(",.;:") in _TRAILING:
        kept.pop()
    return " ".join(kept).strip(",.;: ")


_HOLLOW = re.compile(
    r"\s{2,}|\s[,.;:?!]|^[,.;:?!]|\"\"|''|\u201c\u201d|\(\s*\)|\{|\}|"
    r"\bmeans\s+(?:and|or|\()|\bmeans not\s*[,.;:?!)]|\bwhy does\s+matter\b",
    re.IGNORECASE,
)


def hollow(question: str) -> bool:
    """A question with an empty slot: "where 1 means  and 5 means not ,", "Why does  matter
    to you?", quotes around nothing, a template brace left over."""
    return bool(_HOLLOW.search(question.strip()))


def label_list(labels: Iterable[str]) -> str:
    items = list(labels)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
