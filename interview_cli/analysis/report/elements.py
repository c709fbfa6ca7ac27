"""Coverage of a concept test's stimulus elements, per session and across sessions.

Seed 000 "Coverage": every element of the stimulus should be discussed, and what the
respondent made of it recorded. From a session file alone (no model): which elements came up
and in which turns' answers, which ones the interviewer raised and in which turns' questions,
the reactions recorded, and how many ladders climb from each element's nodes. Across sessions
of one concept: per element, the respondents who mentioned it, the reactions counted and the
ladders from it. ``/why``, the end summary, ``sessions show``, ``sessions --json``, every
report format and the REFI-QDA export read these values, so they cannot disagree.

An element is *covered* when a node of the graph maps to it (``core.coverage.map_node``: the
extractor said so, or the node's words name it), the same rule the interview steered by.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from interview_cli.analysis.report.codes import graph_ladders
from interview_cli.analysis.sources import session_graph, snapshot_concept, snapshot_methodology
from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.study import REACTIONS
from interview_cli.core.coverage import CoverageState, map_node
from interview_cli.core.decide.continuation import fatigue_min_coverage
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.errors import SessionFileError
from interview_cli.session.schema import SessionFile


@dataclass(frozen=True)
class ElementCoverage:
    """One stimulus element in one session."""

    id: str
    label: str
    turns: tuple[int, ...] = ()  # turns whose answer mentioned it (the graph's provenance)
    raised: tuple[int, ...] = ()  # turns whose question raised it (the interviewer)
    reactions: tuple[str, ...] = ()  # oldest first
    ladders: int = 0  # ladders climbing from one of its nodes
    node_ids: tuple[str, ...] = ()

    @property
    def mentioned(self) -> bool:
        return bool(self.node_ids)

    @property
    def volunteered(self) -> bool:
        """Mentioned before (or without) the interviewer raising it."""
        return self.mentioned and (not self.raised or min(self.turns, default=0) < self.raised[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "mentioned": self.mentioned,
            "volunteered": self.volunteered,
            "turns": list(self.turns),
            "raised": list(self.raised),
            "reactions": list(self.reactions),
            "ladders": self.ladders,
        }


@dataclass(frozen=True)
class SessionCoverage:
    """Every stimulus element of one session, in the concept's order."""

    elements: tuple[ElementCoverage, ...]
    threshold: float  # the share the methodology wants before any early stop
    answered: int = 0  # turns answered: a raise after them is the question waiting now

    @property
    def covered(self) -> list[ElementCoverage]:
        return [e for e in self.elements if e.mentioned]

    @property
    def missing(self) -> list[ElementCoverage]:
        return [e for e in self.elements if not e.mentioned]

    @property
    def ratio(self) -> float:
        return len(self.covered) / len(self.elements) if self.elements else 1.0

    def of(self, element_id: str) -> ElementCoverage | None:
        return next((e for e in self.elements if e.id == element_id), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ratio": round(self.ratio, 4),
            "threshold": self.threshold,
            "covered": [e.id for e in self.covered],
            "missing": [e.id for e in self.missing],
            "elements": [e.to_dict() for e in self.elements],
        }


def _recorded(session: SessionFile) -> CoverageState | None:
    data = (session.state or {}).get("coverage")
    return CoverageState.model_validate(data) if data else None


def _ladders_from(nodes: set[str], ladders: Sequence[tuple[str, ...]]) -> int:
    """Ladders with a rung above one of ``nodes``."""
    return sum(1 for ladder in ladders if any(n in nodes for n in ladder[:-1]))


def coverage_of(
    concept: Concept, methodology: Methodology, graph: KnowledgeGraph, recorded: Any = None
) -> SessionCoverage:
    """The elements of ``concept`` in ``graph``; ``recorded``: the session's saved coverage
    state (reactions, raised elements), if it has one."""
    state: CoverageState | None = recorded
    mapped: dict[str, list[str]] = {e.id: [] for e in concept.elements}
    for node in graph.nodes():
        for element_id in map_node(node, concept):
            mapped[element_id].append(node.id)
    ladders = graph_ladders(graph, methodology.ontology.chain_relations)
    rows = []
    for element in concept.elements:
        nodes = mapped[element.id]
        turns = sorted({p["turn"] for n in nodes for p in graph.node(n).provenance})
        rows.append(
            ElementCoverage(
                id=element.id,
                label=element.label,
                turns=tuple(turns),
                raised=tuple(state.raised.get(element.id, ())) if state else (),
                reactions=tuple(state.reactions.get(element.id, ())) if state else (),
                ladders=_ladders_from(set(nodes), ladders),
                node_ids=tuple(nodes),
            )
        )
    return SessionCoverage(tuple(rows), fatigue_min_coverage(methodology.tuning.coverage))


def concept_test_coverage(
    concept: Concept, methodology: Methodology, graph: KnowledgeGraph, recorded: Any = None
) -> SessionCoverage | None:
    """``coverage_of`` for a concept test; None when the concept has no stimulus elements,
    or they are a journey's stages or a grid's elements (no stimulus)."""
    if not concept.elements or methodology.shape != "ladder":
        return None
    return coverage_of(concept, methodology, graph, recorded)


