"""The read-only records the knowledge graph hands out, and the checks on a node's opinion.

``Node`` and ``Relation`` are frozen snapshots of one node's and one typed edge's attributes
(seed 001 "Graph Structure": KGNode/KGEdge fields; seed 002 Path 5: provenance on every node
and edge). ``core.graph`` builds them from its networkx storage; nothing here mutates a graph.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict


class GraphInvariantError(ValueError):
    """A mutation would break one of the graph's invariants (a programming error)."""


def check_opinion(stance: int, confidence: float | None) -> None:
    if stance not in (-1, 0, 1):
        raise GraphInvariantError(f"stance must be -1, 0 or +1 (got {stance!r})")
    if confidence is not None and not 0.0 <= confidence <= 1.0:
        raise GraphInvariantError(f"confidence must be within 0..1 (got {confidence!r})")


class ProvenanceEntry(TypedDict):
    utterance_id: str
    quote: str
    turn: int


def provenance_tuple(entries: Iterable[Mapping[str, Any]]) -> tuple[ProvenanceEntry, ...]:
    return tuple(
        ProvenanceEntry(utterance_id=p["utterance_id"], quote=p["quote"], turn=p["turn"])
        for p in entries
    )


def said_in(provenance: Iterable[Mapping[str, Any]], created_turn: int) -> int:
    """How many answers said a node (its provenance's turns and the turn that made it)."""
    return len({p["turn"] for p in provenance} | {created_turn})


@dataclass(frozen=True)
class Node:
    """A read-only snapshot of one node's attributes."""

    id: str
    label: str
    node_type: str
    aliases: tuple[str, ...]
    provenance: tuple[ProvenanceEntry, ...]
    stance: int
    confidence: float
    created_turn: int
    superseded_by: str | None
    element_id: str | None

    @property
    def labels(self) -> tuple[str, ...]:
        return (self.label, *self.aliases)

    @property
    def mention_count(self) -> int:
        return len(self.provenance)

    @property
    def answers_said_in(self) -> int:
        """How many answers said it: the one that made it and those that named it again."""
        return said_in(self.provenance, self.created_turn)

    @property
    def last_mentioned_turn(self) -> int:
        return max((p["turn"] for p in self.provenance), default=self.created_turn)


@dataclass(frozen=True)
class Relation:
    """A read-only snapshot of one typed edge."""

    source: str
    target: str
    relation: str
    quotes: tuple[str, ...]
    provenance: tuple[ProvenanceEntry, ...]
    confidence: float
    created_turn: int
    value: float | None = None
