"""What in an answer is not an answer: the one place the offline reader finds it.

People do not only answer. They hedge ("to be honest"), call the interviewer "pet", say when
it happened ("at 2 a.m."), laugh ("ha"), correct themselves ("sorry, I said four days"), ask to
go back to something ("can we go back to the charging?"), or say they have nothing more ("that's
as deep as I go"). None of that names an element of the topic, and a node made of it sends
the next question after words that mean nothing (INTERVIEWING.md "How people actually answer").

Each phenomenon's phrases are data (``lexicon/<language>/<kind>.yaml``, compiled once); here
they are found in an answer as ``NonContent`` spans, which the extractor blanks before it
cuts the answer into clauses (offsets kept, so quotes stay verbatim).
"""

from __future__ import annotations

from dataclasses import dataclass

from interview_cli.llm.offline.lexicon.phrases import phrase_pattern

# Phenomena blanked wherever they stand inside an answer, in the order they are looked for.
INLINE_KINDS: tuple[str, ...] = (
    "time",
    "address",
    "filler",
    "aside",
    "hedge",
    "scene",
    "ceiling",
    "hesitation",
    "verdict",
    "correction",
    "steer",
    "about_interview",
)
# Phenomena that make the whole clause holding them context or rapport, not a rung.
CLAUSE_KINDS: tuple[str, ...] = ("backstory", "contrast")
REASONS: dict[str, str] = {
    "backstory": "backstory: context for a rung, not a rung",
    "contrast": "what it is not, said in passing: no element of its own",
    "life_story": "the respondent's life around the answer: context for a rung, not a rung",
}


@dataclass(frozen=True)
class NonContent:
    """A span of the answer that names nothing: its kind and where it is."""

    kind: str
    start: int
    end: int


def inline_spans(answer: str, kinds: tuple[str, ...] = INLINE_KINDS) -> list[NonContent]:
    """Every span of these kinds in the answer, in order of position."""
    found = [
        NonContent(kind, m.start(), m.end())
        for kind in kinds
        for m in phrase_pattern(kind).finditer(answer)
        if m.end() > m.start()
    ]
    return sorted(found, key=lambda s: (s.start, -s.end))


def clause_kind(text: str, kinds: tuple[str, ...] = CLAUSE_KINDS) -> str | None:
    """The first of ``kinds`` the clause's words hold (None: none), for a clause to drop."""
    return next((kind for kind in kinds if phrase_pattern(kind).search(text)), None)


def blank_spans(text: str, spans: list[NonContent]) -> str:
    """``text`` with the spans replaced by spaces (same length). Sentence ends are kept; a
    full stop inside a span ("2 a.m. and") is none."""
    working = list(text)
    for span in spans:
        for i in range(span.start, span.end):
            if working[i] in "!?;\n" or (working[i] == "." and _ends_sentence(text, i)):
                continue
            working[i] = " "
    return "".join(working)


def _ends_sentence(text: str, at: int) -> bool:
    rest = text[at + 1 :].lstrip()
    return not rest or rest[0].isupper() or text[at + 1 : at + 2] == "\n"


__all__ = [
    "CLAUSE_KINDS",
    "INLINE_KINDS",
    "REASONS",
    "NonContent",
    "blank_spans",
    "clause_kind",
    "inline_spans",
]
