"""The study guide's coverage: which of a concept's ``guide.must_cover`` topics came up.

A topic counts as covered once every one of its content words (lemmatised, synonyms mapped,
``core.text.label_profile``) appears in what the graph holds: its node labels and aliases and
the respondent's quoted words behind them. Only what reached the graph counts, so a topic the
respondent merely waved at, in a reply that was not an answer, stays open. Pure: the graph in,
the covered and remaining topics out; the ``coverage.guide_*`` signals and the question prompt
read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.text import label_profile


@dataclass(frozen=True)
class GuideCoverage:
    covered: tuple[str, ...]
    remaining: tuple[str, ...]

    @property
    def ratio(self) -> float:
        total = len(self.covered) + len(self.remaining)
        return round(len(self.covered) / total, 4) if total else 1.0


def _vocabulary(texts: Iterable[str]) -> frozenset[str]:
    words: set[str] = set()
    for text in texts:
        words.update(label_profile(text).content)
    return frozenset(words)


def graph_texts(graph: KnowledgeGraph) -> list[str]:
    """The words the graph holds: labels, aliases and provenance quotes."""
    texts: list[str] = []
    for node in graph.nodes():
        texts.extend(node.labels)
        texts.extend(p["quote"] for p in node.provenance if p.get("quote"))
    return texts


def topic_covered(topic: str, vocabulary: frozenset[str]) -> bool:
    content = label_profile(topic).content
    return bool(content) and all(word in vocabulary for word in content)


def guide_coverage(must_cover: Sequence[str], graph: KnowledgeGraph | None) -> GuideCoverage:
    """Which ``must_cover`` topics the graph covers, in the guide's order."""
    vocabulary = _vocabulary(graph_texts(graph)) if graph is not None else frozenset()
    covered = tuple(t for t in must_cover if topic_covered(t, vocabulary))
    remaining = tuple(t for t in must_cover if t not in covered)
    return GuideCoverage(covered, remaining)