def session_coverage(
    session: SessionFile, graph: KnowledgeGraph | None = None
) -> SessionCoverage | None:
    """A session's element coverage (``concept_test_coverage``), from its file alone;
    ``graph``: its graph when the caller has parsed it already."""
    if session.stimulus is None and not (session.state or {}).get("coverage"):
        # no stimulus shown and no coverage kept: no stimulus elements (its concept is not
        # parsed for nothing: a report reads hundreds of sessions)
        return None
    concept = snapshot_concept(session)
    methodology = snapshot_methodology(session)
    if not concept.elements or methodology.shape != "ladder":
        return None  # (before parsing the graph)
    graph = session_graph(session) if graph is None else graph
    coverage = concept_test_coverage(concept, methodology, graph, _recorded(session))
    return replace(coverage, answered=session.turn_count) if coverage is not None else None


def shown_coverage(session: SessionFile) -> SessionCoverage | None:
    """``session_coverage`` for a view that must show the session anyway (a transcript, a
    listing, an export): None too when its snapshots no longer load."""
    try:
        return session_coverage(session)
    except SessionFileError:
        return None


def element_marks(coverage: SessionCoverage | None, turn_number: int) -> list[str]:
    """Where the stimulus elements came up in a turn: raised by its question, mentioned in
    its answer (a transcript's note under the turn)."""
    if coverage is None:
        return []
    raised = [e.label for e in coverage.elements if turn_number in e.raised]
    said = [e.label for e in coverage.elements if turn_number in e.turns]
    lines = [f"element raised: {label}" for label in raised]
    if said:
        lines.append("element mentioned: " + "; ".join(said))
    return lines


ELEMENT_COLUMNS: tuple[str, ...] = ("element", "answers", "raised in", "reactions", "ladders")


def element_cells(element: ElementCoverage) -> list[str]:
    """One element of one session as table cells (``ELEMENT_COLUMNS``)."""
    return [
        element.label,
        ", ".join(f"A{t}" for t in element.turns) or "not mentioned",
        ", ".join(f"Q{t}" for t in element.raised) or "-",
        reactions_text(element.reactions),
        str(element.ladders),
    ]


# --------------------------------------------------------------------------------------------
# Across sessions
# --------------------------------------------------------------------------------------------


@dataclass
class ElementRow:
    """One element across the sessions of its concept."""

    id: str
    label: str
    sessions: int = 0
    mentioned: int = 0  # respondents who mentioned it
    volunteered: int = 0  # ... before (or without) being asked about it
    raised: int = 0  # respondents the interviewer raised it with
    reactions: Counter[str] = field(default_factory=Counter)  # each respondent's latest
    ladders: int = 0
    laddered: int = 0  # respondents with a ladder from it

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "sessions": self.sessions,
            "mentioned": self.mentioned,
            "coverage": round(self.mentioned / self.sessions, 4) if self.sessions else 0.0,
            "volunteered": self.volunteered,
            "raised": self.raised,
            "reactions": {r: self.reactions[r] for r in REACTIONS if self.reactions[r]},
            "ladders": self.ladders,
            "respondents_with_ladders": self.laddered,
        }


@dataclass
class ConceptElements:
    """A concept test's element table over its sessions."""

    concept_id: str
    concept_name: str
    sessions: int
    rows: list[ElementRow]

    def to_dict(self) -> dict[str, Any]:
        return {
            "concept": self.concept_id,
            "name": self.concept_name,
            "sessions": self.sessions,
            "elements": [r.to_dict() for r in self.rows],
        }


def element_tables(
    sessions: Sequence[SessionFile], graphs: Mapping[str, KnowledgeGraph] | None = None
) -> list[ConceptElements]:
    """Per concept with stimulus elements, in first-seen order: the element table;
    ``graphs``: the sessions' graphs by session id, when the caller has parsed them."""
    tables: dict[str, ConceptElements] = {}
    for session in sessions:
        coverage = session_coverage(session, (graphs or {}).get(session.id))
        if coverage is None:
            continue
        table = tables.get(session.concept.id)
        if table is None:
            rows = [ElementRow(e.id, e.label) for e in coverage.elements]
            table = tables[session.concept.id] = ConceptElements(
                session.concept.id, session.concept.name, 0, rows
            )
        table.sessions += 1
        _add(table, coverage)
    return list(tables.values())


def _add(table: ConceptElements, coverage: SessionCoverage) -> None:
    rows = {r.id: r for r in table.rows}
    for element in coverage.elements:
        row = rows.get(element.id)
        if row is None:  # a later version of the concept added it
            row = ElementRow(element.id, element.label)
            table.rows.append(row)
            rows[element.id] = row
        row.sessions += 1
        row.mentioned += element.mentioned
        row.volunteered += element.volunteered
        row.raised += bool(element.raised)
        if element.reactions:
            row.reactions[element.reactions[-1]] += 1
        row.ladders += element.ladders
        row.laddered += element.ladders > 0


def reactions_text(reactions: Counter[str] | Sequence[str]) -> str:
    """ "positive 3, skeptical 1" (counts), or "positive, then skeptical" (one session's)."""
    if isinstance(reactions, Counter):
        return ", ".join(f"{r} {reactions[r]}" for r in REACTIONS if reactions[r]) or "-"
    changes = [r for i, r in enumerate(reactions) if i == 0 or r != reactions[i - 1]]
    return ", then ".join(changes) or "-"
