"""What the prompts are told about the graph, chosen by relevance rather than by count.

The question writer gets the focus in the respondent's own words (the provenance quotes the
graph keeps per node), the ladder from the most concrete concept up to the focus, and what
was already asked on the focus with what it brought (the tracker's probes). The extractor
gets the earlier concepts an answer is likely to link to - the focus ladder, the most recent,
the most similar to the answer - each with its type and a short quote. Every list here is
bounded, so a prompt at turn 30 is about as long as at turn 5.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypedDict

from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.knowledge import DISOWNED, KnowledgeGraph
from interview_cli.core.grid import rated_on
from interview_cli.core.turn import CoreState
from interview_cli.llm.protocol import NodeContext, ProbeNote
from interview_cli.pipeline.summary import MAX_CHAINS, ladder_to, summary_chains
from interview_cli.session.schema import TurnRecord

QUOTE_CHARS = 80
MAX_COVERED = 12
EXTRACT_RECENT = 6
EXTRACT_SIMILAR = 6
_WORD = re.compile(r"\w{3,}")


def node_quotes(graph: KnowledgeGraph, node_id: str) -> list[str]:
    """The respondent's words about a node, oldest first, without repeats."""
    quotes: list[str] = []
    for entry in graph.node(node_id).provenance:
        quote = " ".join(entry["quote"].split())
        if quote and quote not in quotes:
            quotes.append(quote)
    return quotes


def node_context(
    graph: KnowledgeGraph, node_id: str, quote_chars: int = QUOTE_CHARS
) -> NodeContext:
    node = graph.node(node_id)
    quotes = node_quotes(graph, node_id)
    quote = quotes[-1] if quotes else ""
    if len(quote) > quote_chars:
        quote = quote[:quote_chars].rsplit(" ", 1)[0] + " ..."
    return NodeContext(label=node.label, node_type=node.node_type, quote=quote)


def _asked_question(turns: Sequence[TurnRecord], selected_at: int) -> str:
    """The question chosen at the end of turn ``selected_at``: the one asked in the next."""
    for turn in turns:
        if turn.turn_number == selected_at + 1:
            return turn.question.text
    return ""


def covered_labels(graph: KnowledgeGraph, methodology: Methodology) -> list[str]:
    """The most concrete concepts already named, most recent first: what a topic-level
    question must not offer back as examples."""
    levels = methodology.ontology.levels
    lowest = min(levels.values(), default=1)
    nodes = [n for n in graph.nodes() if levels.get(n.node_type, 0) == lowest]
    nodes.sort(key=lambda n: (-n.last_mentioned_turn, n.id))
    return [n.label for n in nodes[:MAX_COVERED]]


class QuestionContext(TypedDict, total=False):
    """The graph-derived fields of a ``QuestionRequest`` (keyword arguments to it)."""

    summary_chains: list[list[str]]
    covered_labels: list[str]
    focus_quotes: list[str]
    focus_said_turn: int
    rated_elements: list[str]
    chain: list[NodeContext]
    probes: list[ProbeNote]


class ExtractionContext(TypedDict):
    """The earlier concepts and exchange of an ``ExtractRequest`` (keyword arguments to it)."""

    existing_nodes: list[NodeContext]
    previous_question: str
    previous_answer: str


def question_context(
    core: CoreState,
    methodology: Methodology,
    focus_id: str | None,
    turns: Sequence[TurnRecord],
) -> QuestionContext:
    """The graph-derived fields of a ``QuestionRequest``."""
    graph = core.graph
    context: QuestionContext = {
        "summary_chains": summary_chains(graph, methodology, MAX_CHAINS),
        "covered_labels": covered_labels(graph, methodology),
    }
    if focus_id is None or focus_id not in graph:
        return context
    context["focus_quotes"] = node_quotes(graph, focus_id)
    context["focus_said_turn"] = max(
        (p["turn"] for p in graph.node(focus_id).provenance),
        default=graph.node(focus_id).created_turn,
    )
    rated = rated_on(graph, methodology, focus_id)
    if rated:
        context["rated_elements"] = rated
    context["chain"] = [node_context(graph, n) for n in ladder_to(graph, methodology, focus_id)]
    state = core.tracker.states.get(focus_id)
    if state is not None:
        context["probes"] = [
            ProbeNote(
                turn=p.turn + 1,
                strategy=p.strategy,
                outcome=p.outcome,
                question=_asked_question(turns, p.turn),
            )
            for p in state.probes
        ]
    return context


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def extraction_nodes(
    graph: KnowledgeGraph,
    methodology: Methodology,
    focus_id: str | None,
    answer: str,
) -> list[NodeContext]:
    """The earlier concepts an extraction prompt shows: the focus ladder, the most recently
    mentioned, and the most similar to the answer (word overlap with label and quotes)."""
    # a concept taken back is no earlier concept to steer to or correct until said again
    # (round 16: "can we go back to the calls thing ... about Carol" went to the layby the
    # respondent had disowned twice)
    live = [n for n in graph.nodes() if not graph.is_superseded(n.id) and n.confidence != DISOWNED]
    chosen: list[str] = []
    if focus_id is not None and focus_id in graph:
        chosen += ladder_to(graph, methodology, focus_id)
    recent = sorted(live, key=lambda n: (-n.last_mentioned_turn, n.id))
    chosen += [n.id for n in recent[:EXTRACT_RECENT]]
    words = _words(answer)
    if words:
        scored = []
        for node in live:
            overlap = len(words & _words(" ".join([node.label, *node_quotes(graph, node.id)])))
            if overlap:
                scored.append((-overlap, node.id))
        chosen += [node_id for _, node_id in sorted(scored)[:EXTRACT_SIMILAR]]
    unique = list(dict.fromkeys(chosen))
    return [node_context(graph, n) for n in unique]
